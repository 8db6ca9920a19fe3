"""The runner's notification layer: typed calls, one implementation at a time."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena_kernel import hookspecs
from arena_kernel.errors import PluginError
from arena_kernel.markers import hookimpl
from arena_kernel.model import RunInfo, ScheduledGame
from arena_kernel.registries.manager import get_plugin_manager, register_plugin
from arena_kernel.registries.observers import Observers
from arena_kernel.registries.report import PluginWarning

RUN = RunInfo(1, "key", "match", "nim", 2, 0, "results.sqlite")
GAMES = [ScheduledGame(0, 11, ("a", "b")), ScheduledGame(1, 12, ("b", "a"))]


class Recorder:
    def __init__(self, label: str, calls: list[tuple[str, int]]) -> None:
        self.label, self.calls = label, calls

    @hookimpl
    def arena_game_start(self, game: ScheduledGame) -> None:  # a subset of the arguments
        self.calls.append((self.label, game.index))


class Raising:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    @hookimpl
    def arena_game_start(self, run: RunInfo, game: ScheduledGame) -> None:
        raise self.error


def observers_of(*plugins: object) -> Observers:
    pm = get_plugin_manager(entry_points=False)
    for plugin in plugins:
        pm.register(plugin)
    return Observers(pm)


def test_a_raising_observer_is_reported_once_and_the_others_are_called() -> None:
    calls: list[tuple[str, int]] = []
    observers = observers_of(
        Recorder("first", calls), Raising(ValueError("no\nspace left")), Recorder("last", calls)
    )
    with pytest.warns(PluginWarning) as reported:
        for game in GAMES:
            observers.notify(hookspecs.arena_game_start, run=RUN, game=game)
    # pluggy's order (the last registered first), both games, around the failing one.
    assert calls == [("last", 0), ("first", 0), ("last", 1), ("first", 1)]
    [warning] = reported
    message = str(warning.message)
    assert message.startswith(
        f"plugin {Raising.__module__}.Raising: arena_game_start raised "
        "ValueError: no space left (at "
    ), message
    lines, first = inspect.getsourcelines(Raising.arena_game_start)
    raised_at = first + next(i for i, line in enumerate(lines) if "raise" in line)
    assert f"{__file__}:{raised_at}); the run goes on" in message, "where the observer raised"


def test_arguments_may_be_given_by_position() -> None:
    calls: list[tuple[str, int]] = []
    observers_of(Recorder("only", calls)).notify(hookspecs.arena_game_start, RUN, GAMES[1])
    assert calls == [("only", 1)]


@pytest.mark.parametrize("error", [KeyboardInterrupt(), SystemExit(3)])
def test_an_interrupt_in_an_observer_is_not_swallowed(error: BaseException) -> None:
    observers = observers_of(Raising(error))
    with pytest.raises(type(error)):
        observers.notify(hookspecs.arena_game_start, run=RUN, game=GAMES[0])


def test_a_wrapper_on_an_arena_hook_is_refused() -> None:
    class Timing:
        @hookimpl(wrapper=True)
        def arena_game_end(self, run: RunInfo, game: ScheduledGame, record: Any) -> Iterator[None]:
            yield

    pm = get_plugin_manager(entry_points=False)
    with pytest.raises(PluginError, match="arena_game_end must not be a wrapper"):
        register_plugin(pm, Timing())
    assert not pm.hook.arena_game_end.get_hookimpls(), "left unregistered"


@pytest.fixture
def installed_observer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A real distribution on sys.path whose entry point is an observer that raises."""
    (tmp_path / "arena_fakeobs_plugin.py").write_text(
        textwrap.dedent(
            """
            from arena_kernel.markers import hookimpl

            @hookimpl
            def arena_run_start(run):
                raise KeyError("token")
            """
        )
    )
    dist = tmp_path / "arena_fakeobs-2.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-fakeobs\nVersion: 2.0\n")
    (dist / "entry_points.txt").write_text("[arena]\nfakeobs = arena_fakeobs_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "arena_fakeobs_plugin"
    sys.modules.pop("arena_fakeobs_plugin", None)


def test_an_installed_observer_is_named_by_its_distribution(installed_observer: str) -> None:
    observers = Observers(get_plugin_manager())
    with pytest.warns(PluginWarning) as reported:
        observers.notify(hookspecs.arena_run_start, run=RUN)
    [warning] = reported
    assert str(warning.message).startswith(
        "plugin arena-fakeobs 2.0 (entry point fakeobs): arena_run_start raised KeyError: 'token'"
    ), warning.message


NOTIFICATIONS = """
from arena_kernel import hookspecs
from arena_kernel.model import RunInfo, ScheduledGame
from arena_kernel.registries.observers import Observers


def notify(observers: Observers, run: RunInfo, game: ScheduledGame) -> None:
    observers.notify(hookspecs.arena_game_start, run=run, game=game)
    observers.notify(hookspecs.arena_game_start, run, game)
    observers.notify(hookspecs.arena_game_start, run=run, gmae=game)
    observers.notify(hookspecs.arena_game_start, run=run, game=run)
    observers.notify(hookspecs.arena_run_end, run=run)
"""


def test_notify_is_type_checked_against_the_hook_specification(tmp_path: Path) -> None:
    """A runner that misspells an argument, passes the wrong type or forgets one fails
    the type check: the specifications in hookspecs.py are the calls' signatures."""
    pytest.importorskip("mypy")
    packages = tmp_path / "packages"
    packages.mkdir()
    (packages / "arena_kernel").symlink_to(Path(hookspecs.__file__).parent)
    (tmp_path / "calls.py").write_text(NOTIFICATIONS)
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--follow-imports=silent",
            "--cache-dir",
            "cache",
            "calls.py",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(packages)},
        timeout=300,
    )
    source = NOTIFICATIONS.splitlines()
    errors = {
        source[int(line.split(":")[1]) - 1].strip(): line.split(": error: ")[1]
        for line in checked.stdout.splitlines()
        if ": error: " in line
    }
    assert errors.keys() == {
        "observers.notify(hookspecs.arena_game_start, run=run, gmae=game)",
        "observers.notify(hookspecs.arena_game_start, run=run, game=run)",
        "observers.notify(hookspecs.arena_run_end, run=run)",
    }, checked.stdout
    assert all(
        expected in message
        for expected, message in zip(
            ['"gmae"', 'expected "ScheduledGame"', '"standings"'], errors.values(), strict=True
        )
    ), errors
