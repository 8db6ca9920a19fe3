"""The compiled engine is optional: where no C compiler works the plugin still builds (its
wheel has no extension), and the ``search`` bot then plays the Python search, saying so
on its stderr, as a program and in process."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena_kernel.testkit import built_without_compiler
from arena_stones import players
from arena_stones.bot import StonesBot
from arena_stones.rules import Position
from arena_stones.simulate import duel
from arena_stones.wire import Encoder, parse_move

PLUGIN_ROOT = Path(__file__).resolve().parents[2]
ONLY_INSTALLED = """
import runpy, sys
# This checkout's editable install would find the extension built here: leave it out.
sys.meta_path = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]
sys.path.insert(0, {folder!r})
sys.argv = ["search", "--time", "0.3"]
runpy.run_module("arena_stones.bots.search", run_name="__main__", alter_sys=True)
"""
"""Run the search bot from the installed folder alone."""


@pytest.fixture(scope="module")
def without_compiler(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the plugin built into a wheel with a C compiler that always fails, and
    the wheel unpacked: the package as an install without a compiler leaves it."""
    source = tmp_path_factory.mktemp("plugin") / "stones"
    shutil.copytree(
        PLUGIN_ROOT,
        source,
        ignore=shutil.ignore_patterns("*.so", "build", "*.egg-info", "__pycache__", "tests"),
    )
    return built_without_compiler(source, tmp_path_factory.mktemp("installed"))


def test_without_a_compiler_the_plugin_still_builds_without_the_engine(without_compiler):
    package = without_compiler / "arena_stones"
    assert (package / "players.py").is_file() and (package / "bots" / "search.py").is_file()
    assert not list(package.glob("_engine*.so")), "no compiler, so no extension"


def test_the_search_program_falls_back_to_the_python_search_and_says_so(without_compiler):
    wire = Encoder()
    position = Position.initial()
    messages = [wire.color(1), wire.request(position.matrix(), position.allowed())]
    proc = subprocess.run(
        [sys.executable, "-c", ONLY_INSTALLED.format(folder=str(without_compiler))],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "compiled engine is not built" in proc.stderr
    assert "playing the Python search" in proc.stderr
    (line,) = proc.stdout.splitlines()
    assert position.judge(*parse_move(json.loads(line))) is None


def test_in_process_the_bot_falls_back_too_and_says_so_once(monkeypatch, capsys):
    monkeypatch.setattr(players, "COMPILED", None)
    monkeypatch.setattr(players, "MISSING", "No module named 'arena_stones._engine'")
    players._say_fallback.cache_clear()
    white, black = players.SearchPlayer(0.1), players.SearchPlayer(0.1)
    assert white.compiled is None and white.fallback is not None
    end = duel(StonesBot(white), StonesBot(black))
    assert end.winner()
    err = capsys.readouterr().err
    assert err.count("compiled engine is not built") == 1, err
    players._say_fallback.cache_clear()
