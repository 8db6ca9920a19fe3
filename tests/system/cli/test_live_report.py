"""``arena run --report DIR``: the run's HTML report written while it plays and at its
end; a report that cannot be written is one warning, and the run goes on."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from arena_cli import arena, stored

from arena_kernel.cli.live_report import COST_SHARE, REFRESH_EVERY, LiveReport
from arena_kernel.errors import ArenaError
from arena_kernel.model import GameRecord, Outcome, RunInfo, ScheduledGame
from arena_kernel.registries.report import PluginWarning
from arena_kernel.report.replay_files import read_records
from arena_kernel.runner.api import prepare, run_prepared
from arena_kernel.store import Store

MATCH = """
name = "watched"
game = "nim"
concurrency = 1
[[bots]]
name = "optimal"
builtin = "optimal"
inproc = true
[[bots]]
name = "random"
builtin = "random"
inproc = true
[[bots]]
name = "random-2"
builtin = "random"
inproc = true
"""
"""Six games of in-process bots, one at a time."""


def games_stored(index: Path) -> int:
    """What the report's run page says: ``N of 6 games stored``."""
    found = re.search(r"(\d+) of 6 games stored", index.read_text(encoding="utf-8"))
    assert found is not None, index
    return int(found.group(1))


def test_the_report_is_written_and_named(tmp_path: Path, write_match: Callable[..., Path]) -> None:
    site = tmp_path / "site"
    result = arena("run", "--report", str(site), str(write_match(MATCH)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("run 1 (watched): 6 games played now")
    assert lines[1] == f"report: {site / 'index.html'}"
    assert games_stored(site / "index.html") == 6
    with Store(tmp_path / "results.sqlite") as store:
        ids = [game.game_id for game in store.results(1)]
    assert sorted(read_records(site)) == sorted(ids)


def test_a_report_that_cannot_be_written_is_one_warning(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n")
    site = a_file / "site"
    result = arena("run", "--report", str(site), str(write_match(MATCH)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    warnings = [line for line in result.stderr.splitlines() if line.startswith("arena:")]
    assert warnings == [
        f"arena: warning: the report in {site} was not written: cannot write the report in "
        f"{site}: Not a directory; the run goes on"
    ], "once, however many times it was tried"
    assert stored(tmp_path / "results.sqlite") == (1, 6)
    assert "report:" not in result.stdout and "Wins" in result.stdout


class SetClock:
    """A clock the test sets (and a slow writer moves)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Joined(LiveReport):
    """Each refresh is waited for, then the clock moves on until the next one is due:
    every game's end refreshes the report, and what each refresh wrote is seen in order."""

    def __init__(self, out: Path, write: Callable[..., Path]) -> None:
        self.set_clock = SetClock()
        super().__init__(out, write=write, clock=self.set_clock)

    def _refresh(self) -> None:
        super()._refresh()
        assert self.thread is not None
        self.thread.join()
        self.set_clock.now += REFRESH_EVERY


def test_every_refresh_shows_the_games_stored_by_then(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    """With every game's end due for a refresh, the real report shows 0 games at the
    start, then one more after each game, then all of them at the end."""
    from arena_kernel.report.site import write_report

    site = tmp_path / "site"
    seen: list[int] = []

    def write(*args: Any, **kwargs: Any) -> Path:
        index = write_report(*args, **kwargs)
        seen.append(games_stored(index))
        return index

    live = Joined(site, write)
    summary = run_prepared(prepare(write_match(MATCH)), [live])
    assert summary.played == 6
    assert seen == [0, 1, 2, 3, 4, 5, 6]
    assert live.finish() == site / "index.html"
    assert seen == [0, 1, 2, 3, 4, 5, 6, 6]


class Recorder:
    """A report writer that records when it was called; it can fail, take time (on the
    test's clock), or wait until released."""

    def __init__(self, clock: SetClock) -> None:
        self.clock = clock
        self.calls: list[float] = []
        self.fail: Exception | None = None
        self.takes = 0.0
        self.release = threading.Event()
        self.release.set()

    def __call__(self, database: str, out: Path, *, run: int, plugins: tuple[str, ...]) -> Path:
        assert (database, run, plugins) == ("db.sqlite", 7, ("my_renderers",))
        self.calls.append(self.clock.now)
        assert self.release.wait(10)
        self.clock.now += self.takes
        if self.fail is not None:
            raise self.fail
        return out / "index.html"


RUN = RunInfo(7, "key", "watched", "nim", 100, 0, "db.sqlite")


def game_end(live: LiveReport, clock: SetClock, at: float, *, wait: bool = True) -> None:
    """A game ends at ``at``; with ``wait``, the refresh it started (if any) is waited for."""
    clock.now = at
    game = ScheduledGame(0, 0, ("a", "b"))
    live.arena_game_end(RUN, game, GameRecord(game, Outcome([1, 2], "over")))
    if wait and live.thread is not None:
        live.thread.join()


def started(tmp_path: Path) -> tuple[LiveReport, Recorder, SetClock]:
    clock = SetClock()
    writer = Recorder(clock)
    live = LiveReport(tmp_path, ["my_renderers"], write=writer, clock=clock)
    live.arena_run_start(RUN)
    assert live.thread is not None
    live.thread.join()
    return live, writer, clock


def test_refreshes_are_spaced_and_never_overlap(tmp_path: Path) -> None:
    live, writer, clock = started(tmp_path)
    for at in (1.0, 4.9, 5.0, 7.0, 10.5):
        game_end(live, clock, at)
    assert writer.calls == [0.0, 5.0, 10.5], f"at most every {REFRESH_EVERY} s"

    # A slow write (3 s) spaces the next one by COST_SHARE times as long.
    writer.takes = 3.0
    game_end(live, clock, 16.0)
    writer.takes = 0.0
    assert clock.now == 19.0
    for at in (20.0, 27.9, 28.0):
        game_end(live, clock, at)
    assert COST_SHARE * 3.0 == 12.0
    assert writer.calls == [0.0, 5.0, 10.5, 16.0, 28.0]

    # While one writes, the end of a game starts no other.
    writer.release.clear()
    game_end(live, clock, 40.0, wait=False)
    running = live.thread
    game_end(live, clock, 50.0, wait=False)
    assert live.thread is running
    writer.release.set()
    assert live.finish() is None, "the run did not end: no last write"
    assert writer.calls == [0.0, 5.0, 10.5, 16.0, 28.0, 40.0]


def test_the_last_write_waits_for_the_refresh_in_progress(tmp_path: Path) -> None:
    live, writer, clock = started(tmp_path)
    writer.release.clear()
    game_end(live, clock, 6.0, wait=False)
    live.arena_run_end(RUN, [])
    releaser = threading.Timer(0.2, writer.release.set)
    releaser.start()
    clock.now = 7.0
    assert live.finish() == tmp_path / "index.html"
    assert writer.calls == [0.0, 6.0, 7.0]


def test_a_failing_write_is_one_warning_per_reason(tmp_path: Path) -> None:
    clock = SetClock()
    writer = Recorder(clock)
    writer.fail = ArenaError("cannot write the report in X: Permission denied")
    live = LiveReport(tmp_path, ["my_renderers"], write=writer, clock=clock)
    with pytest.warns(PluginWarning) as warned:
        live.arena_run_start(RUN)
        for at in (10.0, 20.0):
            game_end(live, clock, at)
        writer.fail = KeyError("board")
        game_end(live, clock, 30.0)
        live.arena_run_end(RUN, [])
        assert live.finish() is None, "the last write failed too"
    assert len(writer.calls) == 5
    first, second = (str(w.message) for w in warned)
    assert first == (
        f"the report in {tmp_path} was not written: cannot write the report in X: "
        "Permission denied; the run goes on"
    )
    # Another reason is another warning: the error and where it was raised.
    assert second.startswith(
        f"the report in {tmp_path} was not written: KeyError: 'board' (at {__file__}:"
    ) and second.endswith("); the run goes on"), second

    writer.fail = None
    assert live.finish() == tmp_path / "index.html", "a later write that works is kept"
