"""Dominion (base set, 1st edition) over the text line protocol (``dominion_text.txt``).

This package also holds what every Dominion protocol shares: the cards (``cards.py``),
the rules engine (``rules.py``), the protocol-neutral strategies (``players.py``), games
between them without a referee (``simulate.py``) and the report's drawing
(``drawing.py``); the S-expression plugin plays the same engine through its own protocol."""
