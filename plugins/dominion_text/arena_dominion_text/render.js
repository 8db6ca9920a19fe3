// Dominion in the report's replay viewer, for both protocols' games. This file is the body
// of a function of GAME (the game's name, which names the drawer) and CARDS (each card's
// cost and kind, from the rules engine): see drawing.py, whose DominionRenderer
// also documents the picture's fields. It draws three panels: the supply piles, a row per
// player, and the turn of this step (or the final standings). Every text a bot could have
// chosen (its name, a fault's words) goes in through textContent, never as markup.
"use strict";

var TREASURES = ["copper", "silver", "gold"];
var VICTORY = ["curse", "estate", "duchy", "province"];
var ORDINALS = ["1st", "2nd", "3rd", "4th"];

function list(value) {
  return Array.isArray(value) ? value : [];
}

function isInt(value) {
  return typeof value === "number" && Number.isInteger(value);
}

function card(name) {
  var info = Object.prototype.hasOwnProperty.call(CARDS, name) ? CARDS[name] : null;
  return info || { cost: null, kind: "unknown" };
}

function tag(name, cls, text) {
  var node = document.createElement(name);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// A card's colour classes: its kind, and for a treasure its metal.
function cardClass(name) {
  var kind = card(name).kind;
  return "k-" + kind + (kind === "treasure" ? " c-" + name : "");
}

// [[name, count], ...] from a list of names, each name once, in the order first seen.
function grouped(names) {
  var counts = {};
  var order = [];
  list(names).forEach(function (name) {
    name = String(name);
    if (!Object.prototype.hasOwnProperty.call(counts, name)) {
      counts[name] = 0;
      order.push(name);
    }
    counts[name] += 1;
  });
  return order.map(function (name) {
    return [name, counts[name]];
  });
}

// A row of card chips ("copper ×3") from [[name, count], ...]; "none" when empty.
function chips(pairs, cls) {
  var row = tag("span", "cards" + (cls ? " " + cls : ""));
  list(pairs).forEach(function (pair) {
    var name = String(list(pair)[0]);
    var count = list(pair)[1];
    var chip = tag("span", "card " + cardClass(name), name);
    if (isInt(count) && count > 1) chip.appendChild(tag("b", "times", "×" + count));
    row.appendChild(chip);
  });
  if (!row.childNodes.length) row.appendChild(tag("span", "none", "none"));
  return row;
}

// -- the supply ---------------------------------------------------------------------------

function pileOrder(a, b) {
  var base = TREASURES.concat(VICTORY);
  var ia = base.indexOf(a[0]);
  var ib = base.indexOf(b[0]);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  var ca = card(a[0]).cost;
  var cb = card(b[0]).cost;
  return (ca === null ? 99 : ca) - (cb === null ? 99 : cb) || (a[0] < b[0] ? -1 : 1);
}

function pile(name, left, taken) {
  var empty = isInt(left) && left <= 0;
  var box = tag("div", "pile " + cardClass(name) + (empty ? " empty" : "") + (taken ? " taken" : ""));
  var cost = card(name).cost;
  box.appendChild(tag("span", "cost", cost === null ? "?" : cost));
  box.appendChild(tag("span", "name", name));
  box.appendChild(tag("span", "left", empty ? "empty" : isInt(left) ? left : "?"));
  if (taken) box.appendChild(tag("span", "taken-mark", "−" + taken));
  box.title = name + (cost === null ? "" : ", costs " + cost) + ": " +
    (empty ? "the pile is empty" : left + " left") + (taken ? ", " + taken + " taken this turn" : "");
  return box;
}

function supply(picture) {
  var turn = picture.turn || {};
  var taken = {};
  list(turn.bought).concat(list(turn.gained)).forEach(function (name) {
    taken[name] = (taken[name] || 0) + 1;
  });
  var piles = list(picture.supply).filter(function (entry) {
    return Array.isArray(entry) && typeof entry[0] === "string";
  });
  var base = piles.filter(function (entry) {
    return card(entry[0]).kind !== "action";
  }).sort(pileOrder);
  var kingdom = piles.filter(function (entry) {
    return card(entry[0]).kind === "action";
  }).sort(pileOrder);
  var empty = piles.filter(function (entry) {
    return isInt(entry[1]) && entry[1] <= 0;
  }).length;

  var section = tag("section", "supply");
  var head = tag("h4", "", "Supply");
  var facts = [empty === 1 ? "1 empty pile" : empty + " empty piles"];
  if (isInt(picture.trash)) facts.push(picture.trash + " in the trash");
  head.appendChild(tag("span", "facts", facts.join(" · ")));
  section.appendChild(head);
  [base, kingdom].forEach(function (group) {
    if (!group.length) return;
    var row = tag("div", "piles");
    group.forEach(function (entry) {
      row.appendChild(pile(entry[0], entry[1], taken[entry[0]] || 0));
    });
    section.appendChild(row);
  });
  return section;
}

// -- the players --------------------------------------------------------------------------

function players(picture, context) {
  var seating = list(context && context.seating);
  var end = picture.end || null;
  var turn = picture.turn || null;
  var winners = end ? list(end.winners) : [];
  var ranks = end ? list(end.ranks) : [];
  var table = tag("table", "players");
  var head = tag("tr");
  ["", "player", "VP", "cards", "turns", "cards owned", ""].forEach(function (title, i) {
    head.appendChild(tag("th", i === 2 || i === 3 || i === 4 ? "num" : "", title));
  });
  table.appendChild(tag("thead")).appendChild(head);
  var body = table.appendChild(tag("tbody"));
  list(picture.players).forEach(function (player, seat) {
    player = player || {};
    var mover = turn !== null && turn.seat === seat;
    var won = winners.indexOf(seat) >= 0;
    var classes = ["player"];
    if (mover) classes.push("mover");
    if (player.out) classes.push("out");
    if (won) classes.push("winner");
    var row = tag("tr", classes.join(" "));
    var mark = won ? "★" : mover ? "▶" : "";
    if (end && !won && isInt(ranks[seat]) && ranks[seat] >= 1) mark = ORDINALS[ranks[seat] - 1] || "";
    row.appendChild(tag("td", "mark" + (end && !won ? " rank" : ""), mark));
    var name = seat < seating.length ? String(seating[seat]) : "seat " + seat;
    var who = row.appendChild(tag("td", "name", name));
    who.title = name;
    row.appendChild(tag("td", "num vp", typeof player.vp === "number" ? player.vp : "?"));
    row.appendChild(tag("td", "num", isInt(player.cards) ? player.cards : "?"));
    row.appendChild(tag("td", "num", isInt(player.turns) ? player.turns : "?"));
    var owned = list(player.owned).filter(Array.isArray).slice().sort(pileOrder);
    row.appendChild(tag("td", "owned")).appendChild(chips(owned, "small"));
    var notes = row.appendChild(tag("td", "notes"));
    if (won) notes.appendChild(tag("span", "badge win", winners.length > 1 ? "shares the win" : "wins"));
    if (player.out) notes.appendChild(tag("span", "badge out", "out"));
    if (player.fault) {
      var fault = notes.appendChild(tag("span", "badge fault", "fault"));
      fault.title = String(player.fault);
      notes.appendChild(tag("span", "fault-text", player.fault));
    }
    body.appendChild(row);
  });
  return table;
}

// -- the turn, or the end ----------------------------------------------------------------

function line(box, title, content) {
  box.appendChild(tag("dt", "", title));
  box.appendChild(tag("dd")).appendChild(content);
}

// A Militia victim's answer: a Moat, the cards seen discarded, or only how many went (the
// S-expression protocol shows the others the top card alone).
function attackAnswer(attack, name) {
  var answer = tag("span", "attack");
  var discarded = grouped(attack.discarded);
  var seen = list(attack.discarded).length;
  var count = isInt(attack.count) ? Math.max(attack.count, seen) : null;
  answer.appendChild(tag("span", "victim", name));
  if (attack.moat) {
    answer.appendChild(tag("span", "", " revealed a moat"));
  } else if (count === null && seen) {
    answer.appendChild(tag("span", "", " discarded, on top:"));
    answer.appendChild(chips(discarded, "small"));
  } else if (!count) {
    answer.appendChild(tag("span", "", " kept its hand"));
  } else if (count > seen) {
    answer.appendChild(tag("span", "", " discarded " + count + (count === 1 ? " card" : " cards")));
    if (seen) {
      answer.appendChild(tag("span", "", ", on top:"));
      answer.appendChild(chips(discarded, "small"));
    }
  } else {
    answer.appendChild(tag("span", "", " discarded"));
    answer.appendChild(chips(discarded, "small"));
  }
  return answer;
}

function turnPanel(turn, context) {
  var seating = list(context && context.seating);
  function name(seat) {
    return isInt(seat) && seat >= 0 && seat < seating.length ? String(seating[seat]) : "?";
  }
  var section = tag("section", "turn");
  var head = "Turn " + (isInt(turn.number) && turn.number > 0 ? turn.number + " of " : "of ") + name(turn.seat);
  var title = section.appendChild(tag("h4", "", head));
  var facts = [];
  if (isInt(turn.deck)) facts.push(turn.deck + " in the deck");
  if (isInt(turn.discard)) facts.push(turn.discard + " in the discard pile");
  if (facts.length) title.appendChild(tag("span", "facts", facts.join(" · ")));
  var box = section.appendChild(tag("dl"));
  if (Array.isArray(turn.hand)) line(box, "hand", chips(grouped(turn.hand)));
  line(box, "played", chips(grouped(turn.played)));
  line(box, "bought", chips(grouped(turn.bought), "bought"));
  if (list(turn.gained).length) line(box, "gained", chips(grouped(turn.gained), "gained"));
  if (list(turn.trashed).length) line(box, "trashed", chips(grouped(turn.trashed), "trashed"));
  list(turn.attacks).forEach(function (attack) {
    attack = attack || {};
    line(box, "militia", attackAnswer(attack, name(attack.seat)));
  });
  return section;
}

function endPanel(end, picture, context) {
  var seating = list(context && context.seating);
  var everyone = list(picture.players);
  var winners = list(end.winners).filter(function (seat) {
    return isInt(seat) && seat >= 0 && seat < seating.length;
  });
  var names = winners.map(function (seat) {
    return String(seating[seat]);
  });
  var section = tag("section", "final" + (end.void ? " void" : ""));
  var head = "No winner";
  if (end.void) {
    head = "Void game";
  } else if (winners.length === 1) {
    var vp = (everyone[winners[0]] || {}).vp;
    head = "★ " + names[0] + " wins" + (typeof vp === "number" ? " with " + vp + " VP" : "");
  } else if (winners.length) {
    head = "★ " + names.join(" and ") + " share the win";
  }
  section.appendChild(tag("h4", "", head));
  if (end.reason) section.appendChild(tag("p", "reason", end.reason));
  return section;
}

arenaReport.drawers[GAME] = function (element, picture, context) {
  picture = picture || {};
  var root = tag("div", "dominion");
  root.appendChild(supply(picture));
  root.appendChild(players(picture, context));
  if (picture.turn) root.appendChild(turnPanel(picture.turn, context));
  else if (picture.end) root.appendChild(endPanel(picture.end, picture, context));
  element.appendChild(root);
};
