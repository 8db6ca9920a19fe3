"""Commands that need no game import no game, no plugin and no runner: what a command
imports is checked here (its speed is measured by benchmarks/cli_startup.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from arena_cli import nim_in_process
from installed_dist import install

IMPORTED_AFTER = """
import json, sys
from arena_kernel.cli.main import main
report, sys.argv = sys.argv[1], ["arena", *sys.argv[2:]]
try:
    main()
finally:
    with open(report, "w") as out:
        json.dump(sorted(sys.modules), out)
"""

PROBE = """
from arena_kernel.markers import hookimpl
from arena_kernel.testing.nim import Nim

class Probe(Nim):
    name = "probe"

@hookimpl
def arena_register_games(register):
    register(Probe)
"""

MATCH = 'database = "results.sqlite"\nplugins = ["arena_kernel.testing.games"]\n' + nim_in_process()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An installed plugin to spot, and a database of one finished run (``results.sqlite``)."""
    site = tmp_path_factory.mktemp("site")
    install(site, "arena-probe", {"probe": "arena_probe"}, {"arena_probe": PROBE})
    (site / "nim.toml").write_text(MATCH)
    made = imported(site, "run", "-q", "nim.toml")
    assert "arena_kernel.runner.run" in made, "the test can see what a command imports"
    return site


def imported(site: Path, *args: str, cache: Path | None = None) -> set[str]:
    """The modules loaded once ``arena ARGS`` has run (with the plugin of ``site``); with
    ``cache``, its caches there, else none (``arena plugins`` loads every plugin)."""
    report = site / "modules.json"
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    no_cache = site / "no-cache"  # a file: no cache folder can be made in it
    no_cache.touch()
    result = subprocess.run(
        [sys.executable, "-c", IMPORTED_AFTER, str(report), *args],
        capture_output=True,
        text=True,
        cwd=site,
        env={**os.environ, "PYTHONPATH": path, "ARENA_CACHE_DIR": str(cache or no_cache)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(report.read_text()))


def plugin_modules() -> set[str]:
    """The modules of every installed plugin (the probe too, while on the path)."""
    return {entry.module for entry in entry_points(group="arena")}


NOT_NEEDED = ("arena_kernel.runner", "arena_kernel.games", "arena_kernel.testing")


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["run", "--help"],
        ["plugins", "--help"],
        ["doctor", "--help"],
        ["replay", "results.sqlite", "1"],
        ["standings", "results.sqlite"],
    ],
    ids=" ".join,
)
def test_a_command_that_needs_no_game_imports_none(site: Path, args: list[str]) -> None:
    loaded = imported(site, *args)
    unwanted = {
        module
        for module in loaded
        if module in plugin_modules() | {"arena_probe"} or module.startswith(NOT_NEEDED)
    }
    assert not unwanted, f"arena {' '.join(args)} imported {sorted(unwanted)}"


def test_arena_plugins_imports_the_installed_plugins(site: Path) -> None:
    """The check above can see a plugin being imported."""
    assert "arena_probe" in imported(site, "plugins")


def test_a_listing_from_the_cache_loads_no_plugin(site: Path, tmp_path: Path) -> None:
    """Once kept, ``arena plugins`` imports no plugin, no plugin manager, no entry point
    scan, no event loop and no other command's module."""
    for _ in range(2):  # the second sees the byte code the first one wrote, and keeps it
        assert "arena_probe" in imported(site, "plugins", cache=tmp_path) or _ > 0
    loaded = imported(site, "plugins", cache=tmp_path)
    unwanted = {
        module
        for module in loaded
        if module in plugin_modules() | {"arena_probe", "importlib.metadata"}
        or module.split(".")[0] in ("asyncio", "pluggy", "sqlite3")
        or module.startswith(("arena_kernel.cli.export", "arena_kernel.cli.check_bot"))
        or module.startswith(("arena_kernel.registries.manager", "arena_kernel.sandbox.seccomp"))
        or module in NOT_FOR_READING
        or module in NOT_FOR_LISTINGS
        # The sandbox check starts bwrap by the trial alone, without a bot's sandbox.
        or module in ("arena_kernel.sandbox.bwrap", "arena_kernel.sandbox.private_folder")
    }
    assert not unwanted, f"arena plugins imported {sorted(unwanted)}"


NOT_FOR_READING = (
    "arena_kernel.cli.run",
    "arena_kernel.cli.league",
    "arena_kernel.model.games",
    "arena_kernel.scoring.played",
)
"""What only a command that plays games needs: ``arena run``'s module and options, the
records of games, the games a run keeps for its figures."""


NOT_FOR_LISTINGS = ("dataclasses",)
"""What neither ``arena plugins`` nor ``arena standings`` loads: their records are the
model's slotted ones (:mod:`arena_kernel.model.values`)."""


@pytest.mark.parametrize("args", [["--version"], ["replay", "--help"]], ids=" ".join)
def test_a_command_that_plays_no_game_builds_no_record_of_one(site: Path, args: list[str]) -> None:
    loaded = imported(site, *args)
    assert not loaded & set(NOT_FOR_READING), sorted(loaded & set(NOT_FOR_READING))


def test_arena_run_help_loads_its_module(site: Path) -> None:
    """The checks above can see ``arena run``'s module and options being loaded."""
    assert {"arena_kernel.cli.run", "arena_kernel.cli.league"} <= imported(site, "run", "--help")


def test_arena_standings_of_built_in_scorers_loads_only_them_and_the_run_reads(
    site: Path,
) -> None:
    """Standings of a run of built-in order-free scorers (wins and elo here) read the run's
    tally: no plugin manager, no transport, no executor, no event loop, no other scorer
    (openskill's library, plackett-luce), and none of the store beyond a run's reads (the
    games, their logs and figures)."""
    loaded = imported(site, "standings", "results.sqlite")
    assert {"arena_kernel.scoring.wins", "arena_kernel.scoring.elo"} <= loaded
    unwanted = {
        module
        for module in loaded
        if module.split(".")[0] in ("asyncio", "openskill", "pluggy")
        or module.startswith(("arena_kernel.transports.", "arena_kernel.executors."))
        or module.startswith("arena_kernel.registries.manager")
        or module == "arena_kernel.match.spec"
        or module
        in (
            "arena_kernel.match.stages",
            "arena_kernel.cli.export",
            "arena_kernel.scoring.plackett_luce",
            "arena_kernel.store.sqlite",
            "arena_kernel.store.logs",
            "arena_kernel.report.stats",
            # a fault is made only for a bot that failed to come up: none did here
            "arena_kernel.model.faults",
            *NOT_FOR_READING,
            *NOT_FOR_LISTINGS,
        )
    }
    assert not unwanted, f"arena standings imported {sorted(unwanted)}"


COLLECTOR_SEEN = """
import gc, json, sys
seen = {}

class Spy:
    def find_spec(self, name, path=None, target=None):
        seen.setdefault(name, gc.isenabled())

sys.meta_path.insert(0, Spy())
from arena_kernel.cli.main import main
report, sys.argv = sys.argv[1], ["arena", *sys.argv[2:]]
try:
    main()
finally:
    seen["after"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count() > 0
    with open(report, "w") as out:
        json.dump(seen, out)
"""


def test_the_collector_is_off_for_the_commands_import_only(site: Path) -> None:
    """Python's garbage collector is off while click and the commands are imported (the
    objects they make are then frozen), and on again for the command, which imports its
    own modules with it on."""
    report = site / "collector.json"
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", COLLECTOR_SEEN, str(report), "standings", "results.sqlite"],
        capture_output=True,
        text=True,
        cwd=site,
        env={**os.environ, "PYTHONPATH": path},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(report.read_text())
    assert seen["click"] is False and seen["arena_kernel.cli.commands"] is False
    assert seen["arena_kernel.store.runs"] is True, "the command's own imports"
    assert seen["after"] is True and seen["frozen"] is True
