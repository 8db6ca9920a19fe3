"""Built-in Liar's Dice bots: each runs as a program and has ``make()`` for in-process use."""
