"""A complete Game of Stones bot: a random legal move, plain Python, no arena imports.

Run a match with it:  arena run plugins/stones/examples/my_bot.toml
"""

import json
import random
import sys

DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]


def on_board(x, y):
    return 0 <= x <= 8 and 0 <= y <= 8 and abs(x - y) <= 4 and (x, y) != (4, 4)


def moves(state, me, allowed):
    """Every legal (type, from, to): slide over empty cells onto the first stack."""
    for y in range(9):
        for x in range(9):
            if state[y][x] * me <= 0:
                continue  # not my stack
            for dx, dy in DIRECTIONS:
                tx, ty = x + dx, y + dy
                while on_board(tx, ty) and state[ty][tx] == 0:
                    tx, ty = tx + dx, ty + dy
                if not on_board(tx, ty):
                    continue  # left the board or reached the centre
                mine, theirs = abs(state[y][x]), abs(state[ty][tx])
                if state[ty][tx] * me < 0 and 1 in allowed and theirs // 4 <= mine // 4:
                    yield 1, (x, y), (tx, ty)
                elif state[ty][tx] * me > 0 and 2 in allowed:
                    yield 2, (x, y), (tx, ty)


me = 0
for line in sys.stdin:
    message = json.loads(line)
    if "Color" in message:
        me = int(message["Color"])
    elif "AllowedMoves" in message:
        allowed = [int(t) for t in message["AllowedMoves"]]
        options = list(moves(message["Board"]["state"], me, allowed)) or [(0, None, None)]
        kind, frm, to = random.choice(options)
        where = {"From": frm and {"X": frm[0], "Y": frm[1]}, "To": to and {"X": to[0], "Y": to[1]}}
        print(json.dumps({"Type": kind, **where}), flush=True)
