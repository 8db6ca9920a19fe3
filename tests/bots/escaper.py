"""A hostile Nim bot: it plays (one stone a move) but leaves processes behind.

``escaper.py MODE PIDDIR [--ignore-eof] [--mute] [--tcp]``. MODE says what it leaves:

- ``setsid``: a child in a session (and process group) of its own;
- ``double-fork``: a daemon's double fork: a child that calls ``setsid()`` and forks a
  grandchild, then exits at once (the grandchild is re-parented mid-game);
- ``hidden``: a program started in a session of its own with an EMPTY environment, so that
  it carries no ARENA_TAG at all;
- ``quick-orphan``: a grandchild that outlives its parent by 0.2 s, then exits by itself
  (a zombie for whoever inherits it);
- ``none``: nothing.

Every process it starts writes an empty file ``PIDDIR/<role>.<pid>`` (before the bot
reads its first message) so that the test knows exactly what to look for.
``--ignore-eof``: the bot ignores SIGTERM, and sleeps on at the end of its input;
``--mute``: it never answers (its game waits for its clock); ``--tcp``: it connects to
``$ARENA_HOST:$ARENA_PORT`` instead of using stdin/stdout.

Harmless without a sandbox: at most two extra processes, every sleep at most LINGER s,
network traffic only to the arena's loopback address, and no signal sent to anyone.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time

LINGER = 120


def note(piddir: str, role: str, pid: int | None = None) -> None:
    open(os.path.join(piddir, f"{role}.{pid or os.getpid()}"), "w").close()


def linger(piddir: str, role: str, ready: int, seconds: float = LINGER) -> None:
    """Note the pid, tell the leader (by closing ``ready``), sleep, exit."""
    note(piddir, role)
    os.close(ready)
    time.sleep(seconds)
    os._exit(0)


def leave_behind(mode: str, piddir: str) -> None:
    """Start what ``mode`` leaves, and return once it has noted its pid: the end of the
    ``ready`` pipe, when every process holding its write end has closed it."""
    ready_read, ready = os.pipe()
    if mode == "setsid":
        if os.fork() == 0:
            os.setsid()
            linger(piddir, "setsid", ready)
    elif mode in ("double-fork", "quick-orphan"):
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                linger(piddir, "grandchild", ready, 0.2 if mode == "quick-orphan" else LINGER)
            os._exit(0)
        os.wait()
    elif mode == "hidden":
        sleep = shutil.which("sleep")
        assert sleep is not None
        hidden = subprocess.Popen([sleep, str(LINGER)], env={}, start_new_session=True)
        note(piddir, "hidden", hidden.pid)
    elif mode != "none":
        raise SystemExit(f"unknown mode {mode}")
    os.close(ready)
    os.read(ready_read, 1)
    os.close(ready_read)


def main() -> None:
    mode, piddir, *flags = sys.argv[1:]
    if "--ignore-eof" in flags:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    note(piddir, "leader")
    leave_behind(mode, piddir)
    if "--tcp" in flags:
        sock = socket.create_connection((os.environ["ARENA_HOST"], int(os.environ["ARENA_PORT"])))
        lines, out = sock.makefile("rb"), sock.makefile("wb")
    else:
        lines, out = sys.stdin.buffer, sys.stdout.buffer
    for line in lines:
        if line.startswith(b"move") and "--mute" not in flags:
            out.write(b"take 1\n")
            out.flush()
    if "--ignore-eof" in flags:
        time.sleep(LINGER)


if __name__ == "__main__":
    main()
