"""A scripted bot: a real process whose every answer is written in a test.

``python -m arena_kernel.testing.scripted STEPS_JSON [--framing line|raw] [--only PREFIX]
[--tcp HOST PORT]``. For each message the bot reads, it performs the next step (the last
step repeats); with ``--only``, only messages starting with PREFIX take a step (the
requests of a protocol that also sends notifications), the others are read and ignored:

- ``{"reply": "text"}``: answer ``text`` (``--framing raw``: no newline);
- ``{"sleep": 5, "reply": ...}``: wait first (a bot that misses its deadline);
- ``{"burn": 0.15, "reply": ...}``: first use that many seconds of CPU time in a busy loop
  (as long as that takes by the wall clock on a busy machine); with ``"child": true``, a
  forked child does the burning while the bot waits for it;
- ``{"silent": true}``: read and say nothing;
- ``{"exit": 3}``: exit at once with that status (a crash mid-game);
- ``{"bytes": "..."}``: write exactly these bytes (latin-1 text, e.g. invalid UTF-8);
- ``{"flood": 10485760}``: write that many bytes in one line (an oversize message);
- ``{"fork": true}``: fork a child that keeps the output open and sleeps, then exit;
- ``{"stderr": "text"}``: also write ``text`` to stderr (combine with any other key).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from collections.abc import Callable
from typing import Any


def command(steps: list[dict[str, Any]]) -> tuple[str, ...]:
    """The command that runs a scripted bot with ``steps``, on the arena's own Python."""
    return (sys.executable, "-m", "arena_kernel.testing.scripted", json.dumps(steps))


def burn(seconds: float) -> None:
    """Use ``seconds`` of this process's CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def perform(step: dict[str, Any], write: Callable[[bytes], None], terminator: bytes) -> None:
    if "stderr" in step:
        sys.stderr.write(step["stderr"])
        sys.stderr.flush()
    if "sleep" in step:
        time.sleep(step["sleep"])
    if "burn" in step:
        if not step.get("child"):
            burn(step["burn"])
        elif (child := os.fork()) == 0:
            burn(step["burn"])
            os._exit(0)
        else:
            os.waitpid(child, 0)
    if "exit" in step:
        os._exit(step["exit"])
    if step.get("fork"):
        if os.fork() == 0:
            time.sleep(3600)
        os._exit(0)
    if "bytes" in step:
        write(step["bytes"].encode("latin-1"))
    if "flood" in step:
        chunk = b"x" * 65536
        left = step["flood"]
        while left > 0:
            write(chunk[:left])
            left -= len(chunk)
        write(b"\n")
    if "reply" in step:
        write(step["reply"].encode() + terminator)


def write_stdout(data: bytes) -> None:
    """Unbuffered: every step's bytes leave at once, as one write where possible."""
    view = memoryview(data)
    while view:
        view = view[os.write(1, view) :]


def main() -> None:
    parser = argparse.ArgumentParser(description="A bot that follows a script.")
    parser.add_argument("steps", help="JSON list of steps")
    parser.add_argument("--framing", choices=["line", "raw"], default="line")
    parser.add_argument("--only", default="", help="only messages with this prefix take a step")
    parser.add_argument("--tcp", nargs=2, metavar=("HOST", "PORT"))
    args = parser.parse_args()
    steps = json.loads(args.steps)
    terminator = b"\n" if args.framing == "line" else b""
    only = args.only.encode()
    read: Callable[[], bytes]
    write: Callable[[bytes], None]
    if args.tcp:
        sock = socket.create_connection((args.tcp[0], int(args.tcp[1])))
        read, write = (lambda: sock.recv(65536)), sock.sendall
    else:
        read, write = (lambda: os.read(0, 65536)), write_stdout

    buffer = b""
    turn = 0
    while chunk := read():
        buffer += chunk
        if args.framing == "line":
            *messages, buffer = buffer.split(b"\n")
        else:
            messages, buffer = [buffer], b""
        for message in messages:
            if not message.startswith(only):
                continue
            perform(steps[min(turn, len(steps) - 1)], write, terminator)
            turn += 1


if __name__ == "__main__":
    main()
