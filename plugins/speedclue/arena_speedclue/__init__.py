"""Speed Clue (the 2014 board-less Cluedo contest) for arena.

The pure parts live apart from any protocol so that the referee, the built-in bots and the
benchmarks share one statement of the rules: :mod:`arena_speedclue.cards` (the 21 cards and
their wire abbreviations), :mod:`arena_speedclue.rules` (a seeded game state that judges every
move), :mod:`arena_speedclue.players` (protocol-free player logic) and
:mod:`arena_speedclue.simulate` (whole games in process, in the referee's message order).
"""
