"""A plugin author's type checker sees the plugin surface typed.

mypy runs on a small plugin module, as it would in a plugin's own CI: every name of
:mod:`arena_kernel.plugin`, :mod:`arena_kernel.executor_plugin` and
:mod:`arena_kernel.testkit` must have a type (a name served only by the facade's lazy
module ``__getattr__`` would be ``Any``), and a hook implementation marked with
``@hookimpl`` keeps its signature (an untyped marker makes every hook implementation
untyped, which ``--strict`` reports). Skipped where mypy is not installed;
``tox -e mypy`` runs it.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import arena_kernel
import arena_kernel.executor_plugin
import arena_kernel.plugin
import arena_kernel.testkit

SURFACES = {
    "plugin": arena_kernel.plugin,
    "executor_plugin": arena_kernel.executor_plugin,
    "testkit": arena_kernel.testkit,
}

PLUGIN = """\
from arena_kernel import executor_plugin, plugin, testkit
from arena_kernel.plugin import Register, hookimpl


def unmarked(register: Register) -> None:
    pass


@hookimpl
def arena_register_games(register: Register) -> None:
    pass


@hookimpl(tryfirst=True)
def arena_register_codecs(register: Register) -> None:
    pass


reveal_type(unmarked)
reveal_type(arena_register_games)
reveal_type(arena_register_codecs)
"""
REVEALED = re.compile(r'^plugin_under_test\.py:(\d+): note: Revealed type is "(.*)"$')


def run_mypy(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    """mypy --strict on ``code`` as a module of its own. The kernel is found through a
    folder named ``arena_kernel`` (a link to wherever it is installed: mypy cannot follow
    an editable install's import hook); the kernel's own modules are read for their types
    but not reported on (that is ``tox -e mypy``'s job)."""
    search = tmp_path / "search"
    search.mkdir()
    (search / "arena_kernel").symlink_to(Path(arena_kernel.__file__).parent)
    config = tmp_path / "mypy.ini"
    config.write_text(
        f"[mypy]\nstrict = true\nmypy_path = {search}\n"
        "[mypy-arena_kernel.*]\nfollow_imports = silent\n"
    )
    (tmp_path / "plugin_under_test.py").write_text(code)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp_path / "cache"),
            "plugin_under_test.py",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )


def revealed_types(output: str, code: str) -> dict[str, str]:
    """What each ``reveal_type(X)`` line of ``code`` showed, by ``X``."""
    lines = code.splitlines()
    found = {}
    for line in output.splitlines():
        match = REVEALED.match(line)
        if match:
            call = lines[int(match[1]) - 1].strip()
            found[call.removeprefix("reveal_type(").removesuffix(")")] = match[2]
    return found


@pytest.mark.skipif(
    importlib.util.find_spec("mypy") is None,
    reason="mypy is not installed here (pip install mypy; tox -e mypy has it)",
)
def test_every_name_of_the_surface_is_typed_and_hookimpl_keeps_signatures(
    tmp_path: Path,
) -> None:
    names = [f"{alias}.{name}" for alias, mod in SURFACES.items() for name in mod.__all__]
    code = PLUGIN + "".join(f"reveal_type({name})\n" for name in names)
    result = run_mypy(tmp_path, code)
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert not errors, result.stdout + result.stderr
    assert result.returncode == 0, result.stdout + result.stderr

    revealed = revealed_types(result.stdout, code)
    marked = ["arena_register_games", "arena_register_codecs"]
    assert set(revealed) == {*names, *marked, "unmarked"}
    untyped = sorted(name for name, revealed_type in revealed.items() if revealed_type == "Any")
    assert not untyped, {name: revealed[name] for name in untyped}
    assert revealed["unmarked"].startswith("def (register: "), revealed["unmarked"]
    for hook in marked:
        assert revealed[hook] == revealed["unmarked"], (hook, revealed[hook])
