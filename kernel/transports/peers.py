"""Which process owns the other end of a loopback TCP connection (Linux ``/proc``).

Arrival order alone cannot tell a bot the arena just started from a bot started by
someone else that happens to connect at the same moment. The kernel knows the started
bot's process group, and Linux knows which process holds each socket: together they tie
a connection to its bot by fact, never by trust.
"""

from __future__ import annotations

import os
import socket

from kernel.transports.procfs import group_members


def _proc_address(host: str, port: int) -> str | None:
    """The ``/proc/net/tcp{,6}`` spelling of an address: host bytes in kernel order, hex."""
    try:
        if ":" in host:
            packed = socket.inet_pton(socket.AF_INET6, host.split("%")[0])
            words = [packed[i : i + 4][::-1] for i in range(0, 16, 4)]
            hexhost = b"".join(words).hex().upper()
        else:
            hexhost = socket.inet_aton(host)[::-1].hex().upper()
    except OSError:
        return None
    return f"{hexhost}:{port:04X}"


def socket_inode(client: tuple, server: tuple) -> int | None:
    """The inode of the CLIENT's socket of the connection ``client`` -> ``server``."""
    local = _proc_address(client[0], client[1])
    remote = _proc_address(server[0], server[1])
    if local is None or remote is None:
        return None
    for table in ("/proc/net/tcp6", "/proc/net/tcp") if ":" in client[0] else ("/proc/net/tcp",):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if fields[1] == local and fields[2] == remote:
                        return int(fields[9])
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    return None


def owned_by_group(sock: socket.socket, pgid: int) -> bool | None:
    """True if a process of group ``pgid`` holds the client end of ``sock``; None when
    this cannot be known here (no ``/proc``, a remote client, a client already gone)."""
    try:
        inode = socket_inode(sock.getpeername(), sock.getsockname())
    except OSError:
        return None
    if inode is None:
        return None
    target = f"socket:[{inode}]"
    for pid in group_members(pgid):
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return True
            except OSError:
                continue
    return False
