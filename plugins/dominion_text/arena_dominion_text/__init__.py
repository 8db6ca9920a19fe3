"""Dominion over the text line protocol (``dominion_text.txt``): the referee, and built-in
bots that play the protocol-neutral strategies of :mod:`arena_dominion` through it."""
