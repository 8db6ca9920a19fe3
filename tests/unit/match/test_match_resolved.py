"""Resolving a match once: the game, codec, clocks, transports and programs a run uses."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from arena_kernel.errors import ArenaError
from arena_kernel.executors.lineup import Lineup, close_all
from arena_kernel.match.loader import load_match
from arena_kernel.match.resolved import ResolvedMatch, resolve
from arena_kernel.registries.manager import get_plugin_manager, load_registries
from arena_kernel.registries.registry import Registries
from arena_kernel.sandbox.settings import BotSandbox
from arena_kernel.testing.nim import Nim

MATCH = """\
game = "nim"
max_message_kb = 2

[clock]
reply = 0.5

[game_options]
pile = 9

[transport_options.tcp]
port = 0

[[bots]]
name = "fast"
builtin = "optimal"
inproc = true

[[bots]]
name = "program"
builtin = "random"
args = ["--quiet"]

[[bots]]
name = "mine"
cmd = ["./bot"]
transport = "tcp"

[[bots]]
name = "other"
cmd = ["./other", "{port}"]
transport = "tcp"
"""


def registries_for(plugins: tuple[str, ...]) -> Registries:
    return load_registries(get_plugin_manager(entry_points=False, extra=plugins))


def resolved(path: Path) -> ResolvedMatch:
    spec = load_match(path, registries_for)
    return resolve(spec, registries_for(spec.plugins))


def test_the_game_codec_and_clocks_are_made_from_the_spec(write_match: Callable[..., Path]) -> None:
    match = resolved(write_match(MATCH))
    assert isinstance(match.game, Nim) and match.game.config == {"pile": 9, "spread": 0}
    assert match.codec.name == Nim.codec and match.codec.max_message == 2048
    assert (match.clocks.reply, match.clocks.startup) == (0.5, Nim.clocks.startup)


def test_each_bot_gets_its_program_and_transport(write_match: Callable[..., Path]) -> None:
    bots = resolved(write_match(MATCH)).bots
    assert list(bots) == ["fast", "program", "mine", "other"]
    assert bots["fast"].transport.name == "inproc"
    assert bots["fast"].program.argv is None and bots["fast"].program.inproc is not None
    assert bots["program"].transport.name == Nim.transport
    assert bots["program"].program.argv[-2:] == ("random", "--quiet")
    assert bots["mine"].program.argv == ("./bot",)  # Nim has no bot_args
    assert bots["mine"].transport is bots["other"].transport, "one tcp listener for the run"
    assert bots["mine"].transport.config == {"host": "127.0.0.1", "port": 0}


def test_each_bot_gets_the_runs_sandbox_with_its_own_on_top(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    for folder in ("shared", "lib", "out", "data"):
        (tmp_path / folder).mkdir()
    text = MATCH.replace(
        "[[bots]]\n",
        '[sandbox]\nnetwork = "host"\nsyscalls = "all"\ntmp_mb = 16\nread_only = ["shared"]\n'
        "\n[[bots]]\n",
        1,
    ).replace(
        'cmd = ["./bot"]\n',
        'cmd = ["./bot"]\nsandbox = { network = "none", syscalls = "filtered", '
        'writable = ["out"], read_only = ["lib"], read_write = ["data"] }\n',
    )
    bots = resolved(write_match(text)).bots
    run = BotSandbox(network="host", syscalls="all", tmp_mb=16, read_only=(tmp_path / "shared",))
    assert bots["program"].sandbox == bots["other"].sandbox == run
    assert bots["mine"].sandbox == BotSandbox(
        network="none",
        syscalls="filtered",
        tmp_mb=16,
        writable=(tmp_path / "out",),
        read_only=(tmp_path / "shared", tmp_path / "lib"),
        read_write=(tmp_path / "data",),
    )
    plain = resolved(write_match(MATCH)).bots
    assert all(bot.sandbox == BotSandbox() for bot in plain.values())


def test_each_transport_is_listed_once(write_match: Callable[..., Path]) -> None:
    match = resolved(write_match(MATCH))
    assert sorted(t.name for t in match.transports) == ["inproc", "stdio", "tcp"]


def test_a_transport_option_its_transport_refuses_names_the_file(
    write_match: Callable[..., Path],
) -> None:
    with pytest.raises(ArenaError, match=r"match\.toml: \[transport_options\.tcp\] .*host name"):
        resolved(write_match(MATCH.replace("port = 0", 'port = 0\nhost = ""')))


def test_the_lineup_plays_with_the_resolved_objects(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    match = resolved(write_match(MATCH))
    lineup = Lineup(match)

    async def main() -> None:
        channels = await lineup.connect(["fast"], tmp_path / "logs")
        try:
            assert channels[0].codec is match.codec
            assert channels[0].name == "fast"
        finally:
            await close_all(channels)
            await lineup.aclose()

    asyncio.run(main())
