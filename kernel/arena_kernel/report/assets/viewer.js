// The game page (game.html#<id>): finds the replay file that holds the game, reads its
// record, then shows who sat where, how it ended, its faults and stderr logs, and the
// replay viewer: the game's positions stepped with buttons, the arrow keys (Home/End too),
// a slider or by itself (play, at a chosen speed); each step's label, caption, the game's
// own picture (the game's drawer, when it has one), the messages of that step, and one
// seat's own view: what that bot was sent and answered so far.
// Every text from the data (bot messages included) is set as text, never as markup.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const files = JSON.parse($("replay-files").textContent);

  function missing(text) {
    $("missing").textContent = text;
    $("missing").className = "problem";
    $("missing").hidden = false;
    $("title").textContent = "no game shown";
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function cell(row, text, className) {
    return row.appendChild(element("td", text, className));
  }

  async function open() {
    const hash = decodeURIComponent(window.location.hash.slice(1));
    const id = Number(hash);
    if (!hash || !Number.isInteger(id)) {
      missing("no game chosen: the address ends with #ID, the game's id (the run page lists them)");
      return;
    }
    let at = -1;
    files.forEach(([first], index) => {
      if (first <= id) at = index;
    });
    if (at < 0) {
      missing(`there is no game ${id} in this report`);
      return;
    }
    const records = await window.arenaReport.load(files[at][1], `replays-${at}`);
    if (!(String(id) in records)) {
      missing(`there is no game ${id} in this report`);
      return;
    }
    show(id, await window.arenaReport.inflate(records[String(id)]));
  }

  function show(id, game) {
    document.title = `game ${id}: ${game.seating.join(" vs ")}`;
    $("title").textContent = document.title;
    $("result").textContent = game.result;
    const [runId, runName] = game.run;
    $("run-link").textContent = `run ${runId}: ${runName}`;
    $("run-link").href = `runs/${runId}.html`;
    $("game-name").textContent = `game ${id}`;
    facts(game, runId, runName);
    seats(game);
    faults(game);
    $("game").hidden = false;
    viewer(game);
  }

  function facts(game, runId, runName) {
    const list = $("facts");
    const add = (name, value) => {
      list.appendChild(element("dt", name));
      return list.appendChild(element("dd", value));
    };
    const run = add("run", "");
    const link = element("a", `${runId} (${runName})`);
    link.href = `runs/${runId}.html`;
    run.appendChild(link);
    add("game", `${game.game}, #${game.index} of the schedule`);
    add("seed", String(game.seed));
    add("started", `${game.started}, lasted ${game.duration.toFixed(3)} s`);
    add("sandbox", game.sandbox);
    const result = add("result", game.reason);
    if (game.void) result.appendChild(element("span", "void", "badge warn"));
  }

  function seats(game) {
    const body = $("seats").tBodies[0];
    const scored = game.scores !== null;
    for (const node of document.querySelectorAll("#seats .score")) node.hidden = !scored;
    game.seating.forEach((bot, seat) => {
      const row = document.createElement("tr");
      cell(row, String(seat), "num");
      const name = cell(row, bot);
      if (game.disqualified.includes(seat)) name.appendChild(element("span", "disqualified", "badge warn"));
      cell(row, String(game.ranks[seat]), "num");
      if (scored) cell(row, String(game.scores[seat]), "num");
      const where = cell(row, "");
      const log = game.logs[String(seat)];
      if (!log) {
        where.appendChild(element("span", "none", "missing"));
      } else if (log[1] === null) {
        const gone = element("span", "missing", "missing");
        gone.title = log[0];
        where.appendChild(gone);
      } else {
        const button = element("button", "stderr", "link");
        button.type = "button";
        button.title = log[0];
        button.addEventListener("click", () => {
          $("log-title").textContent = `stderr of seat ${seat} (${bot}): ${log[0]}`;
          $("log").textContent = log[1];
          $("log-part").hidden = false;
          $("log-part").scrollIntoView({ block: "nearest" });
        });
        where.appendChild(button);
      }
      body.appendChild(row);
    });
  }

  function who(game, seat) {
    if (seat === null || seat === undefined) return "referee";
    const bot = game.seating[seat];
    return bot === undefined ? `seat ${seat}` : `${seat} ${bot}`;
  }

  function faults(game) {
    if (!game.faults.length) return;
    const list = $("faults");
    for (const [at, seat, kind, detail] of game.faults) {
      const item = element("li", "", "fault");
      const whom = seat === null || game.seating[seat] === undefined ? "referee" : `seat ${seat} (${game.seating[seat]})`;
      item.append(`${at.toFixed(3)} s: ${whom}: `, element("strong", kind), `: ${detail}`);
      list.appendChild(item);
    }
    $("faults-part").hidden = false;
  }

  const ARROWS = { send: "\u2192", recv: "\u2190", late: "\u2190", fault: "\u2716", note: "\u2022" };

  // A reply's time in ms; on a CPU-time clock, the CPU time its bot used too.
  function replyTime(row, elapsed, cpu) {
    if (elapsed === null || elapsed === undefined) return cell(row, "", "num");
    const wall = (elapsed * 1000).toFixed(1);
    if (cpu === null || cpu === undefined) return cell(row, wall, "num");
    const used = (cpu * 1000).toFixed(1);
    const td = cell(row, `${wall} \u00b7 CPU ${used}`, "num");
    td.title = `${wall} ms from request to reply, ${used} ms of CPU time`;
    return td;
  }

  const SEAT_VIEW_ROWS = 200;
  const SPEED_KEY = "arena-replay-speed";

  function viewer(game) {
    const steps = game.steps;
    const events = game.events;
    const drawer = game.drawer ? window.arenaReport.drawers[game.drawer] : undefined;
    const slider = $("slider");
    const list = $("steplist");
    const seatView = $("seat-view");
    const speed = $("speed");
    let current = -1;
    let timer = null;

    $("picture").className = `picture picture-${game.game}`;
    if (game.problem) {
      $("problem").textContent = `${game.problem}; shown as its transcript`;
      $("problem").className = "problem";
      $("problem").hidden = false;
    }
    $("keys").textContent = `Keys: Left and Right step, Home and End jump, Space plays and pauses. ${events.length} messages in all.`;
    game.seating.forEach((bot, seat) => seatView.appendChild(new Option(`${seat} ${bot}`, String(seat))));

    function messages(step) {
      const body = $("messages").tBodies[0];
      body.replaceChildren();
      for (let i = step.start; i < step.stop; i += 1) {
        const [t, kind, seat, text, elapsed, cpu] = events[i];
        const row = document.createElement("tr");
        row.className = `event ${kind}`;
        cell(row, t.toFixed(3), "num");
        cell(row, who(game, seat), "who");
        cell(row, `${ARROWS[kind] || ""} ${kind}`, "kind");
        cell(row, text, "text");
        replyTime(row, elapsed, cpu);
        body.appendChild(row);
      }
      $("no-messages").hidden = step.stop > step.start;
    }

    // What the chosen seat was sent and answered up to this step: its last rows.
    function ownView(step) {
      const seat = Number(seatView.value);
      const body = $("seat-messages").tBodies[0];
      const mine = [];
      for (let i = 0; i < step.stop; i += 1) {
        if (events[i][2] === seat) mine.push(i);
      }
      body.replaceChildren();
      for (const i of mine.slice(-SEAT_VIEW_ROWS)) {
        const [t, kind, , text] = events[i];
        const row = document.createElement("tr");
        row.className = `event ${kind}${i >= step.start ? " now" : ""}`;
        cell(row, t.toFixed(3), "num");
        cell(row, `${ARROWS[kind] || ""} ${kind}`, "kind");
        cell(row, text, "text");
        body.appendChild(row);
      }
      const scroller = body.closest(".seat-scroll");
      scroller.scrollTop = scroller.scrollHeight;
    }

    function picture(step, index) {
      const element = $("picture");
      element.replaceChildren();
      if (!drawer) return;
      try {
        drawer(element, step.picture, { seating: game.seating.slice(), step: index, steps: steps.length });
      } catch (error) {
        // Said on the console too, so that a check of the page (arena's browser tests, a
        // plugin's) sees a drawing that fails at any step, not only at the one it opens.
        console.error(`the ${game.drawer} drawing failed at step ${index + 1}:`, error);
        element.replaceChildren();
        const note = document.createElement("p");
        note.className = "problem";
        note.textContent = `the ${game.drawer} drawing failed: ${error}`;
        element.appendChild(note);
      }
    }

    function show(index) {
      index = Math.max(0, Math.min(steps.length - 1, index));
      if (index === current) return;
      const step = steps[index];
      current = index;
      slider.value = String(index);
      $("position").textContent = `${index + 1} / ${steps.length}`;
      $("label").textContent = step.label;
      $("caption").textContent = step.caption;
      picture(step, index);
      messages(step);
      ownView(step);
      for (const item of list.querySelectorAll("li.current")) item.classList.remove("current");
      const item = list.children[index];
      if (item) {
        item.classList.add("current");
        item.scrollIntoView({ block: "nearest" });
      }
      $("first").disabled = $("prev").disabled = index === 0;
      $("last").disabled = $("next").disabled = index === steps.length - 1;
      if (index === steps.length - 1) pause();
    }

    function pause() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      $("play").textContent = "play";
      $("play").setAttribute("aria-pressed", "false");
    }

    function play() {
      if (current === steps.length - 1) show(0);
      pause();
      timer = setInterval(() => show(current + 1), 1000 / Number(speed.value));
      $("play").textContent = "pause";
      $("play").setAttribute("aria-pressed", "true");
    }

    function toggle() {
      if (timer === null) play();
      else pause();
    }

    steps.forEach((step, index) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = step.label;
      button.addEventListener("click", () => show(index));
      item.appendChild(button);
      list.appendChild(item);
    });

    try {
      const kept = window.localStorage.getItem(SPEED_KEY);
      if (kept && [...speed.options].some((o) => o.value === kept)) speed.value = kept;
    } catch (error) {
      // A page from disk may have no storage: the speed is the default one.
    }
    speed.addEventListener("change", () => {
      try {
        window.localStorage.setItem(SPEED_KEY, speed.value);
      } catch (error) {
        // As above: the speed holds for this page only.
      }
      if (timer !== null) play();
    });
    slider.max = String(steps.length - 1);
    slider.addEventListener("input", () => show(Number(slider.value)));
    seatView.addEventListener("change", () => ownView(steps[current]));
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(current - 1));
    $("next").addEventListener("click", () => show(current + 1));
    $("last").addEventListener("click", () => show(steps.length - 1));
    $("play").addEventListener("click", toggle);
    document.addEventListener("keydown", (event) => {
      // The slider moves itself on these keys (and tells us through "input").
      if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.target instanceof HTMLSelectElement) return;
      if (event.target instanceof HTMLButtonElement && (event.key === " " || event.key === "Enter")) return;
      if (event.key === " ") {
        event.preventDefault();
        toggle();
        return;
      }
      const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
      if (!(event.key in moves)) return;
      event.preventDefault();
      pause();
      show(moves[event.key]);
    });
    show(0);
    document.body.dataset.ready = "true";
  }

  window.addEventListener("hashchange", () => window.location.reload());
  open().catch((error) => {
    missing(String(error.message || error));
    console.error(error);
  });
})();
