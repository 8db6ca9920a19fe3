"""Dominion over Matthew Flatt's S-expression protocol (course "Dominion Protocol" v1-v3).

Only the protocol lives here: the rules are THE engine in :mod:`arena_dominion_text.rules`
(with what each version adds in :mod:`arena_dominion_sexpr.rules`), and the built-in bots
are the reference strategies behind :class:`~arena_dominion_sexpr.bot.SexprPlayer`.
"""
