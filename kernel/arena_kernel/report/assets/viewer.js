// The replay viewer of a game page: steps through the game's positions with buttons, the
// arrow keys (Home/End too) and a slider; shows each step's label, caption, the game's
// own picture (the game's drawer, when it has one) and the messages of that step.
// Every text from the data (bot messages included) is set as text, never as markup.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps;
  const events = data.events;
  const drawer = data.drawer ? window.arenaReport.drawers[data.drawer] : undefined;
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  const list = $("steplist");
  let current = -1;

  function who(seat) {
    if (seat === null || seat === undefined) return "referee";
    const bot = data.seating[seat];
    return bot === undefined ? `seat ${seat}` : `${seat} ${bot}`;
  }

  const ARROWS = { send: "\u2192", recv: "\u2190", late: "\u2190", fault: "\u2716", note: "\u2022" };

  function cell(row, text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

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

  function messages(step) {
    const body = $("messages").tBodies[0];
    body.replaceChildren();
    for (let i = step.start; i < step.stop; i += 1) {
      const [t, kind, seat, text, elapsed, cpu] = events[i];
      const row = document.createElement("tr");
      row.className = `event ${kind}`;
      cell(row, t.toFixed(3), "num");
      cell(row, who(seat), "who");
      cell(row, `${ARROWS[kind] || ""} ${kind}`, "kind");
      cell(row, text, "text");
      replyTime(row, elapsed, cpu);
      body.appendChild(row);
    }
    $("no-messages").hidden = step.stop > step.start;
  }

  function picture(step, index) {
    const element = $("picture");
    element.replaceChildren();
    if (!drawer) return;
    try {
      drawer(element, step.picture, { seating: data.seating.slice(), step: index, steps: steps.length });
    } catch (error) {
      // Said on the console too, so that a check of the page (arena's browser tests, a
      // plugin's) sees a drawing that fails at any step, not only at the one it opens.
      console.error(`the ${data.drawer} drawing failed at step ${index + 1}:`, error);
      element.replaceChildren();
      const note = document.createElement("p");
      note.className = "problem";
      note.textContent = `the ${data.drawer} drawing failed: ${error}`;
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
    for (const item of list.querySelectorAll("li.current")) item.classList.remove("current");
    const item = list.children[index];
    if (item) {
      item.classList.add("current");
      item.scrollIntoView({ block: "nearest" });
    }
    $("first").disabled = $("prev").disabled = index === 0;
    $("last").disabled = $("next").disabled = index === steps.length - 1;
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

  slider.max = String(steps.length - 1);
  slider.addEventListener("input", () => show(Number(slider.value)));
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(current - 1));
  $("next").addEventListener("click", () => show(current + 1));
  $("last").addEventListener("click", () => show(steps.length - 1));
  document.addEventListener("keydown", (event) => {
    // The slider moves itself on these keys (and tells us through "input").
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    show(moves[event.key]);
  });
  show(0);
})();
