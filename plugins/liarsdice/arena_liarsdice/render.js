// Liar's Dice in the report's replay viewer: one row per player in playing order (name,
// dice left, the hand face up), the round's bids with the current one marked, and at the
// end of a round the call: who challenged whom, how many dice matched, who lost a die.
// Every text a bot could have chosen (its name) goes in through textContent, never markup.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var PIPS = {
    1: [[11, 11]],
    2: [[6, 6], [16, 16]],
    3: [[6, 6], [11, 11], [16, 16]],
    4: [[6, 6], [16, 6], [6, 16], [16, 16]],
    5: [[6, 6], [16, 6], [11, 11], [6, 16], [16, 16]],
    6: [[6, 5], [16, 5], [6, 11], [16, 11], [6, 17], [16, 17]]
  };

  function isInt(value) {
    return typeof value === "number" && Number.isInteger(value);
  }

  function list(value) {
    return Array.isArray(value) ? value : [];
  }

  function tag(name, cls, text) {
    var node = document.createElement(name);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function svg(name, attrs) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) {
      node.setAttribute(key, String(attrs[key]));
    });
    return node;
  }

  // One die: its pips, or a "?" when the hand is not known; "lost" crosses it out.
  function die(face, cls) {
    var box = svg("svg", { width: 22, height: 22, viewBox: "0 0 22 22", "class": "die " + cls });
    var title = svg("title", {});
    title.textContent = isInt(face) ? "a " + face : "not known";
    box.appendChild(title);
    box.appendChild(svg("rect", { x: 1, y: 1, width: 20, height: 20, rx: 4 }));
    if (PIPS[face]) {
      PIPS[face].forEach(function (pip) {
        box.appendChild(svg("circle", { cx: pip[0], cy: pip[1], r: 2 }));
      });
    } else if (cls.indexOf("lost") < 0) {
      var mark = svg("text", { x: 11, y: 15, "text-anchor": "middle" });
      mark.textContent = "?";
      box.appendChild(mark);
    }
    if (cls.indexOf("lost") >= 0) {
      box.appendChild(svg("line", { x1: 3, y1: 3, x2: 19, y2: 19 }));
      box.appendChild(svg("line", { x1: 19, y1: 3, x2: 3, y2: 19 }));
    }
    return box;
  }

  function matches(value, call, wild) {
    var bid = call && list(call.bid);
    if (!bid || bid.length !== 2 || call.kind === "fault") return false;
    return value === bid[0] || (wild && bid[0] !== 1 && value === 1);
  }

  function row(seat, picture, name) {
    var dice = list(picture.dice);
    var hands = list(picture.hands);
    var call = picture.call || null;
    var count = isInt(dice[seat]) ? dice[seat] : 0;
    var bids = list(picture.bids);
    var last = bids.length ? list(bids[bids.length - 1]) : [];
    var classes = ["player"];
    if (count === 0) classes.push("out");
    if (picture.mover === seat) classes.push("mover");
    if (last[0] === seat) classes.push("bidder");
    if (call && call.loser === seat) classes.push("loser");
    if (picture.winner === seat) classes.push("winner");
    var line = tag("div", classes.join(" "));
    line.appendChild(tag("span", "turn", picture.mover === seat ? "▶" : ""));
    line.appendChild(tag("span", "name", name(seat)));
    line.appendChild(tag("span", "count", count === 0 ? "out" : count + (count === 1 ? " die" : " dice")));
    var hand = tag("span", "hand");
    var faces = Array.isArray(hands[seat]) ? hands[seat] : null;
    for (var i = 0; i < count; i++) {
      var face = faces ? faces[i] : null;
      hand.appendChild(die(face, matches(face, call, picture.wild === true) ? "match" : ""));
    }
    if (call && call.loser === seat && count > 0) hand.appendChild(die(null, "lost"));
    line.appendChild(hand);
    var notes = [];
    if (call && call.by === seat && call.kind === "challenge") notes.push("challenges");
    if (call && call.by === seat && call.kind === "spot_on") notes.push("calls spot on");
    if (call && call.by === seat && call.kind === "fault") notes.push("fault");
    if (call && call.loser === seat) notes.push(call.out ? "loses its last die" : "loses a die");
    if (picture.winner === seat) notes.push("wins");
    line.appendChild(tag("span", "note", notes.join(", ")));
    return line;
  }

  function bidList(picture, name) {
    var box = tag("ol", "bids");
    var bids = list(picture.bids);
    if (isInt(picture.earlier) && picture.earlier > 0) {
      box.appendChild(tag("li", "earlier", "… " + picture.earlier + " earlier bids"));
    }
    bids.forEach(function (entry, index) {
      var bid = list(entry);
      var text = name(bid[0]) + ": " + bid[2] + " × " + bid[1];
      box.appendChild(tag("li", index === bids.length - 1 ? "current" : "", text));
    });
    if (!bids.length) box.appendChild(tag("li", "none", "no bid yet"));
    return box;
  }

  function callText(call, name) {
    var bid = list(call.bid);
    var lost = name(call.loser) + (call.out ? " loses its last die" : " loses a die");
    if (call.kind === "fault") return name(call.loser) + " faulted: " + String(call.reason || "") + " → " + lost;
    var verb = call.kind === "spot_on" ? " calls spot on " : " challenges ";
    if (bid.length !== 2) return name(call.by) + verb + "before any bid → " + lost;
    var counted = isInt(call.counted) ? call.counted + " showing " + bid[0] : "count not known";
    return name(call.by) + verb + name(call.against) + "'s " + bid[1] + " × " + bid[0] +
      ": " + counted + " → " + lost;
  }

  arenaReport.drawers["liarsdice"] = function (element, picture, context) {
    var seating = list(context && context.seating);
    function name(seat) {
      return isInt(seat) && seat >= 0 && seat < seating.length ? String(seating[seat]) : "someone";
    }
    var root = tag("div", "liarsdice");
    var dice = list(picture.dice);
    var total = dice.reduce(function (sum, n) { return sum + (isInt(n) ? n : 0); }, 0);
    var head = isInt(picture.round) ? "Round " + picture.round : "No round played";
    if (isInt(picture.move)) head += picture.move === 0 ? " · the deal" : " · move " + picture.move;
    head += " · " + total + (total === 1 ? " die" : " dice") + " on the table";
    if (picture.wild === true) head += " · 1s wild";
    root.appendChild(tag("div", "head", head));
    var table = tag("div", "players");
    list(picture.players).forEach(function (seat) {
      if (isInt(seat)) table.appendChild(row(seat, picture, name));
    });
    root.appendChild(table);
    if (isInt(picture.round)) root.appendChild(bidList(picture, name));
    if (picture.call) {
      root.appendChild(tag("div", "call " + String(picture.call.kind), callText(picture.call, name)));
    }
    element.appendChild(root);
  };
})();
