"""Who holds the client end of a TCP connection the arena accepted (Linux).

Arrival order cannot tell a bot the arena started from anyone else who connects at the same
moment, and neither can an address: every process on the machine connects from 127.0.0.1.
Linux can: the kernel's socket diagnostics (``NETLINK_SOCK_DIAG``, or ``/proc/net/tcp``)
name the socket (inode) at the client end of a connection, and ``/proc/PID/fd`` says which
processes hold it. Together they tie a connection to a bot by fact, never by trust.

Every answer is a fact or :class:`LookupStarved`. A connection already reset is
:attr:`Holder.GONE` and one that no process the arena started holds is
:attr:`Holder.STRANGER`: the caller gives neither to a started bot (it fails closed).
``LookupStarved`` is the one answer that means "ask again": the arena itself ran out of
file descriptors or memory while looking, which says nothing about the connection.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import socket
import struct
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from arena_kernel.processes.procfs import no_new_privs

SHORTAGES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
"""``errno`` values that mean the arena is short of a resource, not that something is wrong
with what it looked at."""


class LookupStarved(Exception):
    """The arena could not look (out of file descriptors or memory): ask again later."""


class Holder(Enum):
    """Who holds a connection's client end, when it is none of the bots asked about."""

    GONE = "gone"
    """Nobody: the client reset it before the arena looked."""
    STRANGER = "stranger"
    """A process the arena did not start (or, when not asked about them, any other), or
    a client on another machine."""
    ARENA = "arena"
    """Another process the arena started: a bot that is not waiting for this connection."""


def _starved(exc: OSError) -> None:
    """Turn the arena's own shortage into :class:`LookupStarved`; other errors are facts."""
    if exc.errno in SHORTAGES:
        raise LookupStarved(os.strerror(exc.errno)) from None


Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def ip_address(host: str) -> Address:
    """An address as a socket reports it; an IPv4 client of an IPv6 listener as IPv4."""
    address = ipaddress.ip_address(host.split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def peer_address(sock: socket.socket) -> Address | None:
    """The address a connection comes from, or None once it is reset."""
    try:
        return ip_address(sock.getpeername()[0])
    except OSError:
        return None


@dataclass(frozen=True)
class _Ends:
    """Both ends of an accepted connection: the client's and the arena's."""

    client: Address
    client_port: int
    server: Address
    server_port: int


def _ends(sock: socket.socket) -> _Ends | None:
    """The connection's two ends, or None when it is no longer connected (reset)."""
    try:
        client, server = sock.getpeername(), sock.getsockname()
    except OSError:
        return None
    return _Ends(ip_address(client[0]), client[1], ip_address(server[0]), server[1])


NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLMSG_ERROR = 2
TCP_LISTEN = 10
NO_COOKIE = 0xFFFFFFFF


class _SocketDiag:
    """Exact look-ups of TCP sockets by address through ``NETLINK_SOCK_DIAG`` (what ``ss``
    uses): a hash look-up in the kernel, where reading ``/proc/net/tcp`` walks every
    bucket of the connection table (tens of milliseconds of the event loop, every time)."""

    def __init__(self) -> None:
        self._sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG)
        self._seq = 0

    def close(self) -> None:
        self._sock.close()

    def inode(self, ends: _Ends) -> int | None:
        """The inode of the socket whose local end is the client's (None: none here)."""
        family = socket.AF_INET if ends.client.version == 4 else socket.AF_INET6
        self._seq += 1
        request = struct.pack("=BBBBI", family, socket.IPPROTO_TCP, 0, 0, 0xFFFFFFFF)
        request += struct.pack(">HH", ends.client_port, ends.server_port)
        request += ends.client.packed.ljust(16, b"\0") + ends.server.packed.ljust(16, b"\0")
        request += struct.pack("=III", 0, NO_COOKIE, NO_COOKIE)
        header = struct.pack("=IHHII", 16 + len(request), SOCK_DIAG_BY_FAMILY, 1, self._seq, 0)
        self._sock.send(header + request)
        answer = self._sock.recv(8192)
        if struct.unpack_from("=H", answer, 4)[0] == NLMSG_ERROR or len(answer) < 88:
            return None  # no such socket: not a local client, or gone
        state, inode = answer[17], struct.unpack_from("=I", answer, 84)[0]
        # The kernel falls back to a listener on that address; a closed socket has inode 0.
        return inode if inode and state != TCP_LISTEN else None


def _proc_spelling(address: Address, port: int) -> str:
    """An address as ``/proc/net/tcp{,6}`` writes it: host bytes in kernel order, hex."""
    packed = address.packed
    words = [packed[i : i + 4][::-1] for i in range(0, len(packed), 4)]
    return f"{b''.join(words).hex().upper()}:{port:04X}"


def _proc_inodes(ends: Sequence[_Ends | None]) -> list[int | None]:
    """:func:`client_inodes` from ``/proc/net/tcp{,6}``, where netlink is not available."""
    wanted = {
        (_proc_spelling(e.client, e.client_port), _proc_spelling(e.server, e.server_port)): i
        for i, e in enumerate(ends)
        if e is not None
    }
    tables = {f"/proc/net/tcp{'' if e.client.version == 4 else '6'}" for e in ends if e}
    found: list[int | None] = [None] * len(ends)
    for table in sorted(tables):
        try:
            with open(table) as rows:
                next(rows, None)
                for row in rows:
                    fields = row.split()
                    index = wanted.get((fields[1], fields[2])) if len(fields) > 9 else None
                    if index is not None and fields[9] != "0":
                        found[index] = int(fields[9])
        except OSError as exc:
            _starved(exc)  # any other failure: nothing found, so nothing proven
    return found


def client_inodes(ends: Sequence[_Ends | None]) -> list[int | None]:
    """The inode of each connection's CLIENT socket, or None when no socket of this
    machine is its client end (a remote client, or one already gone)."""
    try:
        diag = _SocketDiag()
    except OSError as exc:
        _starved(exc)
        return _proc_inodes(ends)  # a kernel or sandbox without sock_diag
    try:
        return [None if e is None else diag.inode(e) for e in ends]
    except OSError as exc:
        _starved(exc)
        raise
    finally:
        diag.close()


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


def _bots_of_arena(table: dict[int, tuple[int, int]]) -> set[int]:
    """The arena's descendants that are bots' processes: they carry the bots' mark,
    ``no_new_privs`` (see :mod:`arena_kernel.processes.reaper`), which no process can drop. A
    descendant without it is no bot: a bot run by someone else from the same script, a
    worker. Where the arena itself runs with ``no_new_privs`` (some containers), everything
    carries the mark and every descendant counts."""
    below = _descendants(table, os.getpid())
    if no_new_privs(os.getpid()):
        return below
    return {pid for pid in below if no_new_privs(pid)}


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
    process that is a bot's), :attr:`Holder.STRANGER` (no bot's process, or a client on
    another machine) or :attr:`Holder.GONE` (reset already).

    The arena's own process is no bot: a connection it made itself counts as a stranger's.
    Raises :class:`LookupStarved` when the arena could not look.
    """
    ends = [_ends(sock) for sock in socks]
    inodes = client_inodes(ends)
    result: list[int | Holder] = [Holder.GONE if end is None else Holder.STRANGER for end in ends]
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
        for inode in _socket_inodes(_bots_of_arena(table) - seen):
            owner.setdefault(inode, Holder.ARENA)
    for index, client in enumerate(inodes):
        if client is not None and client in owner:
            result[index] = owner[client]
    return result
