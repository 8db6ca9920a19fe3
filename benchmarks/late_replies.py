"""Are late replies refused while many games start and end at once?

    python benchmarks/late_replies.py [--games 960] [--concurrency 16] [--late 0.25]

Plays Nim through the real runner: in every game a scripted bot answers its first move at
once and its second one ``--late`` seconds after the request, against a reply limit of
0.2 s with no grace, while ``--concurrency`` games run at once, so bots are started and
ended all the time. Every second reply is late by construction; the report counts how
many the referee accepted anyway (it must be 0), and the longest time recorded for a
reply it accepted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from arena_kernel.runner.api import run_match
from arena_kernel.testing.results import stored_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=960)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--late", type=float, default=0.25, help="seconds to the late reply")
    args = parser.parse_args()
    steps = [{"reply": "take 1"}, {"sleep": args.late, "reply": "take 1"}]
    late_bot = [sys.executable, "-m", "arena_kernel.testing.scripted", json.dumps(steps)]
    late_bot += ["--only", "move"]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "late.toml"
        path.write_text(
            textwrap.dedent(
                f"""
                plugins = ["arena_kernel.testing.games"]
                game = "nim"
                format = "gauntlet"
                challenger = "late"
                games = {args.games}
                concurrency = {args.concurrency}
                [clock]
                reply = 0.2
                grace = 0.0
                [[bots]]
                name = "late"
                cmd = {json.dumps(late_bot)}
                [[bots]]
                name = "quick"
                builtin = "optimal"
                """
            )
        )
        began = time.perf_counter()
        summary = run_match(path)
        took = time.perf_counter() - began
        games = stored_games(summary)
    late_seat_replies = []
    refused = 0
    for result, detail, events in games:
        seat = result.seating.index("late")
        replies = [e.elapsed for e in events if e.kind == "recv" and e.seat == seat]
        late_seat_replies += replies[1:]
        refused += any(f.seat == seat and str(f.kind) == "timeout" for f in detail.faults)
    accepted = [t for t in late_seat_replies if t is not None]
    print(f"{len(games)} games, {args.concurrency} at once, {took:.1f} s")
    print(f"late replies refused: {refused} of {len(games)}")
    print(f"late replies accepted: {len(accepted)}", end="")
    print(f" (longest {max(accepted):.3f} s)" if accepted else "")


if __name__ == "__main__":
    main()
