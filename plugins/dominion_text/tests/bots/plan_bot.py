"""A line-protocol bot that follows a plan, to test the referee's rules for bad replies.

``python plan_bot.py PLAN_JSON``. The plan's keys (all optional): ``name`` (the reply to the
name request; default: a right one), ``version`` (the reply to the version line; default:
the right one), ``turn`` (replies to play-turn requests, in
order; then ``play-reply pass``), ``attack`` (replies to attack requests, in order; then a
valid discard), ``silent_turn`` (from this play-turn request on, never answer).
Informational lines get no reply, as the protocol says.
"""

import json
import sys

plan = json.loads(sys.argv[1])
turns = iter(plan.get("turn", []))
attacks = iter(plan.get("attack", []))
requests = 0


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


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
        say(next(turns, "play-reply pass"))
    elif words[:2] == ["play-request", "attack"]:
        hand = words[words.index("hand") + 1 :]
        say(next(attacks, "play-reply discard " + " ".join(hand[: int(words[3])])))
