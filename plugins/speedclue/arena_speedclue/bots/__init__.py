"""Built-in Speed Clue bots: each module runs as a program and has ``make()`` for in-process use."""
