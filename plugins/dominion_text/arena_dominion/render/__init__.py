"""How a Dominion game is drawn in arena's HTML report, for either protocol: the board
tracked from the log (:mod:`.board`), the reader interface each protocol implements
(:mod:`.reader`), the shared renderer (:mod:`.renderer`) and its drawing script and CSS
(``render.js``, ``render.css``)."""
