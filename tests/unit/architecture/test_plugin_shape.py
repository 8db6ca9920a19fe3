"""Every game plugin has the one shape docs/architecture.md describes: the same module names
in its package, every built-in bot started the same way, and the same test file names. So
reading one plugin teaches all of them, and a reader finds a change's room by its name."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from paths import REPO

MODULES = ("plugin", "rules", "wire", "game", "players", "bot", "render")
"""The modules of every game plugin's package (``simulate`` may join them)."""

TESTS = (
    "unit/test_rules.py",
    "unit/test_wire.py",
    "unit/test_players.py",
    "system/test_game.py",
    "system/test_bots.py",
    "system/test_check_bot.py",
    "system/test_render.py",
)
"""The test files of every game plugin, under its ``tests/``."""

PLUGINS = sorted(path.parent for path in (REPO / "plugins").glob("*/pyproject.toml"))


def package_of(plugin: Path) -> Path:
    """The plugin's import package: the folder its ``arena`` entry point names."""
    project = tomllib.loads((plugin / "pyproject.toml").read_text())["project"]
    (target,) = project["entry-points"]["arena"].values()
    return plugin / target.split(".")[0]


def ids(paths: list[Path]) -> list[str]:
    return [path.name for path in paths]


def test_every_game_plugin_is_checked() -> None:
    assert len(PLUGINS) >= 5, PLUGINS


@pytest.mark.parametrize("plugin", PLUGINS, ids=ids(PLUGINS))
def test_the_package_is_named_arena_and_the_folder(plugin: Path) -> None:
    assert package_of(plugin).name == f"arena_{plugin.name}"
    assert (package_of(plugin) / "__init__.py").is_file()


@pytest.mark.parametrize("plugin", PLUGINS, ids=ids(PLUGINS))
def test_the_package_has_the_shared_modules(plugin: Path) -> None:
    package = package_of(plugin)
    missing = [name for name in MODULES if not (package / f"{name}.py").is_file()]
    assert not missing, f"{package.relative_to(REPO)} lacks {missing}"


@pytest.mark.parametrize("plugin", PLUGINS, ids=ids(PLUGINS))
def test_the_only_subpackage_is_bots(plugin: Path) -> None:
    package = package_of(plugin)
    folders = sorted(p.parent.name for p in package.glob("*/__init__.py"))
    assert folders == ["bots"], f"{package.relative_to(REPO)} has subpackages {folders}"


@pytest.mark.parametrize("plugin", PLUGINS, ids=ids(PLUGINS))
def test_every_builtin_bot_starts_through_the_plugins_bot_module(plugin: Path) -> None:
    """A bot module has ``make()`` (the bot in process) and runs ``run(...)`` of the
    plugin's ``bot`` module when started as a program."""
    package = package_of(plugin)
    wrong = []
    for path in sorted((package / "bots").glob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        from_bot = {
            alias.name
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module == f"{package.name}.bot"
            for alias in node.names
        }
        main_calls = [
            node.value.func.id
            for block in tree.body
            if isinstance(block, ast.If) and "__main__" in ast.unparse(block.test)
            for node in block.body
            if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
        ]
        if "make" not in functions or main_calls != ["run"] or "run" not in from_bot:
            wrong.append(path.name)
    assert not wrong, f"{package.relative_to(REPO)}/bots: {wrong} do not start the shared way"


@pytest.mark.parametrize("plugin", PLUGINS, ids=ids(PLUGINS))
def test_the_tests_have_the_shared_file_names(plugin: Path) -> None:
    missing = [name for name in TESTS if not (plugin / "tests" / name).is_file()]
    assert not missing, f"{plugin.relative_to(REPO)}/tests lacks {missing}"


def test_the_plugin_template_has_the_same_shape() -> None:
    template = REPO / "kernel" / "arena_kernel" / "scaffold" / "plugin-template"
    modules = {path.name.removesuffix(".py.tmpl") for path in template.glob("__package__/*.tmpl")}
    assert set(MODULES) <= modules, sorted(set(MODULES) - modules)
    tests = {
        str(path.relative_to(template / "tests")).removesuffix(".tmpl")
        for path in template.glob("tests/*/*.tmpl")
    }
    assert set(TESTS) <= tests, sorted(set(TESTS) - tests)
