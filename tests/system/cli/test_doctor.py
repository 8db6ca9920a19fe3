"""``arena doctor`` on this machine and on one without bubblewrap, and the warning of
``arena plugins`` where bots cannot be sandboxed."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from arena_cli import arena, without_bwrap
from installed_dist import arena_with, install

from arena_kernel.sandbox.probe import Probe

UNSANDBOXED = (
    "bots run unsandboxed: bubblewrap (bwrap) is not installed; to sandbox them, "
    "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"
)


def report(stdout: str) -> dict[str, str]:
    """The doctor's ``label: text`` lines by label."""
    lines = (line.partition(":") for line in stdout.splitlines())
    return {label: text.strip() for label, _colon, text in lines}


def test_doctor_on_a_machine_that_can_sandbox_says_ready(sandbox: Probe) -> None:
    result = arena("doctor")
    assert result.returncode == 0, result.stdout + result.stderr
    found = report(result.stdout)
    assert list(found) == [
        "sandbox",
        "bwrap",
        "syscall filter",
        "bot users",
        "process cap",
        "cpu clock",
        "memory cap",
        "cpu share",
        "out of memory",
        "arena killed",
        "setpriv",
        "prlimit",
        "plugins",
        "ready",
    ]
    assert found["sandbox"] == sandbox.describe()
    assert found["syscall filter"] == sandbox.describe_syscalls()
    assert found["syscall filter"].startswith("on: "), "the filter works where bwrap does"
    assert re.fullmatch(rf"{re.escape(str(sandbox.bwrap))}, bubblewrap \d+\.\d+.*", found["bwrap"])
    own = "a user id of its own per bot" if os.geteuid() == 0 else "arena's own"
    assert found["bot users"].startswith(own)
    assert found["process cap"].startswith(("a pids cgroup per sandboxed bot, under /", "RLIMIT"))
    assert found["cpu clock"].startswith(("a cgroup per bot (", "the bot's process tree"))
    assert found["memory cap"].startswith(
        ("all of a bot's processes together: a memory cgroup per bot (", "each process alone")
    )
    assert found["cpu share"].startswith(("equal per bot: a cpu cgroup per bot (", "per process"))
    assert found["out of memory"].startswith("bots first (oom_score_adj 1000)")
    assert found["arena killed"].startswith(
        ("its bots are found by their cgroup, under /", "its bots are found by their tag")
    )
    assert found["setpriv"] == shutil.which("setpriv")
    assert found["prlimit"] == shutil.which("prlimit")
    assert re.fullmatch(r"\d+ installed, all loaded", found["plugins"]), found["plugins"]


def test_doctor_without_bwrap_says_how_to_enable_it_and_fails(tmp_path: Path) -> None:
    result = arena("doctor", env=without_bwrap(tmp_path / "bin"))
    assert result.returncode == 1, result.stdout + result.stderr
    found = report(result.stdout)
    assert found["sandbox"].startswith(UNSANDBOXED), found["sandbox"]
    assert found["bwrap"] == "not found on the PATH"
    assert found["setpriv"] == str(tmp_path / "bin" / "setpriv")
    assert result.stdout.splitlines()[-1] == "not ready: bubblewrap (bwrap) is not installed"
    assert result.stderr == ""


def test_doctor_without_util_linux_says_bots_cannot_start(tmp_path: Path) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    if bwrap := shutil.which("bwrap"):
        (folder / "bwrap").symlink_to(bwrap)
    result = arena("doctor", env={"PATH": str(folder)})
    assert result.returncode == 1, result.stdout + result.stderr
    found = report(result.stdout)
    assert found["setpriv"].startswith("not installed (Debian/Ubuntu: apt-get install util-linux")
    last = result.stdout.splitlines()[-1]
    assert last.startswith("not ready: ") and last.endswith(
        "no setpriv (util-linux): arena cannot start bots; "
        "no prlimit (util-linux): arena cannot start bots"
    ), last


def test_doctor_counts_the_installed_plugins_and_those_left_out(tmp_path: Path) -> None:
    before = report(arena("doctor").stdout)["plugins"]
    match = re.fullmatch(r"(\d+) installed, all loaded", before)
    assert match, before
    count = int(match[1])
    site = tmp_path / "site"
    install(site, "arena-fine", {"fine": "arena_fine"}, {"arena_fine": ""})
    install(site, "arena-broken", {"broken": "arena_broken"}, {"arena_broken": "1 / 0"})
    result = arena_with(site, "doctor")
    assert report(result.stdout)["plugins"] == (
        f"{count + 2} installed: {count + 1} loaded, 1 broken, 0 disabled (arena plugins says why)"
    )
    assert "plugin arena-broken 1.0 (entry point broken) is broken" in result.stderr


def test_plugins_warns_where_bots_cannot_be_sandboxed(tmp_path: Path) -> None:
    hidden = arena("plugins", env=without_bwrap(tmp_path / "bin"))
    assert hidden.returncode == 0 and hidden.stderr == "", hidden.stderr
    assert "transports:" in hidden.stdout
    last = hidden.stdout.splitlines()[-1]
    assert last.startswith(f"warning: {UNSANDBOXED}"), last


def test_plugins_warns_of_nothing_where_bots_can_be_sandboxed(sandbox: Probe) -> None:
    result = arena("plugins")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert "warning" not in result.stdout
