"""The plugin manager factory: built-ins, entry points, duplicates, misspelled hooks."""

from __future__ import annotations

import sys
import textwrap
import types
from pathlib import Path

import pytest

from arena_kernel.codecs.line import LineCodec
from arena_kernel.errors import PluginError
from arena_kernel.markers import hookimpl
from arena_kernel.registries.manager import BUILTIN_SOURCE, get_plugin_manager, load_registries


def test_builtins_are_registered_through_the_hooks() -> None:
    registries = load_registries(get_plugin_manager(entry_points=False))
    assert {"stdio", "tcp", "inproc"} <= set(registries.transports)
    assert {"line", "jsonl", "sexpr", "raw"} <= set(registries.codecs)
    assert {"wins", "elo", "openskill"} <= set(registries.scorers)
    assert registries.codecs["line"].source == BUILTIN_SOURCE


def test_each_call_makes_a_fresh_manager() -> None:
    first = get_plugin_manager(entry_points=False)
    second = get_plugin_manager(entry_points=False)
    first.register(types.ModuleType("only_in_first"))
    assert first is not second
    assert len(first.get_plugins()) == len(second.get_plugins()) + 1


def _plugin_registering(name: str, cls_name: str) -> types.ModuleType:
    module = types.ModuleType(f"plugin_{cls_name}")
    codec = type(cls_name, (LineCodec,), {"name": name})

    @hookimpl
    def arena_register_codecs(register):
        register(codec)

    module.arena_register_codecs = arena_register_codecs
    return module


def test_duplicate_name_names_both_plugins() -> None:
    pm = get_plugin_manager(
        entry_points=False,
        extra=[
            _plugin_registering("twice", "FirstCodec"),
            _plugin_registering("twice", "SecondCodec"),
        ],
    )
    with pytest.raises(PluginError) as error:
        load_registries(pm)
    message = str(error.value)
    assert 'codec "twice" is registered twice' in message
    assert "FirstCodec" in message and "SecondCodec" in message


def test_duplicate_of_a_builtin_is_an_error() -> None:
    pm = get_plugin_manager(entry_points=False, extra=[_plugin_registering("line", "MyLine")])
    with pytest.raises(
        PluginError, match=r'codec "line" is registered twice: by arena \(built-in\)'
    ):
        load_registries(pm)


def test_misspelled_hook_fails_loudly() -> None:
    module = types.ModuleType("typo_plugin")

    @hookimpl
    def arena_register_gmaes(register):
        pass

    module.arena_register_gmaes = arena_register_gmaes
    with pytest.raises(PluginError, match="arena_register_gmaes"):
        get_plugin_manager(entry_points=False, extra=[module])


def test_unimportable_plugin_module_is_a_clear_error() -> None:
    with pytest.raises(PluginError, match=r'cannot import plugin module "no\.such\.module"'):
        get_plugin_manager(entry_points=False, extra=["no.such.module"])


@pytest.mark.parametrize(
    ("source", "error"),
    [("raise RuntimeError('no config')", "RuntimeError: no config"), ("def (:", "SyntaxError")],
)
def test_a_plugin_module_that_fails_on_import_is_a_clear_error(
    tmp_path, monkeypatch: pytest.MonkeyPatch, source: str, error: str
) -> None:
    (tmp_path / "failing_plugin.py").write_text(source + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as caught:
        get_plugin_manager(entry_points=False, extra=["failing_plugin"])
    message = str(caught.value)
    assert message.startswith('cannot import plugin module "failing_plugin": ' + error)
    assert "\n" not in message


def test_a_failing_registration_hook_names_its_plugin() -> None:
    module = types.ModuleType("broken_plugin")

    @hookimpl
    def arena_register_games(register):
        raise RuntimeError("boom")

    module.arena_register_games = arena_register_games
    with pytest.raises(PluginError, match=r"arena_register_games .* failed: RuntimeError: boom"):
        load_registries(get_plugin_manager(entry_points=False, extra=[module]))


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A real distribution on sys.path with an ``arena`` entry point (as pip would leave it)."""
    (tmp_path / "arena_fakegame_plugin.py").write_text(
        textwrap.dedent(
            """
            from arena_kernel.markers import hookimpl
            from arena_kernel.testing.nim import Nim

            class FakeGame(Nim):
                name = "fakegame"

            @hookimpl
            def arena_register_games(register):
                register(FakeGame)
            """
        )
    )
    dist = tmp_path / "arena_fakegame-1.2.3.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: arena-fakegame\nVersion: 1.2.3\n")
    (dist / "entry_points.txt").write_text("[arena]\nfakegame = arena_fakegame_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "arena_fakegame_plugin"
    sys.modules.pop("arena_fakegame_plugin", None)


def test_entry_points_are_loaded_with_their_distribution(installed_plugin: str) -> None:
    registries = load_registries(get_plugin_manager())
    entry = registries.games["fakegame"]
    assert entry.source == "arena-fakegame 1.2.3"
    assert entry.cls.__module__ == installed_plugin
