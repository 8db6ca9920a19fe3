"""A line-protocol bot that follows a plan, to test the referee's rules for bad replies.

``python plan_bot.py PLAN_JSON``. The plan's keys (all optional): ``name`` (the reply to the
name request; default: a right one), ``version`` (the reply to the version line; default:
the right one), ``when`` (rules ``{"hand": [cards], "reply": line, "then": [lines]}``: the
first rule not used yet whose cards are all in the hand of a play-turn request answers it,
once, and its ``then`` lines answer the requests that follow), ``turn`` (replies to the
other play-turn requests, in order), ``otherwise`` (the reply once ``turn`` is used up;
default ``play-reply pass``), ``attack`` (replies to attack requests, in order; then a
valid discard), ``silent_turn`` (from this play-turn request on, never answer).
Informational lines get no reply, as the protocol says.
"""

import json
import sys
from collections import Counter

plan = json.loads(sys.argv[1])
rules = list(plan.get("when", []))
turns = iter(plan.get("turn", []))
attacks = iter(plan.get("attack", []))
queued = []
requests = 0


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def turn_reply(hand):
    if queued:
        return queued.pop(0)
    for rule in rules:
        if not Counter(rule["hand"]) - Counter(hand):
            rules.remove(rule)
            queued.extend(rule.get("then", []))
            return rule["reply"]
    return next(turns, plan.get("otherwise", "play-reply pass"))


for line in sys.stdin:
    words = line.split()
    if words[:1] == ["player"] and words[2:] == ["name"]:
        say(plan.get("name", f"player {words[1]} planbot"))
    elif words[:1] == ["player"] and words[2:3] == ["version"]:
        say(plan.get("version", line.strip()))
    elif words[:2] == ["play-request", "play-turn"]:
        requests += 1
        if "silent_turn" in plan and requests >= plan["silent_turn"]:
            continue
        say(turn_reply(words[words.index("hand") + 1 :]))
    elif words[:2] == ["play-request", "attack"]:
        hand = words[words.index("hand") + 1 :]
        say(next(attacks, "play-reply discard " + " ".join(hand[: int(words[3])])))
