"""Any bot, made slow to start: nothing it writes reaches the arena before N seconds.

``python -m arena_kernel.testing.slow_start SECONDS -- COMMAND...`` runs COMMAND and relays its
messages, holding back whatever the bot writes until SECONDS after the start: from the
arena's side, a bot whose first reply takes that long (a cold JVM, a Racket course bot
compiled from source, an interpreter on a busy machine). A game that honours the start-up
clock plays such a bot normally when ``startup`` exceeds SECONDS.

Over stdio the wrapper sits on the bot's stdin and stdout. Over TCP (``ARENA_PORT`` in its
environment, as the ``tcp`` transport starts bots) it connects to the arena AT ONCE, so the
delay falls on the first reply and not on connecting, listens on a port of its own, and
starts COMMAND with every argument equal to the arena's port, and ``ARENA_PORT``, changed
to that port; it relays between the two connections.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable


def relay(read: Callable[[], bytes], write: Callable[[bytes], None], hold_until: float) -> None:
    """Copy until the end of the input; nothing is written before ``hold_until``."""
    while data := read():
        delay = hold_until - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        write(data)


def write_all(fd: int) -> Callable[[bytes], None]:
    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]

    return write


def over_stdio(command: list[str], hold_until: float) -> int:
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    stdin, stdout = bot.stdin, bot.stdout
    assert stdin is not None and stdout is not None
    to_bot, from_bot = stdin.fileno(), stdout.fileno()

    def downstream() -> None:
        relay(lambda: os.read(0, 65536), write_all(to_bot), 0.0)
        stdin.close()

    threading.Thread(target=downstream, daemon=True).start()
    with contextlib.suppress(BrokenPipeError):
        relay(lambda: os.read(from_bot, 65536), write_all(1), hold_until)
    return bot.wait()


def over_tcp(command: list[str], hold_until: float, host: str, port: str) -> int:
    arena = socket.create_connection((host, int(port)))
    listener = socket.create_server(("127.0.0.1", 0))
    own_port = str(listener.getsockname()[1])
    argv = [own_port if arg == port else arg for arg in command]
    bot = subprocess.Popen(argv, env={**os.environ, "ARENA_PORT": own_port})
    listener.settimeout(30)
    client, _ = listener.accept()
    listener.close()

    def downstream() -> None:
        relay(lambda: arena.recv(65536), client.sendall, 0.0)
        client.shutdown(socket.SHUT_WR)

    threading.Thread(target=downstream, daemon=True).start()
    try:
        relay(lambda: client.recv(65536), arena.sendall, hold_until)
        arena.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    return bot.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description="Run a bot whose first words take SECONDS.")
    parser.add_argument("seconds", type=float)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND...")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command to run")
    hold_until = time.monotonic() + args.seconds
    port = os.environ.get("ARENA_PORT")
    if port is None:
        raise SystemExit(over_stdio(command, hold_until))
    raise SystemExit(over_tcp(command, hold_until, os.environ.get("ARENA_HOST", "127.0.0.1"), port))


if __name__ == "__main__":
    main()
