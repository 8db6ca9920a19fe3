"""A bot that reads everything it is sent and answers ``ok`` to every ``move`` (a line
protocol): the well-behaved neighbour of the hostile bots."""

import sys

for line in sys.stdin.buffer:
    if line == b"move\n":
        sys.stdout.write("ok\n")
        sys.stdout.flush()
