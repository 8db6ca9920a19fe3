"""The hostile bots' opponent (tests/sandbox/test_hostile_catalog.py): a well-behaved Nim
bot, written from the test game's protocol (kernel/testing/nim.py), whose source holds a
secret the tests look for in what the hostile bot printed.

When ``$POST_PORT_TO`` names a folder, it also listens on 127.0.0.1 (a service of its own,
as a bot's debugging port would be), posts the port there for its opponent to find, and
says on stderr when a connection arrives.
"""

import os
import socket
import sys

SECRET = "victim's secret opening book: 0c5e7a"


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


def main() -> None:
    mailbox = os.environ.get("POST_PORT_TO")
    server = listen(mailbox) if mailbox else None
    for line in sys.stdin:
        words = line.split()
        check(server)
        if words[:1] == ["move"]:
            print(f"take {int(words[1]) % 4 or 1}", flush=True)


if __name__ == "__main__":
    main()
