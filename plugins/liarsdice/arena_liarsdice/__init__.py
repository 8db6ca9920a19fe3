"""Liar's Dice (the 2023 bot contest) for arena.

:mod:`arena_liarsdice.rules` is the game itself, :mod:`arena_liarsdice.players` the
protocol-free players, :mod:`arena_liarsdice.simulate` whole games in process and the
resolution of simultaneous replies that the referee (:mod:`arena_liarsdice.game`) shares.
"""
