"""Built-in bots, each a program (``python -m arena_dominion_text.bots.<name>``) and,
through its ``make()``, the same :class:`~arena_dominion_text.bot.TextPlayer` in
process. A module only names its strategy; the protocol lives in ``bot.py``. Every
program takes ``--suicide-check`` (a match file's ``args = ["--suicide-check"]``)."""
