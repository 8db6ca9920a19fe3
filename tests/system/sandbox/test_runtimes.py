"""Bots in the runtimes contestants write in, the JVM, Node.js, Racket and Python run as a
program, play whole games inside the sandbox (``mode = "required"``: they find /proc,
/dev/urandom and their runtime's files there) and under its syscall filter, and each shows
that it ran there: its process id is one of a fresh PID namespace, it runs under one
seccomp filter more than this test, and the match file beside it is hidden from it. The
same report from a bot run without the sandbox says otherwise, so it cannot pass
vacuously."""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from paths import BOTS

from arena_kernel.testing.pytest_plugin import skip_unless_ci
from arena_kernel.testkit import run_match, stored_games

REPORT = re.compile(r"^pid (\d+), filters (\d+), .+ (visible|hidden)$", re.MULTILINE)
"""The first line Nim.java, nim.py, nim.rkt and report.js (preloaded into nim.js) write to
stderr."""

NAMESPACE_PIDS = {1, 2}
"""The process ids a bot can have in a PID namespace of its own (bwrap's init is 1)."""


def runtime(name: str) -> str:
    """The path of the program ``name``; skips without it, and fails under CI=true."""
    path = shutil.which(name)
    if path is None:
        skip_unless_ci(f"{name} is not installed (see tools/install-system-packages)")
    return path


COMMANDS: dict[str, Callable[[], list[str]]] = {
    "java": lambda: [
        runtime("java"), "-Xshare:auto", str(BOTS / "Nim.java"),
    ],
    "node": lambda: [
        runtime("node"), "--require", str(BOTS / "report.js"), str(BOTS / "nim.js"), "line",
    ],
    "racket": lambda: [runtime("racket"), str(BOTS / "nim.rkt")],
    "python": lambda: [sys.executable, str(BOTS / "nim.py")],
}  # fmt: skip


def play(write_match, tmp_path: Path, cmd: list[str], mode: str) -> list[str]:
    """Two games between two bots running ``cmd`` under sandbox ``mode``, checked to be
    clean, won by the first mover (both play perfectly) and stored as played in the sandbox
    or not; every seat's stderr. Each bot is told the match file's path to look for
    (``SANDBOX_PEEK``)."""
    peek = json.dumps(str(tmp_path / "match.toml"))
    bots = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = {json.dumps(cmd)}\nenv = {{ SANDBOX_PEEK = {peek} }}\n'
        for name in ("one", "two")
    )
    text = f'game = "nim"\n[clock]\nstartup = 20\nreply = 20\n[sandbox]\nmode = "{mode}"\n'
    summary = run_match(write_match(text + bots))
    assert summary.played == 2 and not summary.errors, summary.errors
    logs = []
    for result, detail, _events in stored_games(summary):
        assert not detail.faults, detail.faults
        assert result.sandbox == ("none" if mode == "none" else "bwrap")
        assert result.ranks == (1, 2), "21 stones: the first mover wins with perfect play"
        logs += [Path(detail.stderr_logs[seat]).read_text() for seat in (0, 1)]
    return logs


def reported(log: str) -> tuple[int, int, str]:
    """The process id in a bot's stderr, how many seccomp filters it ran under, and
    whether it saw the match file."""
    found = REPORT.search(log)
    assert found, f"no report in the bot's stderr: {log!r}"
    return int(found[1]), int(found[2]), found[3]


def own_filters() -> int:
    """How many seccomp filters this test runs under (a container may have its own)."""
    status = Path("/proc/self/status").read_text()
    found = re.search(r"^Seccomp_filters:\s*(\d+)$", status, re.MULTILINE)
    assert found, "a kernel that counts seccomp filters (Linux 5.9 or later)"
    return int(found[1])


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_bot_plays_inside_the_sandbox(
    name, sandbox, write_match, tmp_path, no_leftover_processes
) -> None:
    logs = play(write_match, tmp_path, COMMANDS[name](), "required")
    no_leftover_processes()
    for log in logs:
        pid, filters, match_file = reported(log)
        assert pid in NAMESPACE_PIDS, f"{name} ran as process {pid}: not in a PID namespace"
        assert filters == own_filters() + 1, f"{name} ran without the syscall filter"
        assert match_file == "hidden", log


def test_the_report_of_an_unsandboxed_bot_says_so(write_match, tmp_path) -> None:
    for log in play(write_match, tmp_path, COMMANDS["python"](), "none"):
        pid, filters, match_file = reported(log)
        assert pid not in NAMESPACE_PIDS and match_file == "visible", log
        assert filters == own_filters(), log
