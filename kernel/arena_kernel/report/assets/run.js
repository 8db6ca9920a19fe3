// The games list of a run page, drawn from the run's list file (data/games-<run>.js),
// which is read once the page has loaded: a page of rows at a time, sorted by a column,
// found by game id, filtered by bot, by that bot's result and by fault. Its first page
// comes first from a small file of its own (data/games-<run>-first.js), shown while the
// whole list is read. Every text from the data is set as text, never as markup.
(function () {
  "use strict";
  const table = document.getElementById("games");
  if (!table) return;
  const PAGE = Number(table.dataset.page);
  const $ = (id) => document.getElementById(id);
  const search = $("search-id");
  const bot = $("filter-bot");
  const result = $("filter-result");
  const fault = $("filter-fault");
  const count = $("games-shown");
  const body = table.tBodies[0];
  let list = null;
  let col = null;
  let games = [];
  let shown = [];
  let page = 0;
  let order = { key: "index", down: false };

  function winners(game) {
    const ranks = game[col.ranks];
    const firsts = [];
    ranks.forEach((rank, seat) => {
      if (rank === 1) firsts.push(list.bots[game[col.seats][seat]]);
    });
    return firsts;
  }

  function winnerText(game) {
    if (game[col.void]) return "void";
    const firsts = winners(game);
    if (firsts.length === 1) return firsts[0];
    return firsts.length ? `draw: ${firsts.join(", ")}` : "-";
  }

  function faultText(game) {
    return game[col.kinds].map((k) => list.kinds[k]).join(", ");
  }

  // The game's result for the bot numbered b (or for the game, when b is -1).
  function outcome(game, b) {
    if (game[col.void]) return "void";
    const ranks = game[col.ranks];
    const seats = game[col.seats];
    const firsts = ranks.filter((rank) => rank === 1).length;
    if (b < 0) return firsts === 1 ? "won lost" : "drawn";
    const first = seats.some((who, seat) => who === b && ranks[seat] === 1);
    if (!first) return "lost";
    return seats.filter((who, seat) => who !== b && ranks[seat] === 1).length ? "drawn" : "won";
  }

  // The test the filters make now (their values read once, not once per game), or null
  // when every game passes.
  function filter() {
    const id = search.value.trim();
    const b = bot.value ? list.bots.indexOf(bot.value) : -1;
    const wantedResult = result.value;
    const kind = fault.value;
    if (!id && !bot.value && !wantedResult && !kind) return null;
    const k = kind && kind !== "none" && kind !== "any" ? list.kinds.indexOf(kind) : -1;
    return (game) => {
      if (id && String(game[col.id]) !== id) return false;
      if (bot.value && !game[col.seats].includes(b)) return false;
      if (wantedResult && !outcome(game, b).split(" ").includes(wantedResult)) return false;
      const kinds = game[col.kinds];
      if (kind === "none") return kinds.length === 0;
      if (kind === "any") return kinds.length > 0;
      return !kind || kinds.includes(k);
    };
  }

  const KEYS = {
    id: (g) => g[col.id],
    index: (g) => g[col.index],
    seconds: (g) => g[col.seconds],
    winner: winnerText,
    reason: (g) => list.reasons[g[col.reason]],
    faults: faultText,
  };

  // The list file holds the games in schedule order: that order needs no sorting.
  function sorted(rows) {
    if (order.key === "index" && !order.down) return rows;
    const key = KEYS[order.key];
    const sign = order.down ? -1 : 1;
    return rows
      .map((g) => [key(g), g[col.index], g])
      .sort((a, b) => (a[0] < b[0] ? -sign : a[0] > b[0] ? sign : a[1] - b[1]))
      .map((entry) => entry[2]);
  }

  function cell(row, text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function line(game) {
    const row = document.createElement("tr");
    const kinds = faultText(game);
    if (kinds) row.className = "has-fault";
    const link = document.createElement("a");
    link.href = `${table.dataset.root}game.html#${game[col.id]}`;
    link.textContent = String(game[col.id]);
    cell(row, "", "num").appendChild(link);
    cell(row, String(game[col.index]), "num");
    const seats = cell(row, "", "seats");
    const faulted = game[col.faulted];
    game[col.seats].forEach((who, seat) => {
      if (seat) seats.appendChild(document.createTextNode(", "));
      const name = document.createElement("span");
      if (faulted.includes(seat)) name.className = "fault";
      name.textContent = `${list.bots[who]} (${game[col.ranks][seat]})`;
      seats.appendChild(name);
    });
    cell(row, winnerText(game), "winner");
    const reason = list.reasons[game[col.reason]];
    cell(row, reason, "reason").title = reason;
    cell(row, kinds, "faults");
    cell(row, game[col.seconds].toFixed(2), "num");
    return row;
  }

  function draw() {
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(Math.max(page, 0), pages - 1);
    body.replaceChildren(...shown.slice(page * PAGE, (page + 1) * PAGE).map(line));
    count.textContent = `${shown.length} of ${games.length} games`;
    $("page-at").textContent = `page ${page + 1} of ${pages}`;
    $("page-first").disabled = $("page-prev").disabled = page === 0;
    $("page-last").disabled = $("page-next").disabled = page === pages - 1;
    for (const button of table.querySelectorAll("th button")) {
      const on = button.dataset.sort === order.key;
      button.parentElement.setAttribute("aria-sort", on ? (order.down ? "descending" : "ascending") : "none");
    }
  }

  function apply() {
    const wanted = filter();
    shown = sorted(wanted ? games.filter(wanted) : games);
    page = 0;
    draw();
  }

  function read(data) {
    list = data;
    col = {};
    data.columns.forEach((name, at) => (col[name] = at));
    games = data.games;
  }

  // The first page while the whole list is on its way: no sorting, filters or pages yet
  // (a filter chosen meanwhile applies as soon as the list is in).
  function preview(data) {
    read(data);
    body.replaceChildren(...games.map(line));
    count.textContent = `${games.length} of ${data.total} games (reading the rest...)`;
    $("page-at").textContent = `page 1 of ${Math.max(1, Math.ceil(data.total / PAGE))}`;
    for (const id of ["page-first", "page-prev", "page-next", "page-last"]) $(id).disabled = true;
    table.dataset.shown = "true";
  }

  function start(data) {
    read(data);
    for (const kind of [...data.kinds].sort()) fault.appendChild(new Option(kind, kind));
    for (const control of [bot, result, fault]) control.addEventListener("change", apply);
    search.addEventListener("input", apply);
    for (const button of table.querySelectorAll("th button")) {
      button.addEventListener("click", () => {
        const key = button.dataset.sort;
        order = { key, down: order.key === key ? !order.down : false };
        apply();
      });
    }
    const pageButtons = { "page-first": () => 0, "page-prev": () => page - 1, "page-next": () => page + 1, "page-last": () => Infinity };
    for (const [id, to] of Object.entries(pageButtons)) {
      $(id).addEventListener("click", () => {
        page = to();
        draw();
      });
    }
    table.dataset.ready = "true";
    table.dataset.shown = "true";
    apply();
  }

  function fail(error) {
    count.textContent = String(error.message || error);
    count.className = "problem";
    table.dataset.failed = "true";
    console.error(error);
  }

  // The whole list is read once the first page is drawn: reading a long list holds the
  // page's thread, which would otherwise keep the first page from being shown. A first
  // page that cannot be read costs only the early view.
  function begin() {
    const run = table.dataset.run;
    const whole = () => window.arenaReport.load(table.dataset.list, `games-${run}`).then(start, fail);
    const later = () => requestAnimationFrame(() => setTimeout(whole, 0));
    window.arenaReport.load(table.dataset.first, `first-${run}`).then((data) => {
      preview(data);
      later();
    }, whole);
  }

  count.textContent = "reading the games...";
  if (document.readyState === "complete") begin();
  else window.addEventListener("load", begin);
})();
