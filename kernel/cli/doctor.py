"""``arena doctor``: whether this machine is ready to run strangers' bots safely."""

from __future__ import annotations

import os
import shutil
import subprocess

import click

from arena_kernel.registries.manager import ArenaPluginManager
from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.probe import probe
from arena_kernel.transports.cpu_meter import accounting_parent

UTIL_LINUX = ("setpriv", "prlimit")
"""The util-linux commands every bot is started through (:mod:`arena_kernel.transports.process`)."""


def checkup(pm: ArenaPluginManager) -> bool:
    """Print one ``label: finding`` line per check, then the verdict; whether a run with
    ``[sandbox] mode = "required"`` would start here. ``pm`` has loaded the installed
    plugins."""
    found = probe()
    checks = [
        ("sandbox", found.describe()),
        ("bwrap", _bwrap(found.bwrap)),
        ("process cap", _process_cap()),
        ("cpu clock", _cpu_clock()),
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


def _process_cap() -> str:
    """What caps the number of a sandboxed bot's processes here."""
    parent = pids_parent()
    if parent is not None:
        return f"a pids cgroup per sandboxed bot, under {parent}"
    if os.geteuid() == 0:
        return "none: no pids cgroup arena may create, and RLIMIT_NPROC does not hold for root"
    return "RLIMIT_NPROC ([limits] processes, counted per user): no pids cgroup arena may create"


def _cpu_clock() -> str:
    """How a bot's CPU time is read here, for ``[clock] mode = "cpu"``."""
    found = accounting_parent()
    if found is not None:
        return f"a cgroup per bot ({found[1]}), under {found[0]}"
    return "the bot's process tree in /proc: no cgroup arena may create (see docs/clocks.md)"


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
