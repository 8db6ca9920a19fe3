"""Whether the ``search`` bot keeps to its clock: a run of ``arena run`` between two of them
at a tight reply limit, more games at once than cores, then the faults counted.

    python plugins/stones/benchmarks/timeouts.py [--games 200] [--reply 1.0] [--per-core 2]
        [--mode wall|cpu] [--inproc] [--keep DIR]

Writes a match file (random set-ups, ``[clock] reply``, ``concurrency`` = per-core x the
CPUs of this machine, the bots given no arguments: they read the match's clock as the
arena tells it), runs it with the
``arena`` command as a user would (sandboxed where the machine allows), and prints, from
``arena export``, each bot's replies, timeouts and late replies, its slowest reply by the
wall clock and by CPU time, and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MATCH = """\
game = "stones"
games = {games}
seed = 34
concurrency = {concurrency}
database = "timeouts.sqlite"
logs = "logs"

[clock]
reply = {reply}
mode = "{mode}"

[game_options]
setup = "random"

[[bots]]
name = "search-a"
builtin = "search"
{how}

[[bots]]
name = "search-b"
builtin = "search"
{how}
"""


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--reply", type=float, default=1.0, help="the reply limit (1.0)")
    parser.add_argument("--per-core", type=int, default=2, help="games at once per CPU (2)")
    parser.add_argument("--concurrency", type=int, help="games at once (instead of --per-core)")
    parser.add_argument("--mode", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--inproc", action="store_true", help="the bots in the arena's process")
    parser.add_argument("--keep", type=Path, help="play in this folder and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="stones-timeouts-"))
    folder.mkdir(parents=True, exist_ok=True)
    concurrency = args.concurrency or args.per_core * (os.cpu_count() or 1)
    match = folder / "timeouts.toml"
    match.write_text(
        MATCH.format(
            games=args.games,
            concurrency=concurrency,
            reply=args.reply,
            mode=args.mode,
            how="inproc = true" if args.inproc else "",
        )
    )
    arena = [sys.executable, "-m", "arena_kernel.cli.main"]
    print(f"{args.games} games, reply {args.reply} s ({args.mode} clock), {concurrency} at once")
    print(f"load average before: {load()}")
    started = time.monotonic()
    run = subprocess.run([*arena, "run", str(match)], capture_output=True, text=True)
    print(f"{time.monotonic() - started:.0f} s; load average after: {load()}")
    if run.returncode != 0:
        print(run.stdout[-2000:], run.stderr[-2000:], sep="\n")
        raise SystemExit(f"arena run exited {run.returncode}")
    sandbox = [line for line in run.stderr.splitlines() if "sandbox" in line.lower()]
    print("\n".join(sandbox[:2]))
    export = subprocess.run(
        [*arena, "export", str(folder / "timeouts.sqlite"), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(export.stdout)
    print(f"games stored: {len(data['games'])}; faults: {len(data['faults'])}")
    for fault in data["faults"][:10]:
        print(f"  {fault}")
    for bot in data["bots"]:
        cpu = ""
        if bot["cpu_max"] is not None:
            cpu = f", CPU p95 {bot['cpu_p95']:.3f} max {bot['cpu_max']:.3f} s"
        print(
            f"{bot['bot']}: {bot['games']} games, {bot['replies']} replies,"
            f" {bot['timeouts']} timeouts, {bot['late']} late, {bot['faults']} faults;"
            f" wall p95 {bot['reply_p95']:.3f} max {bot['reply_max']:.3f} s{cpu}"
        )
    if not args.keep:
        print(f"(the run is in {folder})")


if __name__ == "__main__":
    main()
