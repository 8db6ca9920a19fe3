"""Nim bot as a program: ``python -m kernel.testing.nim_bot optimal|random [--tcp HOST PORT]``."""

from kernel.bots.serve import main
from kernel.codecs.line import LineCodec
from kernel.testing.nim import NimBot

if __name__ == "__main__":
    main(
        lambda args: NimBot(args.strategy),
        LineCodec(),
        configure=lambda p: p.add_argument("strategy", choices=["optimal", "random"]),
    )
