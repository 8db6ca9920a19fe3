"""How many bytes a stored game takes in the database, against the kernel before event
logs were compressed.

    python benchmarks/store_size.py [--baseline REV]

Each kernel (this one, and the baseline of :mod:`baseline`: the whole kernel as at ``REV``,
which stored a row per event) plays the same match
files, in a process of its own, with ``arena_kernel.runner.api.run_match`` and in-process
built-in bots: Nim (two seats, short games), a Game of Stones (two seats, a board sent
every move) and Dominion (four seats, a long game of many messages). The figure is the
database file once its write-ahead log is checkpointed into it, less the size of a file
holding only the run, per game; beside it, the games' event text (what the bots and the
referee said), which both kernels store in full. The games are those the seeds make, so
both kernels play the same ones; only the times in their logs differ.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
from pathlib import Path

from baseline import BEFORE, run_worker, whole_kernel

MATCHES = {
    "nim": (
        'plugins = ["arena_kernel.testing.games"]\ngame = "nim"\ngames = 400\n',
        ("optimal", "random"),
    ),
    "stones": (
        'game = "stones"\ngames = 40\n[game_options]\nsetup = "fixed"\n',
        ("random", "greedy"),
    ),
    "dominion, 4 players": (
        'game = "dominion_text"\nseats = 4\ngames = 12\n',
        ("bigmoney", "bmu", "smithy", "militia"),
    ),
}


def match_file(folder: Path, name: str) -> Path:
    head, bots = MATCHES[name]
    path = folder / (name.split(",")[0] + ".toml")
    path.write_text(
        f'seed = 3\ndatabase = "{path.stem}.sqlite"\nlogs = "{path.stem}-logs"\n{head}'
        + "".join(f'[[bots]]\nname = "{b}"\nbuiltin = "{b}"\ninproc = true\n' for b in bots)
    )
    return path


def worker(match: Path) -> None:
    """Play ``match``; print its games, stored bytes and event text bytes as JSON."""
    from arena_kernel.runner.api import prepare, run_prepared
    from arena_kernel.store import Store

    prepared = prepare(match)
    summary = run_prepared(prepared)
    if summary.errors:
        raise SystemExit(f"the run failed: {summary.errors}")
    database = prepared.spec.database
    with Store(database) as store:
        games = store.games(summary.run.run_id)
        text = sum(len(e.text.encode()) for g in games for e in store.events(g.game_id))
    empty = database.with_name("empty.sqlite")
    with Store(empty) as store:
        store.open_run("k", "n", "g", {}, 1)
    sizes = {}
    for path in (database, empty):
        with sqlite3.connect(path) as raw:
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        raw.close()
        sizes[path] = path.stat().st_size
    stored = sizes[database] - sizes[empty]
    print(json.dumps({"games": len(games), "bytes": stored, "text": text}))


def measure(match: Path, tree: Path | None) -> dict[str, int]:
    for leftover in match.parent.glob("*.sqlite*"):
        leftover.unlink()
    result: dict[str, int] = run_worker(__file__, [str(match)], tree, match.parent)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BEFORE, help="git revision of the baseline")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    with tempfile.TemporaryDirectory() as folder:
        base = whole_kernel(args.baseline, Path(folder) / "baseline")
        print("bytes per stored game (event text per game), baseline -> this kernel:")
        for name in MATCHES:
            match = match_file(Path(folder), name)
            old, new = measure(match, base), measure(match, None)
            per = {k: r["bytes"] / r["games"] for k, r in (("old", old), ("new", new))}
            print(
                f"  {name:20} {per['old']:9,.0f} ({old['text'] / old['games']:7,.0f})"
                f" -> {per['new']:7,.0f} ({new['text'] / new['games']:7,.0f})"
                f"  {per['old'] / per['new']:5.1f}x smaller, {new['games']} games"
            )
            if old["text"] != new["text"]:
                print(
                    "    not comparable: the kernels played other games (the installed"
                    " plugin does not play the same under the baseline)"
                )


if __name__ == "__main__":
    main()
