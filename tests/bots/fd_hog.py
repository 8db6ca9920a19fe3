"""A stranger that holds as many connections to the arena's port as it can.

``fd_hog.py PORT CONNECTIONS SECONDS REPORT``: keeps up to CONNECTIONS connections to
127.0.0.1:PORT open, opening a new one whenever the arena closes one (at most 20000 in
all), reads whatever arrives on them, and after SECONDS seconds (or on SIGTERM) writes
``{"opened": N, "received": BYTES}`` to REPORT. Before arena's fail-closed seats, a
stranger holding 1100 connections under ``ulimit -n 1024`` silently played a seat: the
arena, out of descriptors, could no longer read /proc and took the connection anyway.

Loopback only, bounded: harmless without a sandbox.
"""

from __future__ import annotations

import errno
import json
import selectors
import signal
import socket
import sys
import time

port, wanted, seconds, report = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
stop = False


def on_term(*_: object) -> None:
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
selector = selectors.DefaultSelector()
opened = received = 0
until = time.monotonic() + seconds
while not stop and time.monotonic() < until:
    while len(selector.get_map()) < wanted and opened < 20000:
        sock = socket.socket()
        sock.setblocking(False)
        code = sock.connect_ex(("127.0.0.1", port))
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            break
        opened += 1
        selector.register(sock, selectors.EVENT_READ)
    for key, _ in selector.select(timeout=0.05):
        sock = key.fileobj
        try:
            data = sock.recv(65536)
        except OSError:
            data = b""
        received += len(data)
        if not data:
            selector.unregister(sock)
            sock.close()
    if opened >= 20000 and not selector.get_map():
        break
with open(report, "w") as out:
    json.dump({"opened": opened, "received": received}, out)
