"""The kernel's layers (docs/architecture.md, "The layers"): a package imports from its own
layer or the layers below it, and no two packages import each other, through any chain of
imports. Every import counts: at the top of a module, inside a function, under
``if TYPE_CHECKING:``. And each module imports on its own in a fresh interpreter."""

from __future__ import annotations

import ast
import itertools
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from imports import KERNEL, PACKAGE, REPO, imported, package_modules

Layers = tuple[tuple[str, tuple[str, ...]], ...]

LAYERS: Layers = (
    (
        "vocabulary",
        (
            "__init__.py",
            "errors.py",
            "markers.py",
            "model/",
            "options.py",
            "resource_limits.py",
            "bot_clocks.py",
            "lazy_names.py",
            "hookspecs.py",
        ),
    ),
    ("wire and process", ("codecs/", "sandbox/", "processes/", "transports/", "bots/")),
    ("referee", ("referee/", "games/")),
    ("assembly", ("registries/", "scoring/", "store/")),
    ("running", ("match/", "executors/", "runner/")),
    (
        "surfaces",
        (
            "cli/",
            "report/",
            "plugin.py",
            "executor_plugin.py",
            "testkit.py",
            "testing/",
            "scaffold/",
            "__main__.py",
        ),
    ),
)
"""The kernel's layers from the bottom up, each with its parts: a folder (``codecs/``) or a
module at the top of the package (``errors.py``). docs/architecture.md's table says the
same, in the same order."""

DOC = REPO / "docs" / "architecture.md"


class Import(NamedTuple):
    """One import from a part of the package to another: where it is (``file:line``)."""

    where: str
    source: str
    target: str


def part_of(module: str, root: Path) -> str:
    """``pkg.referee.table`` -> ``referee/``; ``pkg.errors`` -> ``errors.py``; ``pkg`` ->
    ``__init__.py`` (``root``: the folder of ``pkg``)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__.py"
    return f"{parts[1]}/" if (root / parts[1]).is_dir() else f"{parts[1]}.py"


def imports_between_parts(root: Path) -> list[Import]:
    """Every import of a module of the package in folder ``root`` from another part of it."""
    modules = package_modules(root)
    found: dict[Import, None] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        source = part_of(module, root)
        for target, line in imported(ast.parse(path.read_text()), package):
            if target in modules and (part := part_of(target, root)) != source:
                where = f"{path.relative_to(root.parent.parent)}:{line}"
                found[Import(where, source, part)] = None
    return list(found)


def layer_problems(root: Path, layers: Layers) -> list[str]:
    """Each import of the package in ``root`` that reaches up a layer, and each part of it
    that ``layers`` does not name, as one line."""
    rank = {part: n for n, (_layer, parts) in enumerate(layers) for part in parts}
    name = {part: layer for layer, parts in layers for part in parts}
    found = imports_between_parts(root)
    unlisted = sorted({part_of(module, root) for module in package_modules(root)} - rank.keys())
    problems = [f"{part} is in no layer" for part in unlisted]
    problems += [
        f"{i.where}: {i.source} ({name[i.source]}) imports {i.target} ({name[i.target]})"
        for i in found
        if i.source in rank and i.target in rank and rank[i.target] > rank[i.source]
    ]
    return problems


def part_graph(root: Path) -> dict[str, dict[str, str]]:
    """part -> {part it imports: the first ``file:line`` that does so}."""
    graph: dict[str, dict[str, str]] = {}
    for i in imports_between_parts(root):
        graph.setdefault(i.source, {}).setdefault(i.target, i.where)
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


def cycle_problem(root: Path) -> str | None:
    graph = part_graph(root)
    cycle = find_cycle(graph)
    if cycle is None:
        return None
    return "import cycle: " + " -> ".join(
        f"{a} ({graph[a][b]})" for a, b in itertools.pairwise(cycle)
    )


def documented_layers(text: str) -> Layers:
    """The table of docs/architecture.md's "The layers": each layer with its parts."""
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:3] for line in section.splitlines() if line.startswith("| ")]
    return tuple(
        (layer.strip(), tuple(re.findall(r"`([^`]+)`", parts))) for layer, parts in rows[1:]
    )


def test_each_part_of_the_kernel_imports_from_its_own_layer_or_below() -> None:
    problems = layer_problems(KERNEL, LAYERS)
    assert not problems, "\n".join(problems)


def test_no_two_parts_of_the_kernel_import_each_other() -> None:
    problem = cycle_problem(KERNEL)
    assert problem is None, problem


def test_docs_architecture_shows_the_layers_the_test_checks() -> None:
    assert documented_layers(DOC.read_text()) == LAYERS


SYNTHETIC = {
    "__init__.py": "",
    "low/__init__.py": "",
    "low/base.py": (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pkg.high.top import Top\n"
        "def lazy():\n"
        "    from pkg.high import top\n"
        "    from . import base\n"
    ),
    "high/__init__.py": "",
    "high/top.py": "from ..low.base import lazy\nclass Top: ...\n",
    "stray.py": "import pkg.low\n",
}


def synthetic(tmp_path: Path) -> Path:
    root = tmp_path / "src" / "pkg"
    for name, code in SYNTHETIC.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(code)
    return root


def test_the_check_finds_imports_inside_functions_and_for_type_checking(tmp_path: Path) -> None:
    root = synthetic(tmp_path)
    layers: Layers = (("bottom", ("__init__.py", "low/")), ("top", ("high/",)))
    assert layer_problems(root, layers) == [
        "stray.py is in no layer",
        "src/pkg/low/base.py:3: low/ (bottom) imports high/ (top)",
        "src/pkg/low/base.py:5: low/ (bottom) imports high/ (top)",
    ]
    assert cycle_problem(root) == (
        "import cycle: high/ (src/pkg/high/top.py:1) -> low/ (src/pkg/low/base.py:3)"
    )


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b": "a.py:1"}, "b": {"c": "b.py:1"}, "c": {"a": "c.py:1"}, "d": {"a": ""}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": ""}, "b": {}}) is None


@pytest.mark.parametrize(
    "module",
    [
        "model",
        "model.fault_kinds",
        "model.faults",
        "model.games",
        "model.runs",
        "model.tables",
        "model.values",
    ],
)
def test_the_vocabulary_imports_nothing_of_the_kernel(module: str) -> None:
    """Outcome, Fault and the record types are what every layer speaks: they sit below all.
    A module of them loads no other but the base of its records, :mod:`~.model.values`
    (the package serves each name from its module when asked), and the package only the
    loader of served names."""
    code = (
        f"import sys, {PACKAGE}.{module}; "
        f"print(' '.join(sorted(m for m in sys.modules if m.startswith('{PACKAGE}.'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    expected = {f"{PACKAGE}.lazy_names", f"{PACKAGE}.model", f"{PACKAGE}.{module}"}
    records = f"{PACKAGE}.model.values"
    assert set(done.stdout.split()) - {records} == expected - {records}


MODULES = package_modules()


def package_of(module: str) -> str:
    """``arena_kernel.referee.table`` -> ``arena_kernel.referee``; top-level modules are
    their own package."""
    return ".".join(module.split(".")[:2])


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
