"""A tcp bot's seat inside its own network namespace.

A sandboxed bot without the machine's network has a namespace of its own with nothing but
a loopback interface, so it cannot reach the arena's port outside. Instead of opening a
way out (a forwarded port, a relay process that copies every byte), the listener is made
inside: a few lines of Python run first in the sandbox, listen on the loopback address and
port the bot was told, hand the listening socket to the arena over an inherited Unix socket
(``SCM_RIGHTS``), and ``exec`` the bot. The arena accepts on that socket from outside. Only
the bot's own processes live in that namespace, so any connection there is the bot's: no
one else can reach the seat, and the bot can reach no one else (no other bot, no service
of the machine). After the hand-over nothing of the helper is left running.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from arena_kernel.sandbox.runtime import installation

LOOPBACK = {False: "127.0.0.1", True: "::1"}
"""The loopback address a sandboxed tcp bot connects to, by whether the arena's host is
IPv6."""

_HELPER = """
import os, socket, sys
channel, host, port, argv = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[5:]
family = socket.AF_INET6 if ":" in host else socket.AF_INET
try:
    server = socket.socket(family, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, port))
    server.listen(16)
except OSError as exc:
    sys.exit(f"arena: cannot listen on {host}:{port} in the sandbox: {exc}")
port = server.getsockname()[1]
with socket.socket(fileno=channel) as arena:
    socket.send_fds(arena, [str(port).encode()], [server.fileno()])
server.close()
os.environ["ARENA_PORT"] = str(port)
argv = [arg.replace("{port}", str(port)) for arg in argv]
try:
    os.execvp(argv[0], argv)
except OSError as exc:
    sys.exit(f"arena: cannot start {argv[0]}: {exc.strerror}")
"""


def interpreter() -> str:
    """The Python that runs the helper: the real file, so that no virtual environment needs
    to be visible in the sandbox (``-I -S``: nothing but the standard library)."""
    return os.path.realpath(sys.executable)


def needs() -> tuple[Path, ...]:
    """What the helper needs to see: its interpreter's installation and standard library."""
    return (installation(Path(interpreter())), Path(sys.base_prefix))


def helper_command(argv: list[str], channel: int, host: str, port: int) -> list[str]:
    """``argv`` (its ``{port}`` still to fill) behind the helper, which listens on
    ``host:port`` (0: any port) and sends the socket through file descriptor ``channel``."""
    return [interpreter(), "-I", "-S", "-c", _HELPER, str(channel), host, str(port), "--", *argv]
