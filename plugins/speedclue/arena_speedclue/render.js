// Speed Clue's picture in the arena report: a deduction grid, cards by players.
// The picture is data made by arena_speedclue/render.py; every name and reason in it may come
// from a bot or a match file, so text only ever goes in through textContent or an attribute.
(function () {
  "use strict";

  // [abbreviation, name, category] in the order of render.py's strings: filled in from
  // arena_speedclue/cards.py when the report copies this script.
  const CARDS = /* cards.py */ [];
  const TITLES = { suspect: "Suspects", weapon: "Weapons", room: "Rooms" };
  const MARKS = { "+": "\u2713", "-": "\u2717", ".": "" };
  const MEANING = {
    "+": "known to hold it",
    "-": "known not to hold it",
    ".": "not known yet",
  };

  function node(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined && text !== null) made.textContent = String(text);
    return made;
  }

  function seatName(context, seat) {
    const names = (context && context.seating) || [];
    return typeof names[seat] === "string" ? names[seat] : `seat ${seat}`;
  }

  function cardName(abbreviation) {
    const found = CARDS.find((card) => card[0] === abbreviation);
    return found ? found[1] : String(abbreviation);
  }

  function cardList(cards) {
    return Array.isArray(cards) ? cards.map(cardName).join(", ") : "";
  }

  function banner(picture, context) {
    const box = node("div", "sc-banner");
    const active = picture.active;
    const out = new Map((picture.out || []).map((entry) => [entry[0], entry[1]]));
    if (Array.isArray(picture.suggestion)) {
      const line = node("div", "sc-line sc-suggestion");
      line.append(node("strong", null, seatName(context, active)), " suggests ");
      line.append(node("span", "sc-cards", cardList(picture.suggestion)));
      if (picture.confirmed === false) {
        line.append(" (not accepted)");
      } else if (picture.disprover === null || picture.disprover === undefined) {
        line.append(": nobody can disprove it");
      } else {
        const disprover = node("strong", null, seatName(context, picture.disprover));
        const shown = node("span", "sc-cards", picture.card ? cardName(picture.card) : "a card");
        if (out.get(picture.disprover) === "forfeited") {
          // A seat that forfeited keeps its cards, and the referee shows for it.
          line.append(": the referee shows ", shown, " for ", disprover, ", who forfeited");
        } else {
          line.append(": ", disprover, " shows ", shown);
        }
      }
      box.append(line);
    }
    if (Array.isArray(picture.accusation)) {
      const verdict = picture.correct === true ? "right" : picture.correct === false ? "wrong" : "not accepted";
      const line = node("div", `sc-line sc-accusation sc-${verdict.replace(" ", "-")}`);
      line.append(node("strong", null, seatName(context, active)), " accuses ");
      line.append(node("span", "sc-cards", cardList(picture.accusation)), `: ${verdict}`);
      box.append(line);
    }
    for (const fault of Array.isArray(picture.faults) ? picture.faults : []) {
      const who = fault[0] === null ? "referee" : seatName(context, fault[0]);
      box.append(node("div", "sc-line sc-fault", `${who}: ${fault[1]}`));
    }
    if (Array.isArray(picture.winners)) {
      const line = node("div", "sc-line sc-end");
      if (Array.isArray(picture.solution)) {
        line.append("Case file: ", node("span", "sc-cards", cardList(picture.solution)), ". ");
      }
      const names = picture.winners.map((seat) => seatName(context, seat));
      line.append(names.length ? `Winner: ${names.join(" and ")}` : "No winner: the game is void");
      box.append(line);
    }
    return box;
  }

  function header(picture, context, players) {
    const out = new Map((picture.out || []).map((entry) => [entry[0], entry[1]]));
    const passed = new Set(picture.passed || []);
    const winners = new Set(picture.winners || []);
    const row = node("tr");
    row.append(node("th", "sc-corner", "card"));
    for (let seat = 0; seat < players; seat += 1) {
      const cell = node("th", "sc-seat");
      cell.append(node("div", "sc-name", `${seat}: ${seatName(context, seat)}`));
      let role = "";
      if (winners.has(seat)) role = "winner";
      else if (seat === picture.active) role = Array.isArray(picture.accusation) ? "accuses" : "suggests";
      else if (seat === picture.disprover) role = "shows";
      else if (passed.has(seat)) role = "cannot disprove";
      if (role) {
        cell.classList.add(`sc-${role.replace(" ", "-")}`);
        cell.append(node("div", "sc-role", role));
      }
      if (out.has(seat)) {
        cell.classList.add("sc-out");
        cell.append(node("div", "sc-role", `out: ${out.get(seat)}`));
      }
      row.append(cell);
    }
    row.append(node("th", "sc-seat sc-case", "case file"));
    return row;
  }

  function grid(picture, context) {
    const players = Number(picture.players) || 0;
    const known = Array.isArray(picture.known) ? picture.known : [];
    const holder = Array.isArray(picture.holder) ? picture.holder : [];
    const asked = new Set([].concat(picture.suggestion || [], picture.accusation || []));
    const solution = new Set(picture.solution || []);
    const inCase = new Set(picture.case || []);
    const shownTo = new Map();
    for (const [card, from, to] of picture.shown || []) {
      const key = `${card}/${from}`;
      if (!shownTo.has(key)) shownTo.set(key, []);
      if (!shownTo.get(key).includes(to)) shownTo.get(key).push(to);
    }
    const table = node("table", "sc-grid");
    const head = node("thead");
    head.append(header(picture, context, players));
    table.append(head);
    const body = node("tbody");
    let category = "";
    CARDS.forEach(([card, name, kind], index) => {
      if (kind !== category) {
        category = kind;
        const title = node("tr", "sc-category");
        const cell = node("th", null, TITLES[kind] || kind);
        cell.colSpan = players + 2;
        title.append(cell);
        body.append(title);
      }
      const row = node("tr", asked.has(card) ? "sc-asked" : null);
      const th = node("th", "sc-card");
      th.append(node("span", "sc-abbr", card), ` ${name}`);
      row.append(th);
      for (let owner = 0; owner <= players; owner += 1) {
        const mark = (known[owner] || "").charAt(index) || ".";
        const cell = node("td", `sc-cell sc-mark-${{ "+": "yes", "-": "no" }[mark] || "open"}`);
        const isCase = owner === players;
        const who = isCase ? "the case file" : seatName(context, owner);
        let title = `${who}: ${MEANING[mark] || MEANING["."]}`;
        cell.append(node("span", "sc-symbol", MARKS[mark] || ""));
        if (!isCase && holder[index] === owner) {
          cell.classList.add("sc-dealt");
          title += " (dealt this card)";
        }
        if (isCase) {
          cell.classList.add("sc-case");
          if (inCase.has(card)) {
            cell.classList.add("sc-dealt");
            title += " (in the case file at the deal)";
          }
          if (solution.has(card)) {
            cell.classList.add("sc-solution");
            cell.firstChild.textContent = "\u2605";
            title = "in the case file";
          }
        }
        const to = shownTo.get(`${card}/${owner}`);
        if (to) {
          cell.append(node("sub", "sc-to", `\u2192${to.join(",")}`));
          title += `; shown to ${to.map((seat) => seatName(context, seat)).join(", ")}`;
        }
        if (picture.card === card && picture.disprover === owner) cell.classList.add("sc-just");
        cell.title = title;
        row.append(cell);
      }
      body.append(row);
    });
    table.append(body);
    return table;
  }

  function legend() {
    const box = node("div", "sc-legend");
    box.append(
      node("span", "sc-key sc-mark-yes", "\u2713 known to hold"),
      node("span", "sc-key sc-mark-no", "\u2717 known not to hold"),
      node("span", "sc-key sc-dealt", "tinted: dealt (the referee's view)"),
      node("span", "sc-key", "\u2192n: shown to seat n"),
    );
    return box;
  }

  arenaReport.drawers["speedclue"] = function (element, picture, context) {
    const root = node("div", "sc");
    root.append(banner(picture || {}, context), grid(picture || {}, context), legend());
    element.append(root);
  };
})();
