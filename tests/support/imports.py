"""Reading a source tree's imports without running it: what the architecture tests check."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from paths import REPO

PACKAGE = "arena_kernel"
KERNEL = REPO / "kernel" / PACKAGE


def module_name(path: Path, root: Path = KERNEL) -> str:
    """``kernel/arena_kernel/x/y.py`` -> ``arena_kernel.x.y`` (``root``: the top package's
    folder)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(root: Path = KERNEL) -> dict[str, Path]:
    """Every module of the package in folder ``root``, by name."""
    return {
        module_name(path, root): path
        for path in sorted(root.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def imported(tree: ast.Module, package: str = "") -> Iterator[tuple[str, int]]:
    """``(module, line)`` of every import of ``tree``, wherever it is: at the top, inside a
    function, under ``if TYPE_CHECKING:``. ``from M import name`` gives ``M`` and
    ``M.name`` (``name`` may be a module). A relative import is read from ``package``, the
    package the code is in."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, package)
            yield module, node.lineno
            for alias in node.names:
                yield f"{module}.{alias.name}", node.lineno


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if node.level == 0:
        return node.module or ""
    parts = package.split(".")
    base = parts[: len(parts) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)
