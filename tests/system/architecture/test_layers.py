"""The kernel's packages import each other in one direction only: no package of the kernel
reaches, at import time, a package that reaches back (the cycle games -> referee -> runner
-> games is what this catches), and each module imports on its own in a fresh interpreter."""

from __future__ import annotations

import ast
import itertools
import subprocess
import sys

import pytest
from imports import PACKAGE, REPO, imported, kernel_modules

MODULES = kernel_modules()


def package_of(module: str) -> str:
    """``arena_kernel.referee.table`` -> ``arena_kernel.referee``; top-level modules are
    their own package."""
    return ".".join(module.split(".")[:2])


def package_graph() -> dict[str, dict[str, str]]:
    """package -> {package it imports at import time: one ``file:line`` that does so}."""
    graph: dict[str, dict[str, str]] = {}
    for module, path in MODULES.items():
        for target, line in imported(ast.parse(path.read_text()), at_import_time=True):
            if target in MODULES and package_of(target) != package_of(module):
                where = f"{path.relative_to(REPO)}:{line}"
                graph.setdefault(package_of(module), {}).setdefault(package_of(target), where)
    return graph


def find_cycle(graph: dict[str, dict[str, str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for succ in graph.get(node, {}):
            if state.get(succ) == 1:
                return [*stack[stack.index(succ) :], succ]
            if succ not in state and (cycle := visit(succ)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_kernel_packages_import_each_other_in_one_direction() -> None:
    graph = package_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(
        f"{a} ({graph[a][b]})" for a, b in itertools.pairwise(cycle)
    )


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b": "a.py:1"}, "b": {"c": "b.py:1"}, "c": {"a": "c.py:1"}, "d": {"a": ""}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": ""}, "b": {}}) is None


def test_the_vocabulary_module_imports_nothing_of_the_kernel() -> None:
    """Outcome, Fault and the record types are what every layer speaks: they sit below all."""
    code = (
        "import sys, arena_kernel.model; "
        f"print(sorted(m for m in sys.modules if m.startswith('{PACKAGE}.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['arena_kernel.model']"


@pytest.mark.parametrize(
    "package", sorted({package_of(m) for m in MODULES if not m.endswith("__main__")})
)
def test_each_package_imports_alone_in_a_fresh_interpreter(package: str) -> None:
    """Importing a package's modules first, in each order a user might, raises nothing:
    an import cycle that Python cannot resolve shows up as an ImportError here."""
    modules = [m for m in MODULES if package_of(m) == package and not m.endswith("__main__")]
    code = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)"
    for first in modules:
        done = subprocess.run(
            [sys.executable, "-c", code, first, *modules], capture_output=True, text=True
        )
        assert done.returncode == 0, f"import {first} first: {done.stderr.strip()[-800:]}"
