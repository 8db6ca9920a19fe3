"""Throwaway installed distributions: what pip leaves in site-packages, made in a folder.

A ``NAME-VERSION.dist-info`` folder with ``METADATA`` and ``entry_points.txt`` next to the
plugin's modules is an installed distribution for ``importlib.metadata`` once the folder
is on ``sys.path`` (a child's ``PYTHONPATH``): arena finds its ``arena`` entry points as it
finds a pip-installed plugin's.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Mapping
from pathlib import Path

from arena_cli import arena


def install(
    site: Path,
    distribution: str,
    entry_points: Mapping[str, str],
    modules: Mapping[str, str],
    version: str = "1.0",
) -> None:
    """Install ``distribution`` into the folder ``site``: its ``arena`` entry points (name ->
    target) and its modules (name -> source, dedented)."""
    site.mkdir(exist_ok=True)
    for name, source in modules.items():
        (site / f"{name}.py").write_text(textwrap.dedent(source))
    info = site / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n"
    )
    lines = "".join(f"{name} = {target}\n" for name, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[arena]\n{lines}")


def arena_with(
    site: Path, *args: str, cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` with the distributions of ``site`` installed."""
    path = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    return arena(*args, cwd=cwd, env={"PYTHONPATH": path, **(env or {})})


def stderr_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    """stderr's lines; a traceback anywhere fails the test."""
    assert "Traceback" not in result.stderr, result.stderr
    return result.stderr.strip().splitlines()
