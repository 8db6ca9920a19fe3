"""Plugins use the kernel's public surfaces: a shipped plugin's code imports nothing of
the kernel but :mod:`arena_kernel.plugin` (and, for an executor,
:mod:`arena_kernel.executor_plugin`), and its tests and benchmarks add only
:mod:`arena_kernel.testkit`. Python blocks of the plugins' READMEs are held to the same
rule, since bot and plugin authors copy them. Each surface lists its names once: its
``__all__``, what it serves and what type checkers see are the same names."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from imports import PACKAGE, REPO, imported

import arena_kernel.executor_plugin
import arena_kernel.plugin
import arena_kernel.testkit

PLUGINS = REPO / "plugins"
SURFACES = {f"{PACKAGE}.plugin", f"{PACKAGE}.executor_plugin"}
TEST_SURFACE = f"{PACKAGE}.testkit"
LAZY_SURFACES = [arena_kernel.plugin, arena_kernel.executor_plugin]
SUPPORT_FOLDERS = {"tests", "benchmarks"}
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def allowed(path: Path) -> set[str]:
    parts = set(path.relative_to(PLUGINS).parts[1:-1])
    return {*SURFACES, TEST_SURFACE} if parts & SUPPORT_FOLDERS else SURFACES


def sources() -> list[tuple[Path, str, int]]:
    """``(file, code, first line)`` of every plugin module and README python block."""
    found = [(p, p.read_text(), 1) for p in sorted(PLUGINS.glob("*/**/*.py"))]
    for readme in sorted(PLUGINS.glob("*/README.md")):
        text = readme.read_text()
        for block in PYTHON_BLOCK.finditer(text):
            found.append((readme, block[1], text.count("\n", 0, block.start(1)) + 1))
    return found


def kernel_imports(code: str) -> list[tuple[str, int]]:
    """``(module, line)`` of each import of the kernel; ``from M import name`` as ``M``."""
    modules = {}
    for name, line in imported(ast.parse(code)):
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            modules.setdefault(line, []).append(name)
    # ``imported`` reports ``M`` and ``M.name`` for ``from M import name``: keep ``M``.
    return [(min(names, key=len), line) for line, names in sorted(modules.items())]


def violations(path: Path, code: str, first_line: int) -> list[str]:
    ok = allowed(path)
    return [
        f"{path.relative_to(REPO)}:{first_line + line - 1}: imports {module}"
        for module, line in kernel_imports(code)
        if module not in ok
    ]


def test_shipped_plugins_import_only_the_plugin_surface() -> None:
    found = sources()
    assert len({p.parts[len(PLUGINS.parts)] for p, _c, _l in found}) >= 5, "no plugins found"
    bad = [v for path, code, line in found for v in violations(path, code, line)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("where", "code", "bad"),
    [
        ("plugins/g/arena_g/game.py", "from arena_kernel.plugin import Game", False),
        ("plugins/g/arena_g/ex.py", "from arena_kernel.executor_plugin import deliver", False),
        ("plugins/g/arena_g/game.py", "from arena_kernel.referee.table import Table", True),
        ("plugins/g/arena_g/game.py", "import arena_kernel.model", True),
        ("plugins/g/arena_g/game.py", "def f():\n    from arena_kernel.model import Fault", True),
        ("plugins/g/arena_g/game.py", "from arena_kernel.testkit import run_match", True),
        ("plugins/g/tests/test_g.py", "from arena_kernel.testkit import run_match", False),
        ("plugins/g/tests/test_g.py", "from arena_kernel.runner.api import run_match", True),
        ("plugins/g/arena_g/game.py", "if TYPE_CHECKING:\n    from arena_kernel.x import T", True),
    ],
)
def test_the_check_tells_the_surface_from_the_internals(where: str, code: str, bad: bool) -> None:
    assert bool(violations(REPO / where, code, 1)) is bad


@pytest.mark.parametrize("surface", [*LAZY_SURFACES, arena_kernel.testkit])
def test_every_name_of_a_surface_is_there(surface) -> None:
    """``__all__`` is the promise: each name resolves (the lazy ones too)."""
    for name in surface.__all__:
        assert getattr(surface, name) is not None, name


def type_checked_names(surface) -> dict[str, str]:
    """name -> module of the ``from M import name as name`` under the surface's
    ``if TYPE_CHECKING:``."""
    tree = ast.parse(Path(surface.__file__).read_text())
    [block] = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    found = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom), ast.unparse(node)
        for alias in node.names:
            assert alias.asname == alias.name, f"{alias.name} must be imported as itself"
            found[alias.name] = node.module
    return found


@pytest.mark.parametrize("surface", LAZY_SURFACES, ids=lambda surface: surface.__name__)
def test_a_surface_lists_its_names_once(surface) -> None:
    """The table of names served on first use is the surface: ``__all__`` is derived from
    it, and type checkers see the same names from the same modules."""
    table = surface._EXPORTS
    assert [n for n in surface.__all__ if n != "API_VERSION"] == list(table)
    assert type_checked_names(surface) == table
    for name, module in table.items():
        assert getattr(surface, name) is getattr(importlib.import_module(module), name), name
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        surface.Nothing  # noqa: B018


def test_a_bot_program_importing_the_surface_pays_for_no_referee() -> None:
    """Every built-in bot program imports the surface: it must not drag in asyncio, the
    referee, the runner or the store (each bot start would pay for them)."""
    code = "import sys, arena_kernel.plugin; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    internals = ("referee.table", "runner", "store")
    heavy = ("asyncio", "sqlite3", *(f"{PACKAGE}.{p}" for p in internals))
    assert not [m for m in loaded if m.startswith(heavy)]
