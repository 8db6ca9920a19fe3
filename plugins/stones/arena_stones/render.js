// The report's drawing of a Game of Stones position (see arena_stones/render.py for the
// picture's fields). The board is the protocol's grid drawn as hexagons: column X is a
// vertical line of cells lettered A + X, row Y + 1 runs up to the right, so the engine's
// three lines (E, S, SE) are the board's three directions. Bot text never reaches this
// script except as names, which are set with textContent.
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var R = 24; // a cell's circumradius
  var DX = 1.5 * R;
  var DY = Math.sqrt(3) * R;
  var COLOURS = ["White", "Black"];
  var TYPES = { 1: "Tott", 2: "Tzarra", 3: "Tzaar" };
  var KINDS = { 3: "Tzaar", 2: "Tzarra", 1: "Tott" };

  function onBoard(x, y) {
    return x >= 0 && x < 9 && y >= 0 && y < 9 && Math.abs(x - y) <= 4 && !(x === 4 && y === 4);
  }

  // The 60 cells in reading order, as the picture lists them.
  var CELLS = [];
  for (var y = 0; y < 9; y++) {
    for (var x = 0; x < 9; x++) {
      if (onBoard(x, y)) CELLS.push([x, y]);
    }
  }

  function label(x, y) {
    return String.fromCharCode(65 + x) + (y + 1);
  }

  function px(x, y) {
    return [x * DX, (y - x / 2) * DY];
  }

  function node(parent, name, attrs) {
    var element = document.createElementNS(SVG, name);
    for (var key in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, key)) element.setAttribute(key, attrs[key]);
    }
    if (parent) parent.appendChild(element);
    return element;
  }

  function text(parent, x, y, content, cls) {
    var t = node(parent, "text", { x: x, y: y, class: cls });
    t.textContent = content;
    return t;
  }

  function hexagon(cx, cy, r) {
    var points = [];
    for (var k = 0; k < 6; k++) {
      var a = (Math.PI / 3) * k;
      points.push((cx + r * Math.cos(a)).toFixed(2) + "," + (cy + r * Math.sin(a)).toFixed(2));
    }
    return points.join(" ");
  }

  function decode(value) {
    if (typeof value !== "number" || !value) return null;
    var a = Math.abs(value);
    return { owner: value > 0 ? 0 : 1, height: a >> 2, type: a & 3 };
  }

  function describe(stack) {
    return COLOURS[stack.owner] + " " + (TYPES[stack.type] || "?") + ", height " + stack.height;
  }

  function drawStack(layer, cx, cy, stack) {
    var g = node(layer, "g", { class: "stack " + COLOURS[stack.owner].toLowerCase() });
    node(g, "circle", { cx: cx, cy: cy, r: 0.72 * R, class: "disc" });
    if (stack.type === 3) {
      node(g, "circle", { cx: cx, cy: cy, r: 0.44 * R, class: "ring" });
      node(g, "circle", { cx: cx, cy: cy, r: 0.2 * R, class: "mark" });
    } else if (stack.type === 2) {
      node(g, "circle", { cx: cx, cy: cy, r: 0.24 * R, class: "mark" });
    }
    if (stack.height > 1) {
      var bx = cx + 0.55 * R;
      var by = cy - 0.5 * R;
      node(g, "circle", { cx: bx, cy: by, r: 0.36 * R, class: "badge" });
      text(g, bx, by, String(stack.height), "height");
    }
  }

  // A line from one cell's centre towards another's, ending in an arrowhead (drawn as a
  // polygon: no <marker>, whose ids would clash between pictures on one page).
  function arrow(layer, from, to, cls) {
    var a = px(from[0], from[1]);
    var b = px(to[0], to[1]);
    var dx = b[0] - a[0];
    var dy = b[1] - a[1];
    var length = Math.sqrt(dx * dx + dy * dy) || 1;
    var ux = dx / length;
    var uy = dy / length;
    var tip = [b[0] - ux * 0.3 * R, b[1] - uy * 0.3 * R];
    var base = [tip[0] - ux * 0.45 * R, tip[1] - uy * 0.45 * R];
    var g = node(layer, "g", { class: "arrow " + cls });
    node(g, "line", { x1: a[0], y1: a[1], x2: base[0], y2: base[1] });
    var w = 0.25 * R;
    node(g, "polygon", {
      points: [
        tip.join(","),
        [base[0] - uy * w, base[1] + ux * w].join(","),
        [base[0] + uy * w, base[1] - ux * w].join(","),
      ].join(" "),
    });
    return g;
  }

  function isCell(xy) {
    return Array.isArray(xy) && xy.length === 2 && onBoard(xy[0], xy[1]);
  }

  function drawBoard(picture) {
    var svg = node(null, "svg", { class: "board", role: "img" });
    var cells = Array.isArray(picture.cells) && picture.cells.length === 60 ? picture.cells : null;
    var move = picture.move && typeof picture.move === "object" ? picture.move : null;
    var marked = {};
    if (move && isCell(move.from) && isCell(move.to)) {
      marked[move.from.join(",")] = "from";
      marked[move.to.join(",")] = "to " + (move.kind === "strengthen" ? "strengthen" : "attack");
    }
    var grid = node(svg, "g", { class: "grid" });
    var stacks = node(svg, "g", {});
    var arrows = node(svg, "g", {});
    var centre = px(4, 4);
    node(grid, "polygon", { points: hexagon(centre[0], centre[1], R * 0.96), class: "centre" });
    CELLS.forEach(function (xy, i) {
      var p = px(xy[0], xy[1]);
      var cls = "cell" + (marked[xy.join(",")] ? " " + marked[xy.join(",")] : "");
      var hex = node(grid, "polygon", { points: hexagon(p[0], p[1], R * 0.96), class: cls });
      var stack = cells ? decode(cells[i]) : null;
      var title = node(hex, "title", {});
      title.textContent = label(xy[0], xy[1]) + (stack ? ": " + describe(stack) : "");
      if (stack) drawStack(stacks, p[0], p[1], stack);
    });
    // Column letters along the top edge, row numbers along the left and bottom-left.
    for (var c = 0; c < 9; c++) {
      var top = px(c, Math.max(0, c - 4) - 1);
      text(grid, top[0], top[1] + 0.3 * DY, String.fromCharCode(65 + c), "axis");
    }
    for (var r = 0; r < 9; r++) {
      var left = px(Math.max(0, r - 4) - 0.62, r);
      text(grid, left[0], left[1], String(r + 1), "axis");
    }
    if (move && isCell(move.from) && isCell(move.to)) {
      arrow(arrows, move.from, move.to, move.kind === "strengthen" ? "strengthen" : "attack");
    }
    var attempt = picture.attempt && typeof picture.attempt === "object" ? picture.attempt : null;
    if (attempt && isCell(attempt.from) && isCell(attempt.to)) {
      arrow(arrows, attempt.from, attempt.to, "attempt");
      var end = px(attempt.to[0], attempt.to[1]);
      text(arrows, end[0], end[1], "\u2717", "attempt-mark");
    }
    if (!cells) {
      text(svg, centre[0], centre[1] - 2.5 * DY, "position not known from the log", "unknown");
    }
    var x0 = -DX - R;
    var y0 = -3 * DY - R / 2;
    var width = 9 * DX + 2 * R;
    var height = 9.7 * DY + R / 2;
    svg.setAttribute("viewBox", [x0, y0, width, height].map(function (v) {
      return v.toFixed(1);
    }).join(" "));
    return svg;
  }

  function counts(cells, owner) {
    var byType = { 1: 0, 2: 0, 3: 0 };
    var pieces = 0;
    if (!cells) return null;
    cells.forEach(function (value) {
      var stack = decode(value);
      if (stack && stack.owner === owner) {
        byType[stack.type] = (byType[stack.type] || 0) + 1;
        pieces += stack.height;
      }
    });
    return { byType: byType, pieces: pieces };
  }

  function legend(picture, context) {
    var box = document.createElement("div");
    box.className = "legend";
    var cells = Array.isArray(picture.cells) && picture.cells.length === 60 ? picture.cells : null;
    var seating = (context && context.seating) || [];
    var next = picture.next && typeof picture.next === "object" ? picture.next : null;
    var winners = Array.isArray(picture.winners) ? picture.winners : [];
    var move = picture.move && typeof picture.move === "object" ? picture.move : null;
    [0, 1].forEach(function (seat) {
      var row = document.createElement("div");
      row.className = "side " + COLOURS[seat].toLowerCase();
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      row.appendChild(swatch);
      var name = document.createElement("span");
      name.className = "name";
      name.textContent = COLOURS[seat] + " \u00b7 " + (seating[seat] === undefined ? "?" : String(seating[seat]));
      row.appendChild(name);
      var tally = counts(cells, seat);
      if (tally) {
        var numbers = document.createElement("span");
        numbers.className = "counts";
        numbers.textContent = [3, 2, 1].map(function (t) {
          return KINDS[t] + " " + tally.byType[t];
        }).join(" \u00b7 ") + " \u00b7 " + tally.pieces + " pieces";
        row.appendChild(numbers);
      }
      var state = document.createElement("span");
      state.className = "state";
      if (winners.indexOf(seat) >= 0) {
        state.textContent = "wins";
        row.classList.add("winner");
      } else if (next && next.seat === seat) {
        state.textContent = next.attackOnly ? "to move: attack" : "to move: pass, attack or stack";
      } else if (move && move.seat === seat && move.kind === "pass") {
        state.textContent = "passed";
      }
      row.appendChild(state);
      box.appendChild(row);
    });
    return box;
  }

  window.arenaReport = window.arenaReport || { drawers: {} };
  window.arenaReport.drawers = window.arenaReport.drawers || {};
  window.arenaReport.drawers.stones = function (element, picture, context) {
    picture = picture && typeof picture === "object" ? picture : {};
    element.classList.add("picture-stones");
    element.appendChild(drawBoard(picture));
    element.appendChild(legend(picture, context));
  };
})();
