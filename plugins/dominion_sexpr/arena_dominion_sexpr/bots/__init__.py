"""Built-in bots, each a program (``python -m arena_dominion_sexpr.bots.<name>``) and,
through its ``make()``, the same :class:`~arena_dominion_sexpr.bot.SexprPlayer` in
process. A module only names its strategy; the protocol lives in ``bot.py``."""
