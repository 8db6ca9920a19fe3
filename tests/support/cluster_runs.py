"""What the dask executor's tests share: the games a database holds, an ``arena run`` on a
cluster as a user starts it, the processes a worker has below it and the ports processes
listen on."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from paths import SUPPORT

WORKER_ENV = {
    "PYTHONPATH": os.pathsep.join(filter(None, [str(SUPPORT), os.environ.get("PYTHONPATH")]))
}
"""What a cluster's worker processes need to load the test plugins of tests/support."""


def stored_indexes(database: Path) -> list[int]:
    """The schedule indexes of the games ``database`` holds (its only run), in order."""
    try:
        with sqlite3.connect(database) as conn:
            return [row[0] for row in conn.execute("select idx from games order by idx")]
    except sqlite3.Error:
        return []


def coordinator(match: Path, address: str, env: Mapping[str, str] = {}) -> subprocess.Popen[str]:
    """``arena run -q MATCH --executor dask --scheduler ADDRESS`` as a process of its own
    (its stderr piped, ``env`` added to its environment), in a session of its own."""
    command = [sys.executable, "-m", "arena_kernel.cli.main", "run", "-q", str(match)]
    return subprocess.Popen(
        [*command, "--executor", "dask", "--scheduler", address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **WORKER_ENV, **env},
        start_new_session=True,
    )


def wait_for_stored(
    database: Path, count: int, process: subprocess.Popen[str], wait: float = 120
) -> int:
    """Wait until ``database`` holds ``count`` games while ``process`` plays them; how
    many it holds then."""
    deadline = time.monotonic() + wait
    while (stored := len(stored_indexes(database))) < count:
        assert process.poll() is None, f"the run ended: {process.communicate()[1]}"
        assert time.monotonic() < deadline, "the run stored too few games"
        time.sleep(0.02)
    return stored


def descendants(pid: int) -> dict[int, str]:
    """Every living process below ``pid``, with its command line."""
    children: dict[int, list[int]] = {}
    lines: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            line = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if state != "Z":
            children.setdefault(int(parent), []).append(int(entry))
            lines[int(entry)] = line
    found: dict[int, str] = {}
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        found[child] = lines[child]
        todo.extend(children.get(child, []))
    return found


def listening_addresses(pids: Iterable[int]) -> set[str]:
    """The local addresses (``127.0.0.1:8786``) of the TCP sockets that ``pids`` listen on."""
    inodes = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and inode in inodes:  # LISTEN
                found.add(_address(local))
    return found


def _address(hexed: str) -> str:
    """``0100007F:1F90`` (as /proc/net/tcp writes it) as ``127.0.0.1:8080``."""
    host, port = hexed.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        return f"{ipaddress.IPv4Address(raw[::-1])}:{int(port, 16)}"
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return f"[{ipaddress.IPv6Address(words)}]:{int(port, 16)}"
