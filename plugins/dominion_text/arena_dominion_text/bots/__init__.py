"""Built-in bots, each a program (``python -m arena_dominion_text.bots.<name>``) and,
through its ``make()``, the same :class:`~arena_dominion_text.player.TextPlayer` in
process. A module only names its strategy; the protocol lives in ``player.py``. Every
program takes ``--suicide-check`` (a match file's ``args = ["--suicide-check"]``)."""
