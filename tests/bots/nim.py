"""A Nim bot as a plain Python program (it imports nothing of arena), written from the test
game's protocol (kernel/arena_kernel/testing/nim.py): it answers ``move <pile>`` with ``take <k>``,
leaving a multiple of four when it can.

First it writes to stderr what the sandbox tests read (tests/system/sandbox): its process id, how
many seccomp filters it runs under and, when ``$SANDBOX_PEEK`` names a file, whether it can
see that file.
"""

import os
import sys


def filters() -> str:
    with open("/proc/self/status") as status:
        return next(line.split()[1] for line in status if line.startswith("Seccomp_filters:"))


def report() -> None:
    line = f"pid {os.getpid()}, filters {filters()}"
    peek = os.environ.get("SANDBOX_PEEK")
    if peek:
        line += f", {peek} {'visible' if os.path.exists(peek) else 'hidden'}"
    print(line, file=sys.stderr, flush=True)


def main() -> None:
    report()
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["move"]:
            print(f"take {int(words[1]) % 4 or 1}", flush=True)


if __name__ == "__main__":
    main()
