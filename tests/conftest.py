"""Shared fixtures: match files for the kernel's test games, and a process-leak check."""

from __future__ import annotations

import ctypes
import os
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytest_plugins = ["launch_fixtures"]

PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> None:
    """Orphaned bot processes get re-parented to this test process instead of init, so a
    leak check can find every process a run left behind."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


_become_subreaper()


def live_descendants(root: int | None = None) -> list[tuple[int, str]]:
    """(pid, command line) of every living (non-zombie) descendant of ``root``."""
    root = os.getpid() if root is None else root
    children: dict[int, list[int]] = {}
    info: dict[int, tuple[str, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        after = stat.rsplit(")", 1)[1].split()
        state, ppid = after[0], int(after[1])
        children.setdefault(ppid, []).append(int(entry))
        info[int(entry)] = (state, cmdline)
    found = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        state, cmdline = info.get(pid, ("?", ""))
        if state != "Z":
            found.append((pid, cmdline))
    return found


def reap_zombies() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


@pytest.fixture
def no_leftover_processes() -> Callable[[], None]:
    """Call it after a run: fails listing any process the run left alive."""
    before = {pid for pid, _ in live_descendants()}

    def check(wait: float = 2.0) -> None:
        deadline = time.monotonic() + wait
        while True:
            reap_zombies()
            left = [(p, c) for p, c in live_descendants() if p not in before]
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert not left, f"processes left after the run: {left}"

    return check


@pytest.fixture
def write_match(tmp_path: Path) -> Callable[..., Path]:
    """Write a match file for the kernel's test games into tmp_path; returns its path.

    The text is dedented; the test games' plugin module and a database/logs in tmp_path
    are added unless the text sets them.
    """

    def write(text: str, name: str = "match.toml") -> Path:
        body = textwrap.dedent(text)
        head = ""
        if "plugins" not in body:
            head += 'plugins = ["arena_kernel.testing.games"]\n'
        if "database" not in body:
            head += f'database = "{tmp_path / "results.sqlite"}"\n'
        if "logs" not in body:
            head += f'logs = "{tmp_path / "logs"}"\n'
        path = tmp_path / name
        path.write_text(head + body)
        return path

    return write


PYTHON = sys.executable
