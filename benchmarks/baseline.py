"""The baseline of the store and schedule benchmarks: this kernel with the store, schedule
and runner files as they were at :data:`BEFORE`, run in a process of its own.

    from baseline import kernel_tree, run_worker

The baseline tree is a copy of this kernel in which only :data:`CHANGED` are taken from
``rev`` (a file missing there is removed), so that a comparison measures that change and
not whatever else differs between ``rev`` and the working tree. A worker process runs
against it when its ``PYTHONPATH`` leads there (:func:`python_env`): the plain path comes
before the editable install's finder, and the installed plugins import whichever
``arena_kernel`` that process has.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
KERNEL = REPO / "kernel" / "arena_kernel"

BEFORE = "b4636aa0ffe2c3ef0d5afb9e806f886619334cae"
"""The last commit before compact stored games and the lazy schedule: the default baseline."""

CHANGED = (
    "kernel/store/__init__.py",
    "kernel/store/sqlite.py",
    "kernel/store/schema.py",
    "kernel/store/logs.py",
    "kernel/store/outcomes.py",
    "kernel/match/schedule.py",
    "kernel/runner/run.py",
    "kernel/scoring/base.py",
    "kernel/scoring/wins.py",
    "kernel/scoring/elo.py",
    "kernel/scoring/faults.py",
    "kernel/report/stats.py",
    "kernel/cli/main.py",
    "kernel/cli/progress.py",
)
"""The files of the change, at their paths in BEFORE: compact stored games, results read
whole, scorers that count each distinct result once, a schedule made game by game."""


def kernel_tree(rev: str, folder: Path) -> Path:
    """A folder whose ``arena_kernel`` is this kernel with :data:`CHANGED` as at ``rev``;
    return the folder, for :func:`python_env`."""
    tree = folder / "arena_kernel"
    shutil.copytree(KERNEL, tree, ignore=shutil.ignore_patterns("__pycache__"))
    for path in CHANGED:
        target = tree / Path(path).relative_to("kernel")
        shown = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{rev}:{path}"], capture_output=True, check=False
        )
        if shown.returncode == 0:
            target.write_bytes(shown.stdout)
        else:
            target.unlink(missing_ok=True)
    return folder


def whole_kernel(rev: str, folder: Path) -> Path:
    """A folder whose ``arena_kernel`` is the whole kernel as at ``rev`` (git's copy, not
    the working tree's); return the folder, for :func:`python_env`."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "kernel/arena_kernel"],
        capture_output=True,
        check=True,
    )
    subprocess.run(
        ["tar", "-x", "--strip-components=1", "-C", str(folder)], input=archive.stdout, check=True
    )
    return folder


def run_worker(script: str, args: list[str], tree: Path | None, cwd: Path) -> Any:
    """Run ``script --worker *args`` in a fresh interpreter whose ``arena_kernel`` comes
    from ``tree`` (a separate process, so the two kernels never share a module cache) and
    return the JSON of its last output line (None when it printed nothing)."""
    done = subprocess.run(
        [sys.executable, script, "--worker", *args],
        env=python_env(tree),
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    if done.returncode != 0:
        raise SystemExit(f"{Path(script).name} worker failed:\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else None


def python_env(tree: Path | None) -> dict[str, str]:
    """The environment of a worker importing ``arena_kernel`` from ``tree`` (None: this
    kernel, as installed)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code cached, as in a user's install
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env
