"""The sandbox's syscall filter (kernel/arena_kernel/sandbox/seccomp.py).

In real sandboxes, through a whole game: a bot that first makes the calls kernel exploits
start from (tests/system/sandbox/bots/syscalls.py: io_uring, userfaultfd, perf events, the key
store, eBPF, ptrace of a process of its own sandbox, a new user namespace, a mount...)
gets ``EPERM`` for each, ``ENOSYS`` for clone3 (so that C libraries fall back on clone)
and is killed for a call made with another architecture's numbers, while its threads
work; then it plays a clean game. The same holds in the sandbox of an arena run as a user
(a user namespace of the bot's own), made directly. With ``syscalls = "all"`` the same
calls reach the kernel, which answers otherwise, so the first tests cannot pass without
the filter; a bot's own ``[bots.sandbox] syscalls`` overrides the run's.

Then the filter itself: its names are all known to libseccomp, its ``personality``
conditions refuse exactly the values not allowed; and a machine without libseccomp:
``mode = "auto"`` warns and runs the bots unfiltered, ``"required"`` refuses in one line,
unless no bot's calls are to be filtered.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from paths import BOTS as SHARED_BOTS

from arena_kernel.errors import SetupError
from arena_kernel.sandbox import libseccomp, seccomp
from arena_kernel.sandbox.bwrap import Sandbox
from arena_kernel.sandbox.probe import Probe, probe
from arena_kernel.sandbox.runtime import command_needs
from arena_kernel.sandbox.view import View
from arena_kernel.testing.pytest_plugin import skip_unless_ci
from arena_kernel.testkit import RunSummary, run_match, stored_games

BOTS = Path(__file__).parent / "bots"
NIM = SHARED_BOTS / "nim.py"
"""A plain Nim bot that reports how many seccomp filters it runs under."""

FILTERED = {
    "io_uring": "EPERM",
    "userfaultfd": "EPERM",
    "perf_event_open": "EPERM",
    "keyctl": "EPERM",
    "bpf": "EPERM",
    "ptrace": "EPERM",
    "process_vm_readv": "EPERM",
    "kcmp": "EPERM",
    "mount": "EPERM",
    "unshare": "EPERM",
    "clone": "EPERM",
    "clone3": "ENOSYS",
    "setns": "EPERM",
    "personality": "EPERM",
    "personality_query": "ok",
    "thread": "ok",
}
"""What each attempt of syscalls.py gets under the filter."""
if os.uname().machine == "x86_64":
    FILTERED |= {"x32": "killed by SIGSYS", "i386": "killed by SIGSYS"}

ALLOWED = {"personality_query", "thread"}
"""Attempts the filter lets through: the same without it."""
KERNEL_MAY_REFUSE = {
    "io_uring": "kernel.io_uring_disabled",
    "userfaultfd": "vm.unprivileged_userfaultfd, before Linux 5.11",
    "bpf": "kernel.unprivileged_bpf_disabled, before Linux 6.5",
}
"""Attempts a machine's own settings may refuse a bot with ``EPERM`` too; without the
filter their ``EPERM`` cannot be told from the filter's."""


def own_filters() -> int:
    """How many seccomp filters this test runs under (a container may have its own)."""
    status = Path("/proc/self/status").read_text()
    found = re.search(r"^Seccomp_filters:\s*(\d+)$", status, re.MULTILINE)
    assert found, "a kernel that counts seccomp filters (Linux 5.9 or later)"
    return int(found[1])


def play(
    write_match, tmp_path: Path, sandbox: str, attacker: str = "", victim: str = ""
) -> RunSummary:
    """One game between syscalls.py (making every attempt) and nim.py under ``[sandbox]``
    lines ``sandbox``, each bot with its own ``[bots.sandbox]`` lines if given."""

    def bot(name: str, argv: list[str], table: str) -> str:
        own = f"[bots.sandbox]\n{table}\n" if table else ""
        return f'[[bots]]\nname = "{name}"\ncmd = {json.dumps(argv)}\n{own}'

    attempts = [sys.executable, str(BOTS / "syscalls.py"), *FILTERED]
    return run_match(
        write_match(
            f'game = "nim"\ngames = 1\n[clock]\nstartup = 30\nreply = 30\n[sandbox]\n{sandbox}\n'
            + bot("attacker", attempts, attacker)
            + bot("victim", [sys.executable, str(NIM)], victim)
        )
    )


def stderr_logs(summary: RunSummary) -> dict[str, str]:
    """Each bot's stderr in the run's one game, clean and whole."""
    assert summary.played == 1 and not summary.errors, summary.errors
    ((result, detail, _events),) = stored_games(summary)
    assert not detail.faults, detail.faults
    assert result.reason.startswith("took the last stone"), "a whole game"
    return {
        name: Path(detail.stderr_logs[seat]).read_text() for seat, name in enumerate(result.seating)
    }


def outcomes(log: str) -> dict[str, str]:
    """What syscalls.py says became of each attempt."""
    return dict(re.findall(r"^(\w+): (.+)$", log, re.MULTILINE))


def held_files() -> list[str]:
    """What this process's descriptors are open on."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(FileNotFoundError):  # the listing's own, closed since
            held.append(os.readlink(f"/proc/self/fd/{fd}"))
    return held


def filters_of_victim(log: str) -> int:
    found = re.search(r"^pid \d+, filters (\d+)", log, re.MULTILINE)
    assert found, log
    return int(found[1])


def test_the_filter_refuses_each_call_and_the_bot_plays_on(
    sandbox: Probe, write_match, tmp_path, no_leftover_processes
) -> None:
    logs = stderr_logs(play(write_match, tmp_path, 'mode = "required"'))
    no_leftover_processes()
    said = outcomes(logs["attacker"])
    assert said.pop("filters") == str(own_filters() + 1)
    assert said == FILTERED
    assert not [path for path in held_files() if "arena-seccomp" in path], "each copy closed"


def test_the_filter_holds_for_a_bot_in_a_user_namespace_of_its_own(
    sandbox: Probe, tmp_path: Path
) -> None:
    """The sandbox of an arena run as a user, whatever user runs this test."""
    assert sandbox.bwrap is not None
    argv = [sys.executable, str(BOTS / "syscalls.py"), *FILTERED]
    view = View(folder=None, read_only=command_needs(argv, None, {"PATH": "/usr/bin"}))
    box = Sandbox(sandbox.bwrap, view, syscall_filter=sandbox.syscalls.program)
    confined = box.command(argv, None, tmp_path / "workspace")
    try:
        done = subprocess.run(
            confined.argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            pass_fds=confined.pass_fds,
        )
    finally:
        confined.close()
    said = outcomes(done.stderr)
    assert said.pop("filters") == str(own_filters() + 1), done.stderr
    assert said == FILTERED


def test_with_syscalls_all_the_calls_reach_the_kernel(
    sandbox: Probe, write_match, tmp_path, no_leftover_processes
) -> None:
    """The run opens every call; the victim's own table filters its calls again."""
    if own_filters():
        skip_unless_ci("this test runs under a seccomp filter of its own (a container's)")
    summary = play(
        write_match,
        tmp_path,
        'mode = "required"\nsyscalls = "all"',
        victim='syscalls = "filtered"',
    )
    logs = stderr_logs(summary)
    no_leftover_processes()
    said = outcomes(logs["attacker"])
    assert said.pop("filters") == str(own_filters())
    assert said.keys() == FILTERED.keys()
    for name, outcome in said.items():
        if name in ALLOWED:
            assert outcome == "ok", name
        elif not (name in KERNEL_MAY_REFUSE and outcome == "EPERM"):
            assert outcome != FILTERED[name], f"{name}: {outcome} without the filter"
        assert not outcome.startswith("killed"), f"{name}: {outcome}"
    assert filters_of_victim(logs["victim"]) == own_filters() + 1


def test_a_bots_own_table_opens_its_calls(
    sandbox: Probe, write_match, tmp_path, no_leftover_processes
) -> None:
    logs = stderr_logs(
        play(write_match, tmp_path, 'mode = "required"', attacker='syscalls = "all"')
    )
    no_leftover_processes()
    assert outcomes(logs["attacker"])["filters"] == str(own_filters())
    assert outcomes(logs["attacker"])["ptrace"] == "ok"
    assert filters_of_victim(logs["victim"]) == own_filters() + 1


# -- the filter itself -------------------------------------------------------------


@pytest.fixture
def library() -> libseccomp.Library:
    try:
        return libseccomp.Library()
    except libseccomp.Unavailable as exc:
        skip_unless_ci(str(exc))


def test_every_refused_call_is_known_to_libseccomp(library: libseccomp.Library) -> None:
    """A misspelt name would be left open without a word (an older libseccomp, which does
    not know the newest calls, cannot tell)."""
    version = tuple(map(int, library.version().split(".")))
    if version < (2, 5, 4):
        skip_unless_ci(f"libseccomp {library.version()} does not know every call of the list")
    names = [name for group in seccomp.DENIED for name in group.calls]
    assert [name for name in names if not library.knows(name)] == []
    found = seccomp.compiled()
    assert found.program is not None and len(found.program) % 8 == 0, "BPF instructions"
    assert found.unknown == ()
    assert {"ptrace", "io_uring_setup", "clone3", "clone", "personality"} <= set(found.refused)


def refused_persona(value: int) -> bool:
    """Whether one of the filter's ``personality`` conditions holds for ``value``."""
    return any(value & c.mask == c.value for c in seccomp.personality_conditions())


def test_personality_is_refused_all_values_but_the_allowed_ones() -> None:
    allowed = set(seccomp.PERSONALITIES)
    bits = [1 << bit for bit in range(32)]
    values = {
        *allowed,
        *bits,
        *(a | b for a in bits for b in bits),
        *(0xFFFFFFFF & ~(a | b) for a in bits for b in bits),
        *(value | bit for value in allowed for bit in bits),
        *random.Random(27).choices(range(1 << 32), k=20_000),
    }
    wrong = [hex(v) for v in sorted(values) if refused_persona(v) == (v in allowed)]
    assert wrong == []
    assert not refused_persona(0x1_0000_0008), "the kernel reads the low 32 bits only"


# -- a machine without libseccomp ----------------------------------------------------


@pytest.fixture
def no_libseccomp(sandbox: Probe, monkeypatch: pytest.MonkeyPatch) -> Iterator[Probe]:
    """This machine's probe as it would be without libseccomp; the real one afterwards."""
    monkeypatch.setattr(libseccomp, "SONAME", "libseccomp.so.0-not-there")
    seccomp.compiled.cache_clear()
    probe.cache_clear()
    try:
        yield probe()
    finally:
        monkeypatch.undo()
        seccomp.compiled.cache_clear()
        probe.cache_clear()


def test_without_libseccomp_the_probe_says_so(no_libseccomp: Probe) -> None:
    found = no_libseccomp
    assert found.works and found.syscalls.program is None
    line = found.describe_syscalls()
    assert line.startswith("none: libseccomp.so.0-not-there cannot be loaded"), line
    assert line.endswith("install libseccomp2 (Debian/Ubuntu: apt-get install libseccomp2)")
    assert found.refuses(filtered=False) is None
    assert found.refusal == f"bots' system calls cannot be filtered: {found.syscalls.problem}"


def test_without_libseccomp_auto_warns_and_runs_bots_unfiltered(
    no_libseccomp: Probe, write_match, tmp_path
) -> None:
    summary = run_match(
        write_match(
            'game = "nim"\ngames = 1\n'
            + "".join(
                f'[[bots]]\nname = "{name}"\ncmd = {json.dumps([sys.executable, str(NIM)])}\n'
                for name in ("one", "two")
            )
        )
    )
    assert summary.run.sandbox == "bwrap"
    assert summary.run.sandbox_note == (
        f"warning: bots' system calls are not filtered: {no_libseccomp.syscalls.problem}"
    )
    for log in stderr_logs(summary).values():
        assert filters_of_victim(log) == own_filters()


def test_without_libseccomp_required_refuses_unless_every_call_is_open(
    no_libseccomp: Probe, write_match, tmp_path
) -> None:
    bots = "".join(
        f'[[bots]]\nname = "{name}"\ncmd = {json.dumps([sys.executable, str(NIM)])}\n'
        for name in ("one", "two")
    )
    required = 'game = "nim"\ngames = 1\n[sandbox]\nmode = "required"\n'
    with pytest.raises(SetupError) as refused:
        run_match(write_match(required + bots))
    assert str(refused.value).endswith(
        f"but bots' system calls cannot be filtered: {no_libseccomp.syscalls.problem}"
    )
    assert "\n" not in str(refused.value)
    summary = run_match(write_match(required + 'syscalls = "all"\n' + bots, "open.toml"))
    assert summary.run.sandbox == "bwrap" and summary.run.sandbox_note is None
    assert summary.played == 1 and not summary.errors
