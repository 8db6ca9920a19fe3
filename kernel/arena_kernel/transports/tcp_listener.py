"""One listening socket of the ``tcp`` transport and the seats waiting for a connection on it.

A connection gets a seat only when it is proven to be that seat's (fail closed):

- a seat of a bot the arena started (a *launch*) takes a connection whose client end a
  process of that bot holds (:func:`arena_kernel.transports.connection_holders.holders`);
- a ``connect = true`` seat takes the first connection that nobody the arena started made
  (first come, first served), from the one peer address it may be bound to.

Everything else is closed: connections of the arena's other bots, connections already gone,
and connections nobody claims (at once where no ``connect`` seat can ever want them, else
after :data:`UNCLAIMED_GRACE`, at most :data:`MAX_WAITING` at a time). When the arena
itself is short of file descriptors it neither accepts nor decides: it backs off and tries
again, and the waiting seats remember why (:attr:`Claim.starved`), so that a seat lost to
it is the arena's failure, not the bot's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import time
from collections import deque
from dataclasses import dataclass

from arena_kernel.transports.connection_holders import (
    SHORTAGES,
    Address,
    Holder,
    LookupStarved,
    holders,
    peer_address,
)

RETRY = 0.1
"""Seconds before accepting or looking again after the arena ran short of descriptors."""

UNCLAIMED_GRACE = 10.0
"""Seconds a connection that no seat claims is kept for a ``connect = true`` seat."""

MAX_WAITING = 64
"""Connections kept for a ``connect`` seat that may claim them; past it, newcomers are
closed (first come, first served). A newcomer is only closed unseen while no seat waits:
it could be the connection of a bot being started."""

ACCEPT_BATCH = 64
"""Connections accepted per readiness event, then checked together (one look at the
processes of the machine for all of them)."""


@dataclass(eq=False)
class Claim:
    """A seat waiting for its connection.

    ``owner``: the pid of the started bot whose processes must hold the connection, or None
    for a ``connect = true`` seat, which takes a stranger's (from ``peer`` only, if set).
    ``starved`` says why the arena could not accept or check connections while the seat
    waited (None: it always could).
    """

    owner: int | None
    peer: Address | None
    connection: asyncio.Future[socket.socket]
    starved: str | None = None


@dataclass(eq=False)
class _Waiting:
    """An accepted connection not given to any seat yet."""

    sock: socket.socket
    since: float
    peer: Address | None
    holder: int | Holder | None = None
    """Who holds its client end (None: not looked at yet)."""
    watched: bool = False


class Listener:
    """A listening socket that hands each connection to the seat it is proven to be for.

    ``keep_strangers``: connections that no started bot made are kept (a while) for
    ``connect = true`` seats that may claim them later; without it they are closed as soon
    as they are seen, as on a launched bot's own port.
    """

    def __init__(self, sock: socket.socket, *, keep_strangers: bool) -> None:
        self._sock = sock
        self._keep_strangers = keep_strangers
        self._loop = asyncio.get_running_loop()
        self._claims: list[Claim] = []
        self._waiting: deque[_Waiting] = deque()
        self._retry: asyncio.TimerHandle | None = None
        self._sweep: asyncio.TimerHandle | None = None
        self._accepting = True
        self.closed = False
        self.port: int = sock.getsockname()[1]
        """The port listened on (the system's choice for port 0)."""
        sock.setblocking(False)
        self._loop.add_reader(sock.fileno(), self._accept)

    # -- seats ------------------------------------------------------------------------

    def claim(self, *, owner: int | None, peer: Address | None = None) -> Claim:
        """Wait for the connection of a started bot (``owner``) or a ``connect`` seat."""
        claim = Claim(owner, peer, self._loop.create_future())
        self._claims.append(claim)
        self._match()
        return claim

    def release(self, claim: Claim) -> socket.socket | None:
        """Stop waiting: the connection the seat got, or None."""
        with contextlib.suppress(ValueError):
            self._claims.remove(claim)
        future = claim.connection
        if not future.done():
            future.cancel()
            return None
        if future.cancelled() or future.exception() is not None:
            return None
        return future.result()

    # -- accepting --------------------------------------------------------------------

    def _accept(self) -> None:
        accepted = 0
        while accepted < ACCEPT_BATCH:
            try:
                sock, _ = self._sock.accept()
            except (BlockingIOError, InterruptedError):
                break
            except ConnectionAbortedError:
                continue  # gone before we took it
            except OSError as exc:
                if exc.errno in SHORTAGES and self._shed():
                    continue
                self._back_off(f"cannot accept connections: {os.strerror(exc.errno or 0)}")
                break
            sock.setblocking(False)
            if sock.family in (socket.AF_INET, socket.AF_INET6):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            accepted += 1
            if not self._claims and len(self._waiting) >= MAX_WAITING:
                sock.close()
                continue
            waiting = _Waiting(sock, time.monotonic(), peer_address(sock))
            self._waiting.append(waiting)
            self._watch(waiting)
        if accepted:
            self._match()

    def _shed(self) -> bool:
        """Out of descriptors: close the connections kept for nobody in particular first."""
        strangers = [
            w
            for w in self._waiting
            if w.holder is Holder.STRANGER or (w.holder is None and not self._claims)
        ]
        for waiting in strangers:
            self._drop(waiting)
        return bool(strangers)

    def _back_off(self, reason: str) -> None:
        """Stop accepting for a moment (the listener stays readable: retrying at once would
        spin); the connections wait in the kernel's backlog, undecided."""
        self._starve(reason)
        if self._accepting:
            self._accepting = False
            self._loop.remove_reader(self._sock.fileno())
            self._loop.call_later(RETRY, self._resume)

    def _resume(self) -> None:
        if not self.closed and not self._accepting:
            self._accepting = True
            self._loop.add_reader(self._sock.fileno(), self._accept)

    def _starve(self, reason: str) -> None:
        for claim in self._claims:
            claim.starved = claim.starved or reason

    # -- handing out ------------------------------------------------------------------

    def _match(self) -> None:
        """Give waiting connections to the seats they are proven to be for; close the rest
        that nobody can want; keep strangers for ``connect`` seats."""
        if self.closed:
            return
        if self._claims and not self._identify():
            return
        launches = {c.owner: c for c in self._claims if c.owner is not None}
        for waiting in list(self._waiting):
            holder = waiting.holder
            if holder is None:
                continue  # nobody asked yet: looked at when a seat claims
            if holder is Holder.STRANGER:
                external = self._external_for(waiting)
                if external is not None:
                    self._give(waiting, external)
                elif not self._keep_strangers:
                    self._drop(waiting)
            elif isinstance(holder, int) and holder in launches:
                self._give(waiting, launches.pop(holder))
            else:
                self._drop(waiting)  # gone, or another started bot's extra connection
        for waiting in list(self._waiting)[MAX_WAITING:]:
            self._drop(waiting)
        self._schedule_sweep()

    def _identify(self) -> bool:
        """Look up who holds every connection not looked at yet; False when the arena could
        not look (it tries again shortly)."""
        unknown = [w for w in self._waiting if w.holder is None]
        if not unknown:
            return True
        roots = [c.owner for c in self._claims if c.owner is not None]
        try:
            found = holders([w.sock for w in unknown], roots, arena=self._keep_strangers)
        except LookupStarved as exc:
            self._starve(f"cannot tell who made a connection: {exc}")
            if self._retry is None:
                self._retry = self._loop.call_later(RETRY, self._retry_match)
            return False
        for waiting, holder in zip(unknown, found, strict=True):
            waiting.holder = holder
        return True

    def _retry_match(self) -> None:
        self._retry = None
        self._match()

    def _external_for(self, waiting: _Waiting) -> Claim | None:
        return next(
            (
                c
                for c in self._claims
                if c.owner is None
                and not c.connection.done()
                and (c.peer is None or c.peer == waiting.peer)
            ),
            None,
        )

    def _give(self, waiting: _Waiting, claim: Claim) -> None:
        self._forget(waiting)
        self._claims.remove(claim)
        claim.connection.set_result(waiting.sock)

    def _drop(self, waiting: _Waiting) -> None:
        self._forget(waiting)
        waiting.sock.close()

    def _forget(self, waiting: _Waiting) -> None:
        self._waiting.remove(waiting)
        if waiting.watched:
            self._loop.remove_reader(waiting.sock.fileno())
            waiting.watched = False

    # -- connections kept for connect seats -------------------------------------------

    def _watch(self, waiting: _Waiting) -> None:
        """Close a waiting connection as soon as its client hangs up (a connect/close loop
        must not pile up sockets in CLOSE_WAIT). What it sent stays unread for its seat."""
        waiting.watched = True
        self._loop.add_reader(waiting.sock.fileno(), self._peek, waiting)

    def _peek(self, waiting: _Waiting) -> None:
        try:
            data = waiting.sock.recv(1, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            # It said something (a greeting) and is alive: stop watching, or the readable
            # socket would wake us for ever; the grace still ends it.
            self._loop.remove_reader(waiting.sock.fileno())
            waiting.watched = False
        else:
            self._drop(waiting)

    def _schedule_sweep(self) -> None:
        if self._sweep is None and self._waiting:
            oldest = min(w.since for w in self._waiting)
            delay = max(oldest + UNCLAIMED_GRACE - time.monotonic(), 0.0)
            self._sweep = self._loop.call_later(delay, self._sweep_unclaimed)

    def _sweep_unclaimed(self) -> None:
        self._sweep = None
        expired = time.monotonic() - UNCLAIMED_GRACE
        for waiting in [w for w in self._waiting if w.since <= expired]:
            self._drop(waiting)
        self._schedule_sweep()

    # -- the end ----------------------------------------------------------------------

    def close(self, reason: str = "the listener was closed") -> None:
        """Stop listening: connections not given to a seat are closed, waiting seats fail."""
        if self.closed:
            return
        self.closed = True
        if self._accepting:
            self._loop.remove_reader(self._sock.fileno())
        self._sock.close()
        for timer in (self._retry, self._sweep):
            if timer is not None:
                timer.cancel()
        for waiting in list(self._waiting):
            self._drop(waiting)
        for claim in self._claims:
            if not claim.connection.done():
                claim.connection.set_exception(ConnectionAbortedError(reason))
        self._claims.clear()


def open_listener(host: str, port: int, *, keep_strangers: bool) -> Listener:
    """Listen on ``host:port`` (0: any free port); OSError as ``socket`` raises it."""
    family, _, _, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.create_server(address, family=family, backlog=128)
    try:
        return Listener(sock, keep_strangers=keep_strangers)
    except BaseException:
        sock.close()
        raise


def describe_os_error(exc: OSError) -> str:
    """An OSError's reason, without the address ``create_server`` appends to it."""
    if exc.errno is None or exc.errno < 0:
        return str(exc.strerror or exc)  # a name lookup error (gaierror)
    return os.strerror(exc.errno)
