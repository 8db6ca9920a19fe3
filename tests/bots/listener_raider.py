"""A competing bot that attacks the other bots' seats while it plays its own game.

``listener_raider.py SECONDS``: connects to the arena as a Nim bot (line protocol; it
always takes one stone, a tenth of a second late), and forks a child that, as soon as the
bot is connected and for SECONDS seconds (at most 100000 attempts), finds every TCP port
its parent (the arena) listens on, connects to each and resets the connection at once.
The child stays in the bot's session, so arena ends it with the bot.

Loopback only, bounded in time and attempts: harmless without a sandbox. Before arena's
fail-closed seats, the reset connections took the seats of the bots being started in other
games (a bot playing like this one won 8 of 8 games against a bot it otherwise loses to).
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import sys
import time


def listening_ports(pid: int) -> set[int]:
    """The ports of the listening TCP sockets process ``pid`` holds."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    with open("/proc/net/tcp") as table:
        next(table)
        for row in table:
            fields = row.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].split(":")[1], 16))
    return ports


def raid(arena: int, seconds: float) -> None:
    until = time.monotonic() + seconds
    attempts = 0
    while time.monotonic() < until and attempts < 100_000:
        try:
            ports = listening_ports(arena)
        except OSError:
            return  # the arena is gone
        for port in ports:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(OSError):
                sock.connect(("127.0.0.1", port))
            sock.close()
            attempts += 1
        time.sleep(0.001)


def play(sock: socket.socket) -> None:
    """Nim, badly and slowly: one stone per move, a tenth of a second late."""
    for line in sock.makefile("rb"):
        if line.startswith(b"move "):
            time.sleep(0.1)
            sock.sendall(b"take 1\n")


def main() -> None:
    seconds = float(sys.argv[1])
    arena = os.getppid()
    sock = socket.create_connection((os.environ["ARENA_HOST"], int(os.environ["ARENA_PORT"])))
    if os.fork() == 0:
        try:
            raid(arena, seconds)
        finally:
            os._exit(0)
    play(sock)


if __name__ == "__main__":
    main()
