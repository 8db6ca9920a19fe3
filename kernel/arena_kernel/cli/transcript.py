"""A stored game as a readable transcript (``arena replay``), from the database or from a
file of game records."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path

from arena_kernel.errors import ArenaError
from arena_kernel.model import Event
from arena_kernel.store.records import read_record_at, read_records
from arena_kernel.store.sqlite import GameDetail, Store

ARROWS = {"send": ">>", "recv": "<<", "late": "<~", "fault": "!!", "note": "--"}


def transcript(store: Store, game_id: int) -> str:
    return game_transcript(store.game(game_id), store.events(game_id))


def record_transcript(path: Path, game_id: int) -> str:
    """The transcript of game ``game_id`` of the records file at ``path``."""
    for number, data in read_records(path):
        if isinstance(data, dict) and data.get("id") == game_id:
            game, events, _run = read_record_at(path, number, data)
            return game_transcript(game, events)
    raise ArenaError(f"no game {game_id} in {path}")


def game_transcript(game: GameDetail, events: Sequence[Event]) -> str:
    game_id = game.game_id
    names = list(game.seating)
    started = datetime.datetime.fromtimestamp(game.started_at).isoformat(timespec="seconds")
    sandbox = f", sandbox {game.sandbox}" if game.sandbox is not None else ""
    lines = [
        f"game {game_id}: run {game.run_id}, game #{game.index}, seed {game.seed}, "
        f"started {started}, {game.duration:.3f} s{sandbox}",
        f"result: {game.reason}" + (" (void)" if game.void else ""),
    ]
    for seat, name in enumerate(names):
        score = "" if game.scores is None else f", score {game.scores[seat]:g}"
        lines.append(f"  seat {seat}: {name}: rank {game.ranks[seat]}{score}")
    for seat, path in sorted(game.stderr_logs.items()):
        lines.append(f"  stderr of seat {seat} ({names[seat]}): {path}")
    for fault in game.faults:
        who = names[fault.seat] if fault.seat is not None else "-"
        lines.append(f"  fault at {fault.at:.3f} s: {who}: {fault.kind}: {fault.detail}")
    lines.append("")
    for event in events:
        who = "referee" if event.seat is None else f"{event.seat}:{names[event.seat]}"
        took = f" ({event.elapsed * 1000:.1f} ms" if event.elapsed is not None else ""
        if took:
            cpu = f", CPU {event.cpu * 1000:.1f} ms" if event.cpu is not None else ""
            took += f"{cpu})"
        lines.append(f"{event.t:9.4f} {ARROWS.get(event.kind, '  ')} {who}{took}: {event.text}")
    return "\n".join(lines)
