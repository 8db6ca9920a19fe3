"""A run's games list as data for its page: ``data/games-<run>.js``.

The run page draws the list itself (``run.js``): a page of rows at a time, sorted by any
column, found by game id, filtered by bot, by that bot's result and by fault. So the page
stays as light for a hundred thousand games as for thirty, and the list arrives as one
script after the page has loaded (a page opened from disk may not ``fetch()``):
``arenaReport.gameList(<run>, "<JSON of {columns, bots, reasons, kinds, games}>")``, each
game a compact row (:data:`COLUMNS`) whose names and reasons are indexes into the tables
beside it. A second, small file (``data/games-<run>-first.js``, ``arenaReport.firstGames``)
holds the list's first page and how many games there are: the page shows it while the
whole list is still on its way, so that a run of a hundred thousand games shows its first
games as soon as one of thirty.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena_kernel.report.replay_files import FOLDER
from arena_kernel.store.sqlite import GameDetail

COLUMNS = ("id", "index", "seats", "ranks", "reason", "kinds", "faulted", "seconds", "void")
"""A row of the list: game id, schedule index, the bots' indexes by seat, their ranks, the
reason's index, the fault kinds' indexes, the seats with a fault, the duration, void (0/1)."""


PAGE = 50
"""Games a page of the list shows."""


def list_file(run_id: int) -> str:
    """The games list's file of run ``run_id``, relative to the report's folder."""
    return f"{FOLDER}/games-{run_id}.js"


def first_page_file(run_id: int) -> str:
    """The file of the first page of run ``run_id``'s games list."""
    return f"{FOLDER}/games-{run_id}-first.js"


class GameList:
    """The rows of one run's games, added in any order, written by schedule index."""

    def __init__(self, run_id: int, bots: Sequence[str]) -> None:
        self.run_id = run_id
        self._bots = {bot: number for number, bot in enumerate(bots)}
        self._reasons: dict[str, int] = {}
        self._kinds: dict[str, int] = {}
        self._rows: list[tuple[int, str]] = []

    def add(self, game: GameDetail) -> None:
        kinds = dict.fromkeys(str(f.kind) for f in game.faults)
        row = [
            game.game_id,
            game.index,
            [self._number(self._bots, bot) for bot in game.seating],
            list(game.ranks),
            self._number(self._reasons, game.reason),
            [self._number(self._kinds, kind) for kind in kinds],
            sorted({f.seat for f in game.faults if f.seat is not None}),
            round(game.duration, 2),
            int(game.void),
        ]
        self._rows.append((game.index, json.dumps(row, separators=(",", ":"))))

    def __len__(self) -> int:
        return len(self._rows)

    def scripts(self) -> tuple[str, str]:
        """The list's two files, scripts that hand the page its data: the whole list and
        its first page (in schedule order, with the count of games)."""
        tables = {
            "columns": list(COLUMNS),
            "bots": list(self._bots),
            "reasons": list(self._reasons),
            "kinds": list(self._kinds),
            "total": len(self._rows),
        }
        head = json.dumps(tables, separators=(",", ":"))[:-1]
        rows = [text for _index, text in sorted(self._rows)]
        # JSON in a string for JSON.parse: a browser reads that much faster than the same
        # data written as script.
        whole = json.dumps(f'{head},"games":[{",".join(rows)}]}}')
        first = json.dumps(f'{head},"games":[{",".join(rows[:PAGE])}]}}')
        return (
            f"arenaReport.gameList({self.run_id}, {whole});\n",
            f"arenaReport.firstGames({self.run_id}, {first});\n",
        )

    @staticmethod
    def _number(table: dict[str, int], value: str) -> int:
        return table.setdefault(value, len(table))


_FILE = re.compile(r'arenaReport\.(?:gameList|firstGames)\((\d+), (".*")\);\n?', re.DOTALL)


def read_game_list(report: Path, run_id: int, first: bool = False) -> dict[str, Any]:
    """Run ``run_id``'s games list (``first``: its first page's file) as the report in the
    folder ``report`` holds it, each game a row of :data:`COLUMNS`: for a check of a
    report without a browser."""
    path = report / (first_page_file(run_id) if first else list_file(run_id))
    found = _FILE.fullmatch(path.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"{path} is not a games list")
    data: dict[str, Any] = json.loads(json.loads(found.group(2)))
    return data
