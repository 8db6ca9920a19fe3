"""Dominion over Matthew Flatt's S-expression protocol (course "Dominion Protocol" v1-v3).

Only the protocol lives here: the rules are THE engine in :mod:`arena_dominion`, and the
built-in bots are its reference strategies behind :class:`~arena_dominion_sexpr.player.SexprPlayer`.
"""
