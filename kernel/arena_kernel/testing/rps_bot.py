"""RPS bot as a program.

``python -m arena_kernel.testing.rps_bot random|rock [--seed N] [--tcp HOST PORT]``
"""

from arena_kernel.plugin import LineCodec, main
from arena_kernel.testing.rps import RpsBot

if __name__ == "__main__":
    main(
        lambda args: RpsBot(args.strategy, args.seed),
        LineCodec(),
        configure=lambda p: p.add_argument("strategy", choices=["random", "rock"]),
        seeded=True,
    )
