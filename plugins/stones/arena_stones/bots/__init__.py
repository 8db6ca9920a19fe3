"""Built-in bots, each a program (``python -m arena_stones.bots.<name>``) and, through its
``make()``, the same logic in process."""
