"""Reading a source tree's imports without running it: what the architecture tests check."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from paths import REPO

PACKAGE = "arena_kernel"
KERNEL = REPO / "kernel" / PACKAGE


def module_name(path: Path) -> str:
    """``kernel/arena_kernel/x/y.py`` -> ``arena_kernel.x.y``."""
    parts = list(path.relative_to(KERNEL.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def kernel_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for path in sorted(KERNEL.rglob("*.py"))
        if "__pycache__" not in path.parts
    }


def imported(tree: ast.Module, *, at_import_time: bool) -> Iterator[tuple[str, int]]:
    """``(module, line)`` of every absolute import. ``at_import_time``: only those that run
    when the module is imported (not under ``if TYPE_CHECKING:``, not inside functions)."""
    nodes = _import_time(tree.body) if at_import_time else ast.walk(tree)
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno
            for alias in node.names:
                yield f"{node.module}.{alias.name}", node.lineno


def _import_time(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for node in body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _import_time(node.orelse)
        elif isinstance(node, ast.If):
            yield from _import_time(node.body)
            yield from _import_time(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _import_time(block)
        else:
            yield node
