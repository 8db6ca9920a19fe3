"""Every game's replay in a bounded number of files: ``data/replays-<n>.js``.

A report of a hundred thousand games cannot be a hundred thousand pages. Each game's
replay (its steps, messages, faults and stderr logs) is one JSON record, compressed, and
the records of consecutive game ids share a file, at most :data:`MOST_FILES` files for the
whole report. A file is a script, not data: a page opened from disk may not ``fetch()``
another file, but it may add a ``<script>`` that hands the page its records
(``arenaReport.replays(n, {"<id>": "<base64 of gzip of JSON>", ...})``). The viewer
(``game.html#<id>``) finds the file of an id in the index :meth:`ReplayFiles.index` gives,
loads it and inflates that one record.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

MOST_FILES = 64
"""The most replay files a report has, however many games it holds."""

LEAST_GAMES_PER_FILE = 500
"""The fewest games a file holds (but the last): a report of a few thousand games is a few
files, not :data:`MOST_FILES` small ones."""

FOLDER = "data"
"""The report's folder of data scripts (replays here, the games lists too)."""


def games_per_file(games: int) -> int:
    """How many games each replay file holds for a report of ``games`` games."""
    return max(LEAST_GAMES_PER_FILE, math.ceil(games / MOST_FILES))


_FILE = re.compile(r"arenaReport\.replays\((\d+), (\{.*\})\);\n?", re.DOTALL)


def packed(record: Any) -> str:
    """``record`` as a file holds it: JSON, gzip (no time stamp, so the same game is the
    same bytes), base64."""
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return base64.b64encode(gzip.compress(text.encode("utf-8"), mtime=0)).decode("ascii")


class ReplayFiles:
    """Writes the replay files of a report in the order of game ids: :meth:`add` each
    record, then :meth:`close`. ``write(path, text)`` writes one file of the report
    whole; ``expected`` is how many games the report holds, which sets how many go in a
    file."""

    def __init__(self, out: Path, expected: int, write: Callable[[Path, str], None]) -> None:
        self.out = out
        self.per_file = games_per_file(expected)
        self._write = write
        self._records: dict[int, str] = {}
        self._files: list[tuple[int, str]] = []

    def add(self, game_id: int, record: Any) -> str:
        """Add game ``game_id``'s record (ids ascending); the name of the file that holds
        it, relative to the report's folder."""
        if len(self._records) >= self.per_file:
            self._flush()
        if not self._records:
            self._files.append((game_id, f"{FOLDER}/replays-{len(self._files)}.js"))
        self._records[game_id] = packed(record)
        return self._files[-1][1]

    def close(self) -> None:
        """Write the last file; remove those a larger earlier report left behind."""
        if self._records:
            self._flush()
        for stale in sorted((self.out / FOLDER).glob("replays-*.js")):
            number = stale.stem.removeprefix("replays-")
            if not number.isdigit() or int(number) >= len(self._files):
                stale.unlink(missing_ok=True)

    def index(self) -> list[tuple[int, str]]:
        """Per file, the first game id it holds and its name: the viewer's way to a game."""
        return list(self._files)

    def _flush(self) -> None:
        number = len(self._files) - 1
        body = json.dumps({str(k): v for k, v in self._records.items()}, separators=(",", ":"))
        self._write(self.out / self._files[-1][1], f"arenaReport.replays({number}, {body});\n")
        self._records = {}


def unpacked(text: str) -> Any:
    """A record as :func:`packed` holds it, read back."""
    return json.loads(gzip.decompress(base64.b64decode(text)).decode("utf-8"))


def read_records(report: Path) -> dict[int, Any]:
    """Every game record of the report in the folder ``report``, by game id: what its
    viewer reads, for a check of a report without a browser."""
    records = {}
    for path in sorted((report / FOLDER).glob("replays-*.js")):
        found = _FILE.fullmatch(path.read_text(encoding="utf-8"))
        if found is None:
            raise ValueError(f"{path} is not a replay file")
        records.update({int(k): unpacked(v) for k, v in json.loads(found.group(2)).items()})
    return records
