"""Each game's example match file, unchanged, plays clean games with its bots sandboxed:
``mode = "auto"`` (the default) on a machine where bwrap works sandboxes every bot the arena
starts, built-in bots run as programs included, over stdio and tcp (Liar's Dice's fixed
port 5533 as well), each under the syscall filter (``syscalls = "filtered"``, the
default): every bwrap command the run makes loads it."""

from __future__ import annotations

import shutil

import pytest
from game_plugins import PLUGINS, require

from arena_kernel.sandbox.bwrap import Confined, Sandbox
from arena_kernel.testkit import run_match, stored_games

EXAMPLES = {
    "stones": "round_robin.toml",
    "dominion_text": "two_players.toml",
    "dominion_sexpr": "v1.toml",
    "liarsdice": "fixed_port.toml",
    "speedclue": "four_players.toml",
}


@pytest.fixture
def bwrap_commands(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every sandboxed bot's command the test makes, as it is made."""
    made: list[list[str]] = []
    command = Sandbox.command

    def recorded(self: Sandbox, *args: object, **kwargs: object) -> Confined:
        confined = command(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(list(confined.argv))
        return confined

    monkeypatch.setattr(Sandbox, "command", recorded)
    return made


@pytest.mark.parametrize("plugin", list(EXAMPLES))
def test_an_example_plays_clean_games_in_the_sandbox(
    plugin, sandbox, tmp_path, bwrap_commands
) -> None:
    example = EXAMPLES[plugin]
    require(plugin)
    folder = tmp_path / plugin / "examples"
    # Without what an earlier run of the example left there (README's first command):
    # its stored games would make this run play none.
    leftovers = shutil.ignore_patterns("*.sqlite", "*.sqlite-*", "*.sqlite.lock", "*-logs")
    shutil.copytree(PLUGINS / plugin / "examples", folder, ignore=leftovers)
    if (PLUGINS / plugin / "tests" / "bots").is_dir():  # what an example's cmd names
        shutil.copytree(PLUGINS / plugin / "tests" / "bots", tmp_path / plugin / "tests" / "bots")
    assert "[sandbox]" not in (folder / example).read_text(), "unchanged: auto by default"
    summary = run_match(folder / example)
    assert summary.played > 0 and summary.errors == []
    for result, detail, _events in stored_games(summary):
        assert result.sandbox == "bwrap"
        assert not detail.faults and not result.void, (result, detail.faults)
    assert bwrap_commands and all("--seccomp" in argv for argv in bwrap_commands)
