"""``arena doctor``: whether this machine is ready to run strangers' bots safely."""

from __future__ import annotations

import os
import shutil
import subprocess

import click

from arena_kernel.processes.cpu_meter import accounting_parent
from arena_kernel.registries.manager import ArenaPluginManager
from arena_kernel.sandbox import uids
from arena_kernel.sandbox.bot_cgroups import MEMORY, WEIGHT, warden_cgroup
from arena_kernel.sandbox.cgroups import offering
from arena_kernel.sandbox.oom import ARENA_SCORE, BOT_SCORE, may_spare_arena
from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.probe import probe

UTIL_LINUX = ("setpriv", "prlimit")
"""The util-linux commands every bot is started through (:mod:`arena_kernel.processes.launcher`)."""


def checkup(pm: ArenaPluginManager) -> bool:
    """Print one ``label: finding`` line per check, then the verdict; whether a run with
    ``[sandbox] mode = "required"`` would start here. ``pm`` has loaded the installed
    plugins."""
    found = probe()
    checks = [
        ("sandbox", found.describe()),
        ("bwrap", _bwrap(found.bwrap)),
        ("syscall filter", found.describe_syscalls()),
        ("bot users", _bot_users()),
        ("process cap", _process_cap()),
        ("cpu clock", _cpu_clock()),
        ("memory cap", _memory_cap()),
        ("cpu share", _cpu_share()),
        ("out of memory", _out_of_memory()),
        ("arena killed", _arena_killed()),
        *((command, _util_linux(command)) for command in UTIL_LINUX),
        ("plugins", _plugins(pm)),
    ]
    width = max(len(label) for label, _ in checks) + 1
    for label, finding in checks:
        click.echo(f"{label + ':':{width}} {finding}")
    problems = [found.refusal] if found.refusal else []
    problems += [
        f"no {command} (util-linux): arena cannot start bots"
        for command in UTIL_LINUX
        if shutil.which(command) is None
    ]
    if problems:
        click.echo(f"not ready: {'; '.join(problems)}")
        return False
    click.echo("ready: every bot the arena starts can run in a bubblewrap sandbox")
    return True


def _bwrap(path: str | None) -> str:
    """Where bwrap is and its version, as ``bwrap --version`` says it."""
    if path is None:
        return "not found on the PATH"
    try:
        done = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"{path} (cannot run it: {exc})"
    version = done.stdout.strip() or done.stderr.strip() or f"status {done.returncode}"
    return f"{path}, {version.splitlines()[0]}"


def _bot_users() -> str:
    """Which user a sandboxed bot runs as here."""
    if uids.wanted():
        return (
            f"a user id of its own per bot (from {uids.FIRST}), arena being root: a bot reads "
            "only what any user may, and no other bot's files"
        )
    return (
        f"arena's own (uid {os.geteuid()}), each bot in a user namespace: bots can read "
        "each other's files where both can reach them (run arena as root for a user per bot)"
    )


def _process_cap() -> str:
    """What caps the number of a sandboxed bot's processes here."""
    parent = pids_parent()
    if parent is not None:
        return f"a pids cgroup per sandboxed bot, under {parent.parent}"
    if os.geteuid() == 0:
        return "none: no pids cgroup arena may create, and RLIMIT_NPROC does not hold for root"
    return "RLIMIT_NPROC ([limits] processes, counted per user): no pids cgroup arena may create"


def _cpu_clock() -> str:
    """How a bot's CPU time is read here, for ``[clock] mode = "cpu"``."""
    found = accounting_parent()
    if found is not None:
        return f"a cgroup per bot ({found[1]}), under {found[0].parent}"
    return "the bot's process tree in /proc: no cgroup arena may create (see docs/clocks.md)"


def _memory_cap() -> str:
    """Whether ``[limits] memory_mb`` caps a bot's processes together, or each alone."""
    found = offering(MEMORY)
    if found is not None:
        cap, parent = found[1], found[0].parent
        return f"all of a bot's processes together: a memory cgroup per bot ({cap}), under {parent}"
    return (
        "each process alone (RLIMIT_DATA): no memory cgroup arena may create, so a bot of "
        "many processes can use more (see docs/sandbox.md)"
    )


def _cpu_share() -> str:
    """Whether a bot of many processes gets one bot's share of a busy machine."""
    found = offering(WEIGHT)
    if found is not None:
        return f"equal per bot: a cpu cgroup per bot ({found[1]}), under {found[0].parent}"
    return "per process: no cpu cgroup arena may create, so a bot of many processes gets more"


def _out_of_memory() -> str:
    """Whom the kernel's out-of-memory killer picks first here."""
    if may_spare_arena():
        return f"bots first (oom_score_adj {BOT_SCORE}), never arena or its warden ({ARENA_SCORE})"
    return f"bots first (oom_score_adj {BOT_SCORE}); arena keeps its own, as only root may lower it"


def _arena_killed() -> str:
    """How the warden finds the bots of an arena that died (``kill -9``, a crash)."""
    cgroup = warden_cgroup()
    if cgroup is not None:
        return f"its bots are found by their cgroup, under {cgroup.parent}, and by their tag"
    return (
        "its bots are found by their tag (ARENA_TAG) only: a process that emptied its "
        "environment escapes; no cgroup arena may create (see docs/sandbox.md)"
    )


def _util_linux(command: str) -> str:
    return shutil.which(command) or "not installed (Debian/Ubuntu: apt-get install util-linux)"


def _plugins(pm: ArenaPluginManager) -> str:
    """How many installed plugins loaded, and how many were left out."""
    loaded = sum(pm.installed(plugin) is not None for _name, plugin in pm.list_name_plugin())
    if not pm.unavailable:
        return f"{loaded} installed, all loaded"
    broken = sum(u.broken for u in pm.unavailable)
    disabled = len(pm.unavailable) - broken
    return (
        f"{loaded + len(pm.unavailable)} installed: {loaded} loaded, {broken} broken, "
        f"{disabled} disabled (arena plugins says why)"
    )
