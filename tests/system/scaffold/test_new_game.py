"""``arena new-game NAME``: the project it writes names the plugin one way everywhere, is
clean for ruff, imports only arena's plugin surface, and plays; bad names and existing
folders are one line of error, with nothing written."""

from __future__ import annotations

import ast
import errno
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from packaging.specifiers import SpecifierSet

import arena_kernel
from arena_kernel.cli.new_game import new_game
from arena_kernel.plugin import API_VERSION
from arena_kernel.scaffold import render
from arena_kernel.scaffold.render import MAX_NAME, PluginNames, kernel_requirement

LONGEST = "a_game_name_of_the_longest_sorts"
assert len(LONGEST) == MAX_NAME


def generate(parent: Path, *args: str):  # -> click.testing.Result
    return CliRunner().invoke(new_game, [*args, "-o", str(parent)])


def project_of(parent: Path, name: str) -> Path:
    result = generate(parent, name)
    assert result.exit_code == 0, (result.output, result.stderr)
    return parent / PluginNames(name).distribution


def one_error_line(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


def kernel_imports(path: Path) -> set[str]:
    """Every module of arena_kernel that ``path`` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.split(".")[0] == "arena_kernel"}


def test_the_project_names_the_plugin_one_way_everywhere(tmp_path: Path) -> None:
    result = generate(tmp_path, "number_duel")
    assert result.exit_code == 0, result.output
    project = tmp_path / "arena-number-duel"
    assert f"wrote {project}" in result.output
    package = project / "arena_number_duel"
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == [
        ".gitignore",
        "README.md",
        "arena_number_duel",
        "arena_number_duel/__init__.py",
        "arena_number_duel/bot.py",
        "arena_number_duel/bots",
        "arena_number_duel/bots/__init__.py",
        "arena_number_duel/bots/halving.py",
        "arena_number_duel/bots/lucky.py",
        "arena_number_duel/game.py",
        "arena_number_duel/players.py",
        "arena_number_duel/plugin.py",
        "arena_number_duel/render.js",
        "arena_number_duel/render.py",
        "arena_number_duel/rules.py",
        "arena_number_duel/wire.py",
        "examples",
        "examples/match.toml",
        "pyproject.toml",
        "tests",
        "tests/system",
        "tests/system/test_bots.py",
        "tests/system/test_check_bot.py",
        "tests/system/test_game.py",
        "tests/system/test_render.py",
        "tests/unit",
        "tests/unit/test_players.py",
        "tests/unit/test_rules.py",
        "tests/unit/test_wire.py",
        "tox.ini",
    ]
    meta = tomllib.loads((project / "pyproject.toml").read_text())
    assert meta["project"]["name"] == "arena-number-duel"
    assert meta["project"]["entry-points"] == {"arena": {"number_duel": "arena_number_duel.plugin"}}
    assert meta["project"]["dependencies"] == [kernel_requirement()]
    assert meta["tool"]["setuptools"]["packages"]["find"]["include"] == ["arena_number_duel*"]
    match = tomllib.loads((project / "examples" / "match.toml").read_text())
    assert match["game"] == "number_duel"
    game = (package / "game.py").read_text()
    assert 'class NumberDuelGame(Game[None]):\n    name = "number_duel"' in game
    for bot in match["bots"]:
        assert f'"arena_number_duel.bots.{bot["builtin"]}"' in game
        assert (package / "bots" / f"{bot['builtin']}.py").is_file()
    plugin = (package / "plugin.py").read_text()
    assert "register(NumberDuelGame)" in plugin and "register(HuntRenderer)" in plugin
    assert 'drawers["number_duel"]' in (package / "render.js").read_text()
    readme = (project / "README.md").read_text()
    assert readme.startswith("# arena-number-duel: Number Duel\n")
    assert 'game = "number_duel"' in readme


def test_the_kernel_requirement_accepts_this_kernel_up_to_its_next_major_release() -> None:
    assert kernel_requirement("0.2.0") == "arena-kernel>=0.2,<1"
    assert kernel_requirement("1.4.2") == "arena-kernel>=1.4,<2"
    accepted = SpecifierSet(kernel_requirement().removeprefix("arena-kernel"))
    assert arena_kernel.__version__ in accepted


def test_the_project_imports_only_the_plugin_surface_and_its_tests_the_testkit(
    tmp_path: Path,
) -> None:
    project = project_of(tmp_path, "guess")
    imports = {p.relative_to(project).as_posix(): kernel_imports(p) for p in project.rglob("*.py")}
    tests = {path: imports.pop(path) for path in list(imports) if path.startswith("tests/")}
    assert imports.pop("arena_guess/game.py") == {"arena_kernel.plugin"}
    assert all(found <= {"arena_kernel.plugin"} for found in imports.values()), imports
    assert tests.pop("tests/system/test_game.py") == {"arena_kernel.testkit"}
    allowed = {"arena_kernel.plugin", "arena_kernel.testkit"}
    assert all(found <= allowed for found in tests.values()), tests


@pytest.mark.parametrize("name", ["go", "number_duel", LONGEST])
def test_the_project_is_clean_for_ruff(tmp_path: Path, name: str) -> None:
    """With the project's own ruff settings, whatever the length of the name."""
    project = project_of(tmp_path, name)
    for command in (["check", "."], ["format", "--check", "--diff", "."]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--no-cache"],
            cwd=project,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", ["guess", "hunt", "none"])
def test_the_project_plays_its_example_match_without_being_installed(
    tmp_path: Path, no_leftover_processes, name: str
) -> None:
    """Loaded with ``-p`` from the source folder: the quick round trip of an author. Also
    for names the template's own code uses (``Hunt``) or Python reserves (``None``)."""
    project = project_of(tmp_path, name)
    env = {**os.environ, "PYTHONPATH": str(project)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena_kernel",
            "run",
            "-q",
            "-p",
            f"arena_{name}.plugin",
            "examples/match.toml",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "6 games played now" in done.stdout and "halving" in done.stdout
    assert "faults: none" in done.stdout, "its built-in bots found their package and played"
    assert (project / "examples" / f"{name}.sqlite").is_file()
    no_leftover_processes()


def test_the_plugin_refuses_a_kernel_of_another_api_major_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project made for the next major API, loaded by this kernel: one line, no game."""
    major, minor = API_VERSION
    monkeypatch.setattr(render, "API_VERSION", (major + 1, 0))
    project = project_of(tmp_path, "guess")
    done = subprocess.run(
        [sys.executable, "-m", "arena_kernel", "plugins", "-p", "arena_guess.plugin"],
        env={**os.environ, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    expected = (
        f"arena-guess was written for arena's plugin API {major + 1}.x; "
        f"this arena-kernel has {major}.{minor}"
    )
    assert expected in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "name",
    ["Guess", "2guess", "guess-duel", "gu ess", "_guess", "guess_", "guess!", "é", LONGEST + "x"],
)
def test_a_name_that_is_not_a_short_lower_case_identifier_is_refused(
    tmp_path: Path, name: str
) -> None:
    one_error_line(generate(tmp_path, name), f'cannot use "{name}" as a game name', "lower-case")
    assert list(tmp_path.iterdir()) == []


def test_the_kernels_own_package_name_is_refused(tmp_path: Path) -> None:
    one_error_line(generate(tmp_path, "kernel"), '"kernel"', "the kernel's own (arena_kernel)")
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_overwritten(tmp_path: Path) -> None:
    mine = tmp_path / "arena-guess"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    one_error_line(generate(tmp_path, "guess"), str(mine), "already exists; not overwriting it")
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert (mine / "notes.txt").read_text() == "mine"


def test_a_missing_output_folder_is_an_error(tmp_path: Path) -> None:
    one_error_line(generate(tmp_path / "nowhere", "guess"), "there is no folder")
    assert list(tmp_path.iterdir()) == []


def test_a_write_that_fails_half_way_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk after three files: the half-written project is removed."""
    written: list[Path] = []
    write_text = Path.write_text

    def fill_up(path: Path, *args, **kwargs) -> int:
        if len(written) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(path)
        return write_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fill_up)
    with pytest.raises(arena_kernel.errors.ArenaError, match="No space left on device"):
        render.render_plugin(PluginNames("guess"), tmp_path)
    assert len(written) == 3 and list(tmp_path.iterdir()) == []


def test_a_kernel_installed_without_its_template_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a wheel built without the package data would do: one line, nothing written."""
    monkeypatch.setattr(render, "TEMPLATE", "not-shipped")
    one_error_line(generate(tmp_path, "guess"), "plugin template is missing", "reinstall")
    assert list(tmp_path.iterdir()) == []
