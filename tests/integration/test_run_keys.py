"""Every example match file keeps the run key its runs are stored under, so a run of any
example resumes across arena versions: a change of the key's form (a field that joined
the first form, a default that moved) shows here by the file it breaks."""

from __future__ import annotations

import dataclasses
from pathlib import Path, PurePosixPath

import pytest
from paths import REPO

from arena_kernel.match.spec import MatchSpec
from arena_kernel.runner.api import prepare

CHECKOUT = PurePosixPath("/checkout")
"""Where the keys below were computed: a bot's folder is part of its run's key."""

STORED_KEYS = {
    "examples/league.toml": "0ebded84df90bd3d",
    "examples/nim.toml": "5627afbe6ae32932",
    "plugins/dominion_sexpr/examples/v1.toml": "5aec56bc8bc795d1",
    "plugins/dominion_sexpr/examples/v2.toml": "4eb0b10f5abcd032",
    "plugins/dominion_sexpr/examples/v3.toml": "f8168524ba7fb35a",
    "plugins/dominion_text/examples/four_players.toml": "e902d36dce2c5b8a",
    "plugins/dominion_text/examples/three_players.toml": "99f10e1f3fd396aa",
    "plugins/dominion_text/examples/two_players.toml": "e250a8edac718212",
    "plugins/liarsdice/examples/fixed_port.toml": "8a65790128365f67",
    "plugins/liarsdice/examples/four_players.toml": "38184a7f508274bc",
    "plugins/liarsdice/examples/six_players.toml": "078864390d7bf4ec",
    "plugins/liarsdice/examples/three_players.toml": "9578283b1cd78fc2",
    "plugins/liarsdice/examples/two_players.toml": "1fca01612a4a0f18",
    "plugins/speedclue/examples/contest.toml": "63be4b9e6ca3abe8",
    "plugins/speedclue/examples/four_players.toml": "8868e7e59bc698a3",
    "plugins/speedclue/examples/six_players.toml": "90e15ab9d9518764",
    "plugins/speedclue/examples/three_players.toml": "ea21d24b12e3e169",
    "plugins/stones/examples/my_bot.toml": "7a0ca94c0ded8c21",
    "plugins/stones/examples/round_robin.toml": "410d5c0e29ce5b65",
}


def examples() -> list[str]:
    files = [*REPO.glob("examples/*.toml"), *REPO.glob("plugins/*/examples/*.toml")]
    return sorted(str(path.relative_to(REPO)) for path in files)


def at_checkout(spec: MatchSpec) -> MatchSpec:
    """``spec`` as it loads from a checkout at :data:`CHECKOUT`."""
    bots = tuple(
        dataclasses.replace(bot, cwd=str(CHECKOUT / Path(bot.cwd).relative_to(REPO)))
        if bot.cwd
        else bot
        for bot in spec.bots
    )
    return dataclasses.replace(spec, bots=bots)


def test_every_example_has_its_stored_key() -> None:
    assert examples() == sorted(STORED_KEYS)


@pytest.mark.parametrize("example", sorted(STORED_KEYS))
def test_an_example_keeps_its_run_key(example: str) -> None:
    assert at_checkout(prepare(REPO / example).spec).key() == STORED_KEYS[example]
