"""The fixtures arena ships for plugin authors work as documented."""

from __future__ import annotations

import types

import pytest

from arena_kernel.markers import hookimpl
from arena_kernel.runner.api import run_match
from arena_kernel.testing.nim import Nim

pytest_plugins = ["pytester"]

USES_SANDBOX = """
def test_sandboxed(sandbox):
    assert sandbox.works and sandbox.bwrap
"""


def test_arena_match_writes_a_runnable_match_file(arena_match, scripted_bot) -> None:
    path = arena_match(
        "nim",
        {"script": scripted_bot([{"reply": "take 1"}]), "optimal": "optimal"},
        'plugins = ["arena_kernel.testing.games"]\n[game_options]\npile = 4',
    )
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    assert (path.parent / "arena.sqlite").is_file() and (path.parent / "logs").is_dir()


def test_arena_register_adds_a_plugin_for_one_test(arena_register, arena_plugin_manager) -> None:
    class Tiny(Nim):
        name = "tiny"

    module = types.ModuleType("tiny_plugin")
    module.arena_register_games = hookimpl(lambda register: register(Tiny))
    registries = arena_register(module)
    assert registries.games.cls("tiny") is Tiny
    assert arena_plugin_manager.is_registered(module)


@pytest.fixture
def without_bwrap(pytester, monkeypatch) -> None:
    """The inner pytest finds no bwrap: its PATH is a folder with none (the probe is cached
    per process, so these tests run it in a subprocess)."""
    monkeypatch.setenv("PATH", str(pytester.path))
    monkeypatch.delenv("CI", raising=False)


def test_sandbox_skips_with_the_probes_reason_where_bwrap_is_missing(
    pytester, without_bwrap
) -> None:
    pytester.makepyfile(USES_SANDBOX)
    result = pytester.runpytest_subprocess("-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["*bots cannot be sandboxed here: bubblewrap (bwrap) is not installed*"]
    )


def test_sandbox_fails_under_ci_where_bwrap_is_missing(
    pytester, without_bwrap, monkeypatch
) -> None:
    monkeypatch.setenv("CI", "true")
    pytester.makepyfile(USES_SANDBOX)
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*bubblewrap (bwrap) is not installed (CI=true: required here)*"])


def test_sandbox_gives_the_probe_where_bots_can_be_sandboxed(
    pytester, sandbox, monkeypatch
) -> None:
    monkeypatch.setenv("CI", "true")
    pytester.makepyfile(USES_SANDBOX)
    pytester.runpytest_subprocess().assert_outcomes(passed=1)


def test_a_test_is_marked_by_the_kind_its_folder_names(pytester) -> None:
    for kind in ("unit", "system", "integration"):
        pytester.makepyfile(**{f"tests/{kind}/area/test_{kind}.py": "def test_it(): pass"})
    pytester.makepyfile(**{"tests/test_elsewhere.py": "def test_it(): pass"})
    quick = pytester.runpytest_subprocess("-m", "not system", "-p", "no:cacheprovider")
    quick.assert_outcomes(passed=3, deselected=1)
    only = pytester.runpytest_subprocess("-m", "integration", "-v", "-p", "no:cacheprovider")
    only.assert_outcomes(passed=1, deselected=3)
    only.stdout.fnmatch_lines(["*tests/integration/area/test_integration.py*"])
    listed = pytester.runpytest_subprocess("--markers")
    listed.stdout.fnmatch_lines(["@pytest.mark.system: starts real processes*"])
