"""Small fake games and hand-built registries, so match files are checked in isolation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena_kernel.executors.dask import DaskExecutor
from arena_kernel.executors.local import LocalExecutor
from arena_kernel.games.base import BuiltinBot, Game, Option, Outcome
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.referee.clocks import Clocks
from arena_kernel.registries.registry import Entry, Registries
from arena_kernel.transports.tcp import TcpTransport


class FakeGame(Game[None]):
    """Validation never plays: ``play`` only has to exist."""

    async def play(self, table: Any, seed: int, session: None) -> Outcome:
        raise AssertionError("match-file tests never play a game")


class Stones(FakeGame):
    name = "stones"
    summary = "Take stones from heaps"
    seats = (2, 3, 4)
    clocks = Clocks(reply=2.0, game=30.0)
    options = {
        "size": Option(9, "Number of heaps", minimum=1, maximum=19),
        "komi": Option(0.5, "Points given to the second player"),
        "rule": Option("normal", "Who wins on the last stone", choices=("normal", "misere")),
        "swap": Option(False, "Let the second player swap sides\nafter the first move"),
    }
    bots = {
        "random": BuiltinBot("Takes at random", "stones.random", inproc=object),
        "greedy": BuiltinBot("Takes the most", "stones.greedy"),
    }


class Nim(FakeGame):
    name = "nim"
    bots = {"random": BuiltinBot("Plays at random", "nim.random")}


class Rps(FakeGame):
    name = "rps"
    seats = (2, 3)
    codec = "json"


def _named(kind: str, name: str) -> type:
    """A placeholder class; transports are real ones, whose declared options files set."""
    bases = (TcpTransport,) if kind == "transport" else ()
    return type(f"{kind}_{name}", bases, {"name": name})


def make_registries(
    *games: type[Game],
    codecs: tuple[str, ...] = ("line", "json"),
    transports: tuple[str, ...] = ("stdio", "tcp"),
    scorers: tuple[str, ...] = ("wins", "elo", "openskill"),
) -> Registries:
    """Registries with ``games``, placeholder codecs, transports and scorers, and the
    built-in executors."""
    registries = Registries.empty()
    for executor in (LocalExecutor, DaskExecutor):
        registries.executors.add(Entry(executor.name, executor, "tests", "tests"))
    for game in games:
        registries.games.add(Entry(game.name, game, "tests", "tests"))
    for registry, names in (
        (registries.codecs, codecs),
        (registries.transports, transports),
        (registries.scorers, scorers),
    ):
        for name in names:
            registry.add(Entry(name, _named(registry.kind, name), "tests", "tests"))
    return registries


def make_spec(bots: int, seats: int | tuple[int, ...], **kw: Any) -> MatchSpec:
    """A validated match spec for ``bots`` command bots ``b0, b1...`` (schedule tests)."""
    counts = (seats,) if isinstance(seats, int) else seats
    return MatchSpec(
        path=Path("m.toml"),
        game="g",
        bots=tuple(BotSpec(f"b{n}", cmd=("x",)) for n in range(bots)),
        seats=counts,
        **kw,
    )
