"""A plugin module for the tests of warm starts: games that look at their bots' processes.

``facts_nim``: Nim that, once its bots have played, writes down what the kernel says of each
seat's bot process (``/proc``): its user, its system-call filter and ``no_new_privs``,
its CPU-time limit, its process group and session, its namespaces and cgroups, and its
parent's command line. ``junk_nim``: Nim whose one request is a move no bot can read.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from arena_kernel.plugin import Outcome, Register, Table, hookimpl
from arena_kernel.testing.nim import Nim


def facts(pid: int) -> dict[str, object]:
    proc = Path(f"/proc/{pid}")
    status = dict(
        line.split(":\t", 1) for line in (proc / "status").read_text().splitlines() if ":\t" in line
    )
    limits = next(
        line
        for line in (proc / "limits").read_text().splitlines()
        if line.startswith("Max cpu time")
    )
    parent = int(status["PPid"])
    return {
        "uid": int(status["Uid"].split()[0]),
        "seccomp": int(status["Seccomp"]),
        "no_new_privs": int(status["NoNewPrivs"]),
        "cpu_limit": limits.split()[3],
        "group": os.getpgid(pid),
        "session": os.getsid(pid),
        "namespaces": {
            name: os.readlink(proc / "ns" / name) for name in ("net", "pid", "mnt", "ipc", "uts")
        },
        "cgroups": sorted((proc / "cgroup").read_text().split()),
        "parent_cgroups": sorted(Path(f"/proc/{parent}/cgroup").read_text().split()),
        "parent": Path(f"/proc/{parent}/cmdline").read_bytes().decode().split("\0")[:5],
    }


class FactsNim(Nim):
    name = "facts_nim"
    summary = "Nim that writes down what /proc says of its bots' processes"

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        outcome = await super().play(table, seed, session)  # each bot answered: it runs
        seen = [facts(table.seats[seat].channel.connection.pid) for seat in range(len(table))]
        pids = [table.seats[seat].channel.connection.pid for seat in range(len(table))]
        details = {**outcome.details, "facts": seen, "pids": pids}
        return dataclasses.replace(outcome, details=details)


class JunkNim(Nim):
    name = "junk_nim"
    summary = "Nim whose one request is a move no bot can read"

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        reply = await table.ask(0, "move lots")
        return (
            Outcome.win(1, 2, "seat 0 could not read its move")
            if not reply.ok
            else Outcome.draw(2, "?")
        )


@hookimpl
def arena_register_games(register: Register) -> None:
    register(FactsNim)
    register(JunkNim)
