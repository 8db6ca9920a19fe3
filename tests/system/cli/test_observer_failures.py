"""An observer plugin that raises, in a real ``arena run``: one line, and the run goes on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from arena_cli import nim_in_process, stored
from installed_dist import arena_with, stderr_lines

FAILING = """
from arena_kernel.markers import hookimpl

@hookimpl
def arena_game_end(run, game, record):
    raise RuntimeError(f"report server down (game {game.index})")
"""

RECORDING = """
import os
from arena_kernel.markers import hookimpl

def note(text):
    with open(os.environ["OBSERVED"], "a") as out:
        out.write(text + "\\n")

@hookimpl
def arena_run_start(run):
    note("run_start")

@hookimpl
def arena_game_end(run, game, record):
    note(f"game_end {game.index}")

@hookimpl
def arena_run_end(run, standings):
    note("run_end")
"""

MATCH = (
    "concurrency = 1\n"
    'plugins = ["arena_kernel.testing.games", "recording_observer", "failing_observer"]\n'
    + nim_in_process()
)


def test_an_observer_that_raises_is_one_warning_and_the_run_goes_on(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "failing_observer.py").write_text(FAILING)
    (site / "recording_observer.py").write_text(RECORDING)
    observed = tmp_path / "observed.txt"
    result = arena_with(site, "run", "-q", str(write_match(MATCH)), env={"OBSERVED": str(observed)})
    assert result.returncode == 0, result.stderr
    assert "2 games played now" in result.stdout and "Wins" in result.stdout
    assert stored(tmp_path / "results.sqlite") == (1, 2)
    [warning] = stderr_lines(result)  # once for both games
    assert warning.startswith(
        "arena: warning: plugin failing_observer: arena_game_end raised RuntimeError: "
        f"report server down (game 0) (at {site / 'failing_observer.py'}:6); the run goes on"
    ), warning
    # Called after the failing one (pluggy calls the last registered first), every time.
    assert observed.read_text().split("\n") == [
        "run_start",
        "game_end 0",
        "game_end 1",
        "run_end",
        "",
    ]
