"""Duel bot as a program: ``python -m arena_kernel.testing.duel_bot ELO [--tcp HOST PORT]``."""

from arena_kernel.plugin import LineCodec, main
from arena_kernel.testing.duel import DuelBot

if __name__ == "__main__":
    main(
        lambda args: DuelBot(args.elo),
        LineCodec(),
        configure=lambda p: p.add_argument("elo", type=float),
    )
