"""The match file of the benchmarks that play many quick games: Nim between the kernel's
two built-in bots in the arena's process, where the referee is all the work.

    from nim_match import in_process_nim
"""

from __future__ import annotations

MATCH = """\
game = "nim"
plugins = ["arena_kernel.testing.games"]
seed = {seed}
games = {games}
concurrency = {concurrency}
referees = {referees}
database = "nim.sqlite"
logs = "nim-logs"

[game_options]
pile = 21
spread = 8

[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true

[[bots]]
name = "random"
builtin = "random"
inproc = true
"""


def in_process_nim(games: int, concurrency: int, referees: int, seed: int = 7) -> str:
    """The match file's text: ``games`` games, ``concurrency`` at once, in ``referees``
    processes (the database and logs beside the file)."""
    return MATCH.format(games=games, concurrency=concurrency, referees=referees, seed=seed)
