"""A complete Liar's Dice bot: plain Python, no arena imports.

arena tells a bot where to connect in ARENA_HOST and ARENA_PORT (and fills {host} and
{port} in its command line); this one reads the environment. On its turn it opens with
one die of a face it holds, then raises the count by one, or challenges a bid that needs
more than twice its own share of the dice; it passes when it is not its turn.
Run a match with it:  arena run plugins/liarsdice/examples/three_players.toml
"""

import json
import os
import socket

server = socket.create_connection((os.environ["ARENA_HOST"], int(os.environ["ARENA_PORT"])))
stream = server.makefile("rw", encoding="utf-8", newline="\n")
stream.write(json.dumps({"name": "minimal"}) + "\n")
stream.flush()

for line in stream:
    message = json.loads(line)
    if message["subject"] != "move_request":
        continue  # round_over: nothing to answer
    hand = message["your_hand"]
    players = message["other_hands"]  # [id, dice] in playing order, the mover first
    face, count = message["last_bid"]
    on_table = sum(dice for _, dice in players)
    if players[0][0] != 0:
        move = "pass"  # not my turn (a challenge out of turn would be allowed)
    elif count == 0:
        move = [max(hand, key=hand.count), 1]
    elif count + 1 > on_table or count > hand.count(face) + 2 * (on_table - len(hand)) / 6:
        move = "challenge"
    else:
        move = [face, count + 1]
    stream.write(json.dumps({"message_id": message["message_id"], "move": move}) + "\n")
    stream.flush()
