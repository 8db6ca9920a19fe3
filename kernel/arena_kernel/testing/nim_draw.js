// The report's picture of a Nim position: the pile as stones in groups of four (a
// multiple of four is the losing pile to face), the stones just taken in the mover's
// colour, the ones taken earlier as outlines; the seats below, the mover marked, the
// seats that went out struck through. Built with DOM calls only: bot names are text.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const PER_ROW = 32;
  const R = 9;
  const GAP = 22;
  const GROUP_GAP = 12;

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    return node;
  }

  function stones(picture) {
    const start = Math.max(0, picture.start | 0);
    const pile = Math.max(0, picture.pile | 0);
    const taken = Math.max(0, picture.taken | 0);
    const rows = Math.max(1, Math.ceil(start / PER_ROW));
    const width = PER_ROW * GAP + (PER_ROW / 4 - 1) * GROUP_GAP + 2 * R;
    const height = rows * GAP + 2 * R;
    const root = svg("svg", {
      viewBox: `0 0 ${width} ${height}`,
      class: "nim-pile",
      role: "img",
      "aria-label": `${pile} of ${start} stones left`,
    });
    for (let i = 0; i < start; i += 1) {
      const col = i % PER_ROW;
      const row = Math.floor(i / PER_ROW);
      const x = R + 2 + col * GAP + Math.floor(col / 4) * GROUP_GAP;
      const y = R + 2 + row * GAP;
      let kind = "gone";
      if (i < pile) kind = "left";
      else if (i < pile + taken) kind = `taken seat-${picture.by}`;
      root.appendChild(svg("circle", { cx: x, cy: y, r: R - 1, class: `stone ${kind}` }));
    }
    return root;
  }

  function bar(picture) {
    // A pile too big for stones: one bar, the part just taken in the mover's colour.
    const start = Math.max(1, picture.start | 0);
    const root = svg("svg", { viewBox: "0 0 600 30", class: "nim-pile", role: "img" });
    const left = (600 * picture.pile) / start;
    const taken = (600 * picture.taken) / start;
    root.appendChild(svg("rect", { x: 0, y: 5, width: 600, height: 20, class: "stone gone" }));
    root.appendChild(svg("rect", { x: 0, y: 5, width: left, height: 20, class: "stone left" }));
    root.appendChild(
      svg("rect", { x: left, y: 5, width: taken, height: 20, class: `stone taken seat-${picture.by}` })
    );
    return root;
  }

  window.arenaReport.drawers.nim = function (element, picture, context) {
    const count = document.createElement("div");
    count.className = "nim-count";
    count.textContent = `${picture.pile} of ${picture.start} stones left`;
    element.appendChild(count);
    element.appendChild(picture.start > 400 ? bar(picture) : stones(picture));
    const seats = document.createElement("ol");
    seats.className = "nim-seats";
    seats.start = 0;
    const out = new Set(picture.out || []);
    context.seating.forEach((bot, seat) => {
      const item = document.createElement("li");
      item.className = `seat-${seat}`;
      if (seat === picture.by) item.classList.add("mover");
      if (out.has(seat)) item.classList.add("out");
      const chip = document.createElement("span");
      chip.className = `chip seat-${seat}`;
      item.appendChild(chip);
      item.appendChild(document.createTextNode(bot));
      seats.appendChild(item);
    });
    element.appendChild(seats);
  };
})();
