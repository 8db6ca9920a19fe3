"""Who holds the client end of a TCP connection the arena accepted (Linux ``/proc``).

Arrival order cannot tell a bot the arena started from anyone else who connects at the same
moment, and neither can an address: every process on the machine connects from 127.0.0.1.
Linux can: ``/proc/net/tcp`` names the socket (inode) at the client end of a connection, and
``/proc/PID/fd`` says which processes hold it. Together they tie a connection to a bot by
fact, never by trust.

Every answer is a fact or :class:`LookupStarved`. A connection whose client end nobody
holds any more (reset, closed) is :attr:`Holder.GONE`, which the caller refuses like any
connection it cannot prove to be a seat's: it must fail closed. ``LookupStarved`` is the
one answer that means "ask again": the arena itself ran out of file descriptors or memory
while looking, which says nothing about the connection.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
from collections.abc import Collection, Iterable, Sequence
from enum import Enum

SHORTAGES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
"""``errno`` values that mean the arena is short of a resource, not that something is wrong
with what it looked at."""


class LookupStarved(Exception):
    """The arena could not look (out of file descriptors or memory): ask again later."""


class Holder(Enum):
    """Who holds a connection's client end, when it is none of the bots asked about."""

    GONE = "gone"
    """Nobody: the client reset or closed it (or it was never a local connection)."""
    STRANGER = "stranger"
    """A process the arena did not start (or, when not asked about them, any other)."""
    ARENA = "arena"
    """Another process the arena started: a bot that is not waiting for this connection."""


def _starved(exc: OSError) -> None:
    """Turn the arena's own shortage into :class:`LookupStarved`; other errors are facts."""
    if exc.errno in SHORTAGES:
        raise LookupStarved(os.strerror(exc.errno)) from None


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


def peer_address(sock: socket.socket) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a connection comes from (an IPv4 client of an IPv6 listener as IPv4), or
    None once it is reset."""
    try:
        host = sock.getpeername()[0]
    except OSError:
        return None
    address = ipaddress.ip_address(host.split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_inodes(socks: Sequence[socket.socket]) -> list[int | None]:
    """The inode of each connection's CLIENT socket, or None when it has none any more.

    One read of each table for all the connections. A row in TIME_WAIT or FIN_WAIT2 has
    inode 0: its socket was closed, so it is None too.
    """
    wanted: dict[tuple[str, str], int] = {}
    tables: set[str] = set()
    for index, sock in enumerate(socks):
        try:
            client, server = sock.getpeername(), sock.getsockname()
        except OSError:
            continue  # reset before we looked: not connected to anyone
        local, remote = _proc_address(*client[:2]), _proc_address(*server[:2])
        if local is not None and remote is not None:
            wanted[(local, remote)] = index
            tables.add("/proc/net/tcp6" if ":" in client[0] else "/proc/net/tcp")
    found: list[int | None] = [None] * len(socks)
    servers = {remote for _, remote in wanted}
    for table in sorted(tables):
        try:
            with open(table) as rows:
                next(rows, None)
                for row in rows:
                    fields = row.split()
                    if len(fields) > 9 and fields[2] in servers:
                        index = wanted.get((fields[1], fields[2]))
                        if index is not None and fields[9] != "0":
                            found[index] = int(fields[9])
        except OSError as exc:
            _starved(exc)  # any other failure: nothing found, so nothing is proven
    return found


def _process_table() -> dict[int, tuple[int, int]]:
    """pid -> (parent pid, session id) of every process."""
    table: dict[int, tuple[int, int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError as exc:
        _starved(exc)
        return table
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError as exc:
            _starved(exc)
            continue  # gone meanwhile
        table[int(entry)] = (int(fields[1]), int(fields[3]))
    return table


def _descendants(table: dict[int, tuple[int, int]], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def bot_processes(table: dict[int, tuple[int, int]], root: int) -> set[int]:
    """A started bot's processes: its leader ``root``, every process of its session (the
    arena starts each bot in a session of its own, which a double fork does not leave) and
    every descendant (which a ``setsid`` grandchild is, while its parent lives)."""
    session = {pid for pid, (_, sid) in table.items() if sid == root}
    return {root} | session | _descendants(table, root)


def _socket_inodes(pids: Iterable[int]) -> dict[int, int]:
    """socket inode -> one pid of ``pids`` holding it."""
    held: dict[int, int] = {}
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError as exc:
            _starved(exc)
            continue  # gone meanwhile
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError as exc:
                _starved(exc)
                continue
            if target.startswith("socket:["):
                held.setdefault(int(target[8:-1]), pid)
    return held


def holders(
    socks: Sequence[socket.socket], roots: Collection[int], *, arena: bool
) -> list[int | Holder]:
    """Who holds each connection's client end: the root pid of the bot in ``roots`` whose
    processes hold it, :attr:`Holder.ARENA` (with ``arena``: any other descendant of this
    process), :attr:`Holder.STRANGER` or :attr:`Holder.GONE`.

    The arena's own process is no bot: a connection it made itself counts as a stranger's.
    Raises :class:`LookupStarved` when the arena could not look.
    """
    inodes = client_inodes(socks)
    result: list[int | Holder] = [
        Holder.GONE if inode is None else Holder.STRANGER for inode in inodes
    ]
    if all(inode is None for inode in inodes) or (not roots and not arena):
        return result
    table = _process_table()
    owner: dict[int, int | Holder] = {}
    seen: set[int] = set()
    for root in roots:
        pids = bot_processes(table, root) - seen
        seen |= pids
        for inode in _socket_inodes(pids):
            owner.setdefault(inode, root)
    if arena:
        for inode in _socket_inodes(_descendants(table, os.getpid()) - seen):
            owner.setdefault(inode, Holder.ARENA)
    for index, inode in enumerate(inodes):
        if inode is not None and inode in owner:
            result[index] = owner[inode]
    return result
