#!/usr/bin/env python3
"""A bot written the way the course's students wrote theirs, for Dominion Protocol v1-v3.

Standard library only, its own S-expression reader, and the course server's habits taken
for granted, so that it fails wherever arena strays from that server:

- card costs come from a table of the course protocol's cards, which has no ``curse``:
  a card it does not know anywhere in a message (say a Curse in the supply) crashes it;
- symbols are case-sensitive and every message is checked against the grammar: a
  ``(moved ...)`` spelled any other way, or a ``(defended ...)`` showing more than the one
  exposed card, crashes it;
- it learns its own name from the first ``(players ...)`` it sees and crashes if a later
  ``(move ...)`` or ``(attacked ...)`` state does not list it first;
- it adds a Treasure only while a buy is left, as the server required from v2 on.

It plays Big Money plus at most one copy of each kingdom card named on its command line,
bought in the order given, and plays every Action it can.

Usage: course_bot.py [CARD ...]
"""

from __future__ import annotations

import os
import sys

COST = {
    "copper": 0,
    "silver": 3,
    "gold": 6,
    "estate": 2,
    "duchy": 5,
    "province": 8,
    "cellar": 2,
    "moat": 2,
    "village": 3,
    "woodcutter": 3,
    "workshop": 3,
    "militia": 4,
    "remodel": 4,
    "smithy": 4,
    "market": 5,
    "mine": 5,
}
VICTORY = ("province", "duchy", "estate")
PLAY_ORDER = (
    "village",
    "market",
    "cellar",
    "remodel",
    "militia",
    "smithy",
    "moat",
    "woodcutter",
    "workshop",
    "mine",
)
"""Actions giving more Actions first; Remodel early, while there are Estates to trash."""

WANTED = sys.argv[1:]
me: str | None = None


def log(*words: object) -> None:
    print("[course]", *words, file=sys.stderr, flush=True)


# ---------- reading: one datum at a time, any layout, case kept ----------


def tokens(text: str) -> list[str]:
    return text.replace("(", " ( ").replace(")", " ) ").split()


def parse(toks: list[str], i: int) -> tuple[object, int]:
    if toks[i] == "(":
        items, i = [], i + 1
        while toks[i] != ")":
            item, i = parse(toks, i)
            items.append(item)
        return items, i + 1
    return (int(toks[i]) if toks[i].isdigit() else toks[i]), i + 1


def complete_datums(buffer: str) -> tuple[list[object], str]:
    """The complete top-level lists at the start of ``buffer``, and what is left over."""
    datums, depth, start = [], 0, 0
    for at, ch in enumerate(buffer):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                datums.append(parse(tokens(buffer[start : at + 1]), 0)[0])
                start = at + 1
    return datums, buffer[start:]


# ---------- the grammar, as strictly as a course bot assumed it ----------


def card(word: object) -> None:
    """Crash on a card the course protocol does not have, as a cost lookup would."""
    if word not in COST:
        raise KeyError(f"unknown card {word!r}")


def check_play(play: list) -> None:
    head, *args = play
    if head == "act":
        assert args and args[0] in PLAY_ORDER, play
        args = args[1:]
    else:
        assert len(args) == 1 if head in ("add", "buy") else head == "clean" and len(args) <= 1
    for arg in args:
        card(arg)


def read_state(state: list) -> dict[str, list]:
    fields = {part[0]: part[1:] for part in state}
    for key in ("supply", "trash", "deck", "hand", "plays", "discards"):
        for c in fields[key]:
            card(c)
    global me
    if me is None:
        me = fields["players"][0]
        log("my name is", me)
    assert fields["players"][0] == me, f"the state does not list me first: {fields['players']}"
    return fields


# ---------- deciding ----------


def act(s: dict[str, list]) -> list[str] | None:
    hand, supply = s["hand"], s["supply"]
    for action in PLAY_ORDER:
        if action not in hand:
            continue
        if action == "cellar":
            return ["act", "cellar", *[c for c in hand if c in VICTORY]]
        if action == "workshop":
            if "silver" in supply:
                return ["act", "workshop", "silver"]
        elif action == "remodel":
            if "gold" in hand and "province" in supply:
                return ["act", "remodel", "gold", "province"]
            if "estate" in hand and "silver" in supply:
                return ["act", "remodel", "estate", "silver"]
        elif action == "mine":
            for old, new in (("silver", "gold"), ("copper", "silver")):
                if old in hand and new in supply:
                    return ["act", "mine", old, new]
        else:
            return ["act", action]
    return None


def move(s: dict[str, list]) -> list[str]:
    hand, supply = s["hand"], s["supply"]
    actions, buys, coins = s["actions"][0], s["buys"][0], s["coins"][0]
    if actions > 0:
        play = act(s)
        if play:
            return play
    if buys > 0:
        treasure = next((c for c in ("gold", "silver", "copper") if c in hand), None)
        if treasure:
            return ["add", treasure]
        owned = s["deck"] + s["hand"] + s["plays"] + s["discards"]
        choices = ["province"] if coins >= 8 else []
        choices += ["gold"] if coins >= 6 else []
        choices += [c for c in WANTED if c not in owned and COST[c] <= coins]
        choices += ["silver"] if coins >= 3 else []
        for choice in choices:
            if choice in supply:
                return ["buy", choice]
    return ["clean", hand[0]] if hand else ["clean"]


def defend(s: dict[str, list]) -> list[str]:
    hand = s["hand"]
    assert s["actions"] == [0] and s["buys"] == [0] and s["coins"] == [0] and not s["plays"], s
    if "moat" in hand:
        return ["moat"]
    worst_first = sorted(hand, key=lambda c: (c not in VICTORY, c != "copper", COST[c]))
    return ["discard", *worst_first[: max(0, len(hand) - 3)]]


def answer(message: list) -> list[str] | None:
    head = message[0]
    if head == "move":
        return move(read_state(message[1]))
    if head == "attacked":
        assert message[1] == ["act", "militia"], message
        return defend(read_state(message[3]))
    if head == "moved":
        check_play(message[2])
        return None
    if head == "defended":
        defense = message[2]
        assert defense == ["moat"] or (defense[0] == "discard" and len(defense) <= 2), message
        for c in defense[1:]:
            card(c)
        return None
    raise ValueError(f"unknown message {message}")


def show(datum: list[str]) -> str:
    return "(" + " ".join(datum) + ")"


def main() -> None:
    for wanted in WANTED:
        card(wanted)
    buffer = ""
    while chunk := os.read(0, 65536):
        datums, buffer = complete_datums(buffer + chunk.decode())
        for message in datums:
            reply = answer(message)  # type: ignore[arg-type]
            if reply is not None:
                sys.stdout.write(show(reply) + "\n")
                sys.stdout.flush()


main()
