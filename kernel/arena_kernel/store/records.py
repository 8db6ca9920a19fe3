"""A stored game as a self-contained JSON record other tools can read, the way chess tools
share PGN: its run, seating, seed, the run's game options, every message both ways with its
times, its faults and its result. ``arena export --format records`` writes one record per
line (JSON lines); ``arena replay RECORDS GAME_ID`` reads them back without the database.

The format is described by the JSON Schema in ``docs/game-record.schema.json`` (its
``FORMAT`` names the version); :func:`record_of` and :func:`read_record` are each other's
inverse for everything a record holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from arena_kernel.errors import ArenaError
from arena_kernel.model import Event, Fault, FaultKind, RunInfo
from arena_kernel.store.sqlite import GameDetail

FORMAT = "arena-game-record/1"
"""The ``format`` of every record: a reader refuses another."""


def record_of(
    run: RunInfo, spec: Mapping[str, Any], game: GameDetail, events: list[Event]
) -> dict[str, Any]:
    """The record of ``game`` of ``run`` (whose stored match settings are ``spec``)."""
    return {
        "format": FORMAT,
        "run": {"id": run.run_id, "key": run.key, "name": run.name},
        "game": run.game,
        "options": dict(spec.get("game_options") or {}),
        "id": game.game_id,
        "index": game.index,
        "session": game.session,
        "seed": game.seed,
        "started_at": game.started_at,
        "duration": game.duration,
        "sandbox": game.sandbox,
        "seating": list(game.seating),
        "result": {
            "ranks": list(game.ranks),
            "scores": None if game.scores is None else list(game.scores),
            "reason": game.reason,
            "void": game.void,
            "disqualified": sorted(game.disqualified),
            "details": game.details,
        },
        "extra": game.extra,
        "faults": [
            {"kind": str(f.kind), "detail": f.detail, "seat": f.seat, "at": f.at}
            for f in game.faults
        ],
        "events": [
            {
                "t": e.t,
                "kind": e.kind,
                "seat": e.seat,
                "text": e.text,
                "elapsed": e.elapsed,
                "cpu": e.cpu,
            }
            for e in events
        ],
    }


def read_record(data: Mapping[str, Any]) -> tuple[GameDetail, list[Event], dict[str, Any]]:
    """A record read back: the game, its events and the run's ``game``, ``name`` and game
    ``options`` (what a renderer and a transcript read of the run). Raises ArenaError for
    a record of another format."""
    if data.get("format") != FORMAT:
        raise ArenaError(f"not an arena game record of {FORMAT}: format {data.get('format')!r}")
    result = data["result"]
    first: dict[int | None, str] = {}
    for fault in data["faults"]:
        first.setdefault(fault["seat"], fault["kind"])
    seats = len(data["seating"])
    game = GameDetail(
        data["id"],
        data["index"],
        tuple(data["seating"]),
        tuple(result["ranks"]),
        None if result["scores"] is None else tuple(result["scores"]),
        result["void"],
        frozenset(result["disqualified"]),
        result["reason"],
        first_faults=tuple(first.get(seat) for seat in range(seats)),
        sandbox=data["sandbox"],
        run_id=data["run"]["id"],
        seed=data["seed"],
        session=data["session"],
        started_at=data["started_at"],
        duration=data["duration"],
        details=result["details"],
        extra=data["extra"],
        faults=tuple(
            Fault(FaultKind(f["kind"]), f["detail"], f["seat"], f["at"]) for f in data["faults"]
        ),
        stderr_logs={},
    )
    events = [
        Event(e["t"], e["kind"], e["seat"], e["text"], e["elapsed"], e["cpu"])
        for e in data["events"]
    ]
    run = {"game": data["game"], "name": data["run"]["name"], "game_options": data["options"]}
    return game, events, run


def read_records(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON lines file, one a line; ArenaError naming the line of one
    that is not JSON."""
    try:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    yield json.loads(line)
                except ValueError as exc:
                    raise ArenaError(f"{path}, line {number}: not a JSON record: {exc}") from None
    except OSError as exc:
        raise ArenaError(f"cannot read {path}: {exc.strerror or exc}") from None
