"""Nim bot as a program.

``python -m arena_kernel.testing.nim_bot optimal|random [--seed N] [--tcp HOST PORT]``
"""

from arena_kernel.plugin import LineCodec, main
from arena_kernel.testing.nim import NimBot

if __name__ == "__main__":
    main(
        lambda args: NimBot(args.strategy, args.seed),
        LineCodec(),
        configure=lambda p: p.add_argument("strategy", choices=["optimal", "random"]),
        seeded=True,
    )
