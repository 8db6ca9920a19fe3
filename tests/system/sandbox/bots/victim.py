"""The hostile bots' opponent (tests/system/sandbox/test_hostile_catalog.py): a well-behaved Nim
bot, written from the test game's protocol (kernel/arena_kernel/testing/nim.py), whose
source holds a secret the tests look for in what the hostile bot printed.

When ``$KEEP_NOTE_IN`` names a folder, it first writes a note there that only its own
user may read. When ``$POST_PORT_TO`` names a folder, it also listens on 127.0.0.1 (a
service of its own, as a bot's debugging port would be), posts the port there for its
opponent to find, and says on stderr when a connection arrives.
"""

import os
import socket
import sys

SECRET = "victim's secret opening book: 0c5e7a"
NOTE = "victim's private note: 9d41b2"


def listen(mailbox: str) -> socket.socket:
    server = socket.create_server(("127.0.0.1", 0))
    server.setblocking(False)
    posting = os.path.join(mailbox, "port.new")
    with open(posting, "w") as f:
        f.write(str(server.getsockname()[1]))
    os.replace(posting, os.path.join(mailbox, "port"))
    return server


def check(server: socket.socket | None) -> None:
    if server is None:
        return
    try:
        server.accept()[0].close()
    except BlockingIOError:
        return
    print("victim: a connection arrived", file=sys.stderr, flush=True)


def keep_note(mailbox: str) -> None:
    """A file of its own in the folder both bots may write, that only it may read."""
    posting = os.path.join(mailbox, "note.new")
    fd = os.open(posting, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(NOTE)
    os.replace(posting, os.path.join(mailbox, "note"))


def main() -> None:
    print(f"victim uid: {os.getuid()}", file=sys.stderr, flush=True)
    if note_to := os.environ.get("KEEP_NOTE_IN"):
        keep_note(note_to)
    mailbox = os.environ.get("POST_PORT_TO")
    server = listen(mailbox) if mailbox else None
    for line in sys.stdin:
        words = line.split()
        check(server)
        if words[:1] == ["move"]:
            print(f"take {int(words[1]) % 4 or 1}", flush=True)


if __name__ == "__main__":
    main()
