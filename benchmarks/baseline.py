"""The baseline of the benchmarks that compare kernels: the whole kernel as at a git
revision (:data:`BEFORE` by default for the store and schedule benchmarks), run in a
process of its own.

    from baseline import run_worker, whole_kernel

A worker process runs against the baseline when its ``PYTHONPATH`` leads there
(:func:`python_env`): the plain path comes before the editable install's finder, and the
installed plugins import whichever ``arena_kernel`` that process has. A kernel taken from
git holds no compiled extension, so the baseline runs its Python code alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
KERNEL = REPO / "kernel" / "arena_kernel"

BEFORE = "b4636aa0ffe2c3ef0d5afb9e806f886619334cae"
"""The last commit before compact stored games and the lazy schedule: the default baseline."""


def whole_kernel(rev: str, folder: Path) -> Path:
    """A folder whose ``arena_kernel`` is the whole kernel as at ``rev`` (git's copy, not
    the working tree's); return the folder, for :func:`python_env`. Before the kernel's
    folder was named as it is imported, the package was ``kernel/`` itself."""
    folder.mkdir(parents=True, exist_ok=True)
    nested = subprocess.run(
        ["git", "-C", str(REPO), "cat-file", "-e", f"{rev}:kernel/arena_kernel"],
        capture_output=True,
        check=False,
    )
    source, target = ("kernel/arena_kernel", folder)
    if nested.returncode != 0:
        source, target = ("kernel", folder / "arena_kernel")
        target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, source], capture_output=True, check=True
    )
    subprocess.run(
        ["tar", "-x", "--strip-components=1", "-C", str(target)], input=archive.stdout, check=True
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
