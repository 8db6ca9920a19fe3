"""One test per hook: a plugin implementing it is called, and what it gives is used."""

from __future__ import annotations

import asyncio
import types
from typing import Any

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.markers import hookimpl
from arena_kernel.model import Event, Standings
from arena_kernel.report.renderer import Renderer, Replay, Step
from arena_kernel.report.replay import render_steps
from arena_kernel.runner.api import run_match
from arena_kernel.scoring.base import Scorer
from arena_kernel.testing.nim import Nim
from arena_kernel.testing.results import stored_games
from arena_kernel.transports.inproc import InprocTransport


def _module(**hooks: Any) -> types.ModuleType:
    module = types.ModuleType("hook_test_plugin")
    for name, function in hooks.items():
        setattr(module, name, hookimpl(function))
    return module


def test_hook_arena_register_transports(arena_register) -> None:
    class Loopback(InprocTransport):
        name = "loopback"

    registries = arena_register(
        _module(arena_register_transports=lambda register: register(Loopback))
    )
    assert registries.transports.cls("loopback") is Loopback
    assert registries.transports["loopback"].source == "plugin hook_test_plugin"


def test_hook_arena_register_codecs(arena_register) -> None:
    class Shouting(LineCodec):
        name = "shouting"

        def encode(self, message: Any) -> bytes:
            return super().encode(str(message).upper())

    registries = arena_register(_module(arena_register_codecs=lambda register: register(Shouting)))
    assert registries.codecs.cls("shouting")().encode("hi") == b"HI\n"


def test_hook_arena_register_games(arena_register) -> None:
    class BigNim(Nim):
        name = "bignim"

    registries = arena_register(_module(arena_register_games=lambda register: register(BigNim)))
    assert registries.games.cls("bignim") is BigNim


def test_hook_arena_register_scorers(arena_register) -> None:
    class Count(Scorer):
        name = "count"
        summary = "games per bot"

        def score(self, games, bots) -> Standings:
            return Standings(
                "count", ("bot", "games"), [(b, sum(b in g.seating for g in games)) for b in bots]
            )

    registries = arena_register(_module(arena_register_scorers=lambda register: register(Count)))
    assert registries.scorers.cls("count") is Count


def test_hook_arena_register_executors(arena_register, write_match) -> None:
    """An executor made of the plugin surfaces alone: each session played as a remote
    worker would play it (in a thread here), then handed to the runner."""
    from arena_kernel import executor_plugin, plugin

    class Inline(executor_plugin.Executor):
        name = "inline"
        summary = "each session in a thread, as a worker would"
        options = {"label": plugin.Option("inline", "A word in the sessions' labels.")}

        async def prepare(self, sessions) -> None:
            names = tuple(p for p in self.plugins if isinstance(p, str))
            self.setup = executor_plugin.WorkerSetup("hook-test", self.match.spec, names)
            check = await asyncio.to_thread(executor_plugin.check_worker, self.setup)
            assert check.problem is None, check.problem
            self.sessions: list[int] = []

        async def play(self, sessions, results) -> None:
            for session in sessions:
                label = f"{self.config['label']} {session.number}"
                played = await asyncio.to_thread(
                    executor_plugin.play_session, self.setup, session, frozenset(), label
                )
                executor_plugin.deliver(played, results)
                self.sessions.append(session.number)

        async def aclose(self) -> None:
            await asyncio.to_thread(executor_plugin.close_run, "hook-test")

    module = _module(arena_register_executors=lambda register: register(Inline))
    assert arena_register(module).executors.cls("inline") is Inline
    path = write_match(
        """
        game = "nim"
        rounds = 2
        executor = "inline"
        [executor_options.inline]
        label = "thread"
        [[bots]]
        name = "a"
        builtin = "optimal"
        [[bots]]
        name = "b"
        builtin = "random"
        """
    )
    summary = run_match(path, [module])
    assert summary.errors == [] and summary.played == 4
    assert [result.index for result, _, _ in stored_games(summary)] == [0, 1, 2, 3]


def _replay(events: int) -> Replay:
    return Replay(
        game_id=1,
        game="pile",
        options={},
        seating=("a", "b"),
        ranks=(1, 2),
        scores=None,
        reason="a took the last stone",
        void=False,
        disqualified=frozenset(),
        details={},
        extra={},
        faults=(),
        events=tuple(Event(0.1 * i, "recv", i % 2, "1", 0.01) for i in range(events)),
    )


def test_hook_arena_register_renderers(arena_register) -> None:
    class Pile(Renderer):
        name = "pile"
        summary = "one step per move"

        def steps(self, replay: Replay) -> list[Step]:
            return [
                Step(f"move {i + 1}", (i, i + 1), picture={"left": 3 - i})
                for i in range(len(replay.events))
            ]

    registries = arena_register(_module(arena_register_renderers=lambda register: register(Pile)))
    assert registries.renderers.cls("pile") is Pile
    steps, problem = render_steps(_replay(3), registries.renderers.cls("pile"))
    assert problem is None
    assert [s.picture for s in steps] == [{"left": 3}, {"left": 2}, {"left": 1}]


def test_a_failing_renderer_costs_its_game_the_pictures_only() -> None:
    class Short(Renderer):
        name = "pile"
        summary = "forgets the last event"

        def steps(self, replay: Replay) -> list[Step]:
            return [Step("start", (0, 1))]

    steps, problem = render_steps(_replay(3), Short)
    assert (problem or "").startswith(
        "the pile renderer failed: ValueError: the steps cover 1 of 3 events"
    )
    assert [s.events for s in steps] == [(0, 1), (1, 2), (2, 3)]
    assert steps[-1].caption == "a wins: a took the last stone"


class Recorder:
    """An observer plugin that records every notification, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    @hookimpl
    def arena_run_start(self, run):
        self.calls.append(("run_start", run.total_games))

    @hookimpl
    def arena_game_start(self, run, game):
        self.calls.append(("game_start", game.index))

    @hookimpl
    def arena_game_end(self, run, game, record):
        self.calls.append(("game_end", (game.index, record.outcome.ranks)))

    @hookimpl
    def arena_run_end(self, run, standings):
        self.calls.append(("run_end", [s.title for s in standings]))


@pytest.fixture
def recorded_run(write_match) -> list[tuple[str, Any]]:
    path = write_match(
        """
        game = "nim"
        rounds = 2
        concurrency = 1
        scorers = ["wins"]
        [[bots]]
        name = "a"
        builtin = "optimal"
        inproc = true
        [[bots]]
        name = "b"
        builtin = "random"
        inproc = true
        """
    )
    recorder = Recorder()
    run_match(path, [recorder])
    return recorder.calls


def test_hook_arena_run_start(recorded_run) -> None:
    assert recorded_run[0] == ("run_start", 4)


def test_hook_arena_game_start(recorded_run) -> None:
    starts = [value for kind, value in recorded_run if kind == "game_start"]
    assert starts == [0, 1, 2, 3]


def test_hook_arena_game_end(recorded_run) -> None:
    ends = [value for kind, value in recorded_run if kind == "game_end"]
    assert [index for index, _ in ends] == [0, 1, 2, 3]
    assert all(sorted(ranks) == [1, 2] for _, ranks in ends)
    kinds = [kind for kind, _ in recorded_run]
    assert kinds.index("game_end") > kinds.index("game_start")


def test_hook_arena_run_end(recorded_run) -> None:
    assert recorded_run[-1][0] == "run_end"
    assert len(recorded_run[-1][1]) == 1
