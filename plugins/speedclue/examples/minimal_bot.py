"""A complete Speed Clue bot: plain Python, no arena imports.

The arena starts it as ``python minimal_bot.py <identifier> <port>``, like the contest did.
It suggests at random (never the same twice in a game) and accuses when one of its own
suggestions went undisproved with no card it holds or was shown: that is the solution.
Run a match with it:  arena run plugins/speedclue/examples/four_players.toml
"""

import random
import socket
import sys

SUSPECTS = ["Gr", "Mu", "Pe", "Pl", "Sc", "Wh"]
WEAPONS = ["Ca", "Kn", "Pi", "Re", "Ro", "Wr"]
ROOMS = ["Ba", "Bi", "Co", "Di", "Ha", "Ki", "Li", "Lo", "St"]

identifier, port = sys.argv[1], int(sys.argv[2])
server = socket.create_connection(("127.0.0.1", port))
server.sendall(f"{identifier} alive".encode())

me, hand, seen, made, sure = 0, set(), set(), set(), None
while message := server.recv(4096).decode():
    words = message.split()
    if words[0] == "reset":  # reset <players> <my index> <my cards...>
        me, hand, seen, made, sure = int(words[2]), set(words[3:]), set(), set(), None
        reply = "ok"
    elif words[0] == "suggest":
        while (
            guess := (random.choice(SUSPECTS), random.choice(WEAPONS), random.choice(ROOMS))
        ) in made:
            pass
        made.add(guess)
        reply = "suggest " + " ".join(guess)
    elif words[0] == "disprove":  # disprove <suggester> S W R: show one I hold
        reply = "show " + next(card for card in words[2:] if card in hand)
    elif words[0] == "suggestion":  # suggestion <who> S W R <disprover>|- [shown card]
        if int(words[1]) == me and len(words) == 7:
            seen.add(words[6])
        elif int(words[1]) == me and words[5] == "-" and not (hand | seen) & set(words[2:5]):
            sure = words[2:5]
        reply = "ok"
    elif words[0] == "accuse":
        reply = "accuse " + " ".join(sure) if sure else "-"
    elif words[0] == "done":
        server.sendall(b"dead")
        break
    else:  # accusation <who> S W R +|-
        reply = "ok"
    server.sendall(reply.encode())
