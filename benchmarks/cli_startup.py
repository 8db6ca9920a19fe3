"""How long the ``arena`` command takes to start: ``arena --help``, ``arena plugins``.

    python benchmarks/cli_startup.py [--trials 21]

Each trial runs ``arena --help``, ``arena plugins`` and, as the baseline in the same run,
``python -c pass`` (the interpreter's own start-up, site-packages and the editable
installs' finders included), in an order shuffled per trial so that a busy moment of the
machine does not land on one command only. The report gives medians and the spread
between the quartiles. ``arena --help`` imports no plugin and no game; ``arena plugins``
imports every installed plugin, so it grows with them.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from statistics import median, quantiles


def arena_command() -> list[str]:
    """The installed ``arena`` script next to this interpreter (what users run), or
    ``python -m arena_kernel.cli.main`` when there is none."""
    script = Path(sys.executable).with_name("arena")
    return [str(script)] if script.exists() else [sys.executable, "-m", "arena_kernel.cli.main"]


def timed(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=21)
    trials = parser.parse_args().trials
    arena = arena_command()
    commands = {
        "python -c pass (baseline)": [sys.executable, "-c", "pass"],
        "arena --help": [*arena, "--help"],
        "arena plugins": [*arena, "plugins"],
    }
    times: dict[str, list[float]] = {label: [] for label in commands}
    for argv in commands.values():
        timed(argv)  # warm the file cache before measuring
    for _ in range(trials):
        order = list(commands.items())
        random.shuffle(order)
        for label, argv in order:
            times[label].append(timed(argv))
    print(f"{trials} trials, {os.cpu_count()} CPUs, {' '.join(arena)}")
    print(f"{'command':28} {'median s':>9} {'q1-q3 s':>13}")
    for label, samples in times.items():
        q1, _, q3 = quantiles(samples, n=4)
        print(f"{label:28} {median(samples):9.3f} {q1:6.3f}-{q3:6.3f}")


if __name__ == "__main__":
    main()
