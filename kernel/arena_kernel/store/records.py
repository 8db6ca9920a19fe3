"""A stored game as a self-contained JSON record other tools can read, the way chess tools
share PGN: its run, seating, seed, the run's game options, every message both ways with its
times, its faults and its result. ``arena export --format records`` writes one record per
line (JSON lines); ``arena replay RECORDS GAME_ID`` and ``arena report RECORDS`` read them
back without the database.

The format is described by the JSON Schema in ``docs/game-record.schema.json`` (its
``FORMAT`` names the version); :func:`record_of` and :func:`read_record` are each other's
inverse for everything a record holds.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena_kernel.errors import ArenaError
from arena_kernel.model import Event, Fault, FaultKind, GameRecord, Outcome, RunInfo, ScheduledGame
from arena_kernel.store.sqlite import GameDetail, Store

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
    ``options`` (what a renderer and a transcript read of the run). Raises ArenaError,
    saying what is wrong, for a record of another format or one that is not whole."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, Mapping) else data
        raise ArenaError(f"not an arena game record of {FORMAT}: format {found!r}")
    try:
        _check(data, _RECORD, "")
        return _read(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ArenaError(f"not a whole arena game record: {exc}") from None


def _read(data: Mapping[str, Any]) -> tuple[GameDetail, list[Event], dict[str, Any]]:
    result = data["result"]
    first: dict[int | None, str] = {}
    for fault in data["faults"]:
        first.setdefault(fault["seat"], fault["kind"])
    seats = len(data["seating"])
    if len(result["ranks"]) != seats or (
        result["scores"] is not None and len(result["scores"]) != seats
    ):
        raise ValueError(f"{seats} seats but ranks {result['ranks']} and scores {result['scores']}")
    if any(rank < 1 for rank in result["ranks"]):
        raise ValueError(f"result.ranks {result['ranks']} has a rank below 1")
    seated = [
        *result["disqualified"],
        *(f["seat"] for f in data["faults"] if f["seat"] is not None),
    ]
    if any(not 0 <= seat < seats for seat in seated):
        raise ValueError(f"a seat of result.disqualified or faults is not one of the {seats}")
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


# What a record's fields hold, for a reader that trusts no file (a subset of
# docs/game-record.schema.json, which the tests hold it to): a type, a tuple of the
# types allowed, a dict of a record's fields, or a list of one shape for every item.
_NUMBER = (int, float)
_SEAT = (int, type(None))
_RECORD: dict[str, Any] = {
    "run": {"id": int, "key": str, "name": str},
    "game": str,
    "options": dict,
    "id": int,
    "index": int,
    "session": int,
    "seed": int,
    "started_at": _NUMBER,
    "duration": _NUMBER,
    "sandbox": (str, type(None)),
    "seating": [str],
    "result": {
        "ranks": [int],
        "scores": (list, type(None)),
        "reason": str,
        "void": bool,
        "disqualified": [int],
        "details": dict,
    },
    "extra": dict,
    "faults": [{"kind": str, "detail": str, "seat": _SEAT, "at": _NUMBER}],
    "events": [
        {
            "t": _NUMBER,
            "kind": str,
            "seat": _SEAT,
            "text": str,
            "elapsed": (*_NUMBER, type(None)),
            "cpu": (*_NUMBER, type(None)),
        }
    ],
}


def _check(value: Any, shape: Any, where: str) -> None:
    """Raise ValueError naming the first field of ``value`` that is not of ``shape``."""
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            raise ValueError(f"{where or 'the record'} is not an object")
        for name, inner in shape.items():
            if name not in value:
                raise ValueError(f"{where}{name} is missing")
            _check(value[name], inner, f"{where}{name}.")
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise ValueError(f"{where.rstrip('.')} is not a list")
        for number, item in enumerate(value):
            _check(item, shape[0], f"{where.rstrip('.')}[{number}].")
    else:
        types = shape if isinstance(shape, tuple) else (shape,)
        # JSON has no integer that is a boolean: true is not a seat or a seed.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ValueError(f"{where.rstrip('.')} is {json.dumps(value)[:40]}")


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The records of a JSON lines file with their line numbers, one a line; ArenaError
    naming the line of one that is not JSON."""
    try:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    yield number, json.loads(line)
                except ValueError as exc:
                    raise ArenaError(f"{path}, line {number}: not a JSON record: {exc}") from None
    except OSError as exc:
        raise ArenaError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ArenaError(f"{path}: not a file of game records: {exc}") from None


def read_record_at(
    path: Path, number: int, data: Any
) -> tuple[GameDetail, list[Event], dict[str, Any]]:
    """:func:`read_record` of the record on line ``number`` of ``path``, its errors naming
    the line."""
    try:
        return read_record(data)
    except ArenaError as exc:
        raise ArenaError(f"{path}, line {number}: {exc}") from None


def load_records(store: Store, path: Path) -> int:
    """Store every record of the file at ``path`` in ``store`` (a database of its own)
    with the ids of the database it came from, each run's settings what its records hold
    (the game, its options, its bots in the order they first sit in the schedule, its seat
    counts and games); how many games.
    ArenaError naming the line for a record that is not whole, a game id or a run's game
    index twice, or two runs of one key."""
    runs: dict[int, RunInfo] = {}
    specs: dict[int, dict[str, Any]] = {}
    keys: dict[str, int] = {}
    ids: set[int] = set()
    indexes: set[tuple[int, int]] = set()

    def games() -> Iterator[tuple[RunInfo, int, GameRecord]]:
        for number, data in read_records(path):
            game, events, run = read_record_at(path, number, data)
            where = f"{path}, line {number}"
            key, run_id = data["run"]["key"], game.run_id
            if game.game_id in ids:
                raise ArenaError(f"{where}: game {game.game_id} is in the file twice")
            if keys.setdefault(key, run_id) != run_id:
                raise ArenaError(f"{where}: run {run_id} has the key of run {keys[key]}")
            if (run_id, game.index) in indexes:
                raise ArenaError(f"{where}: run {run_id} has a game #{game.index} already")
            ids.add(game.game_id)
            indexes.add((run_id, game.index))
            if run_id not in runs:
                runs[run_id] = RunInfo(run_id, key, run["name"], run["game"], 0, 0, str(path))
                specs[run_id] = {
                    "game": run["game"],
                    "name": run["name"],
                    "game_options": run["game_options"],
                    "bots": {},
                    "seats": set(),
                    "games": 0,
                }
            elif runs[run_id].game != run["game"]:
                raise ArenaError(
                    f"{where}: run {run_id} is of {runs[run_id].game}, not {run['game']}"
                )
            seen = specs[run_id]["bots"]
            for seat, bot in enumerate(game.seating):
                seen[bot] = min(seen.get(bot, (game.index, seat)), (game.index, seat))
            specs[run_id]["seats"].add(len(game.seating))
            specs[run_id]["games"] += 1
            yield runs[run_id], game.game_id, _game_record(game, events)

    def settings() -> dict[int, dict[str, Any]]:
        return {
            run_id: {
                **spec,
                "bots": [{"name": name} for name in sorted(spec["bots"], key=spec["bots"].get)],
                "seats": sorted(spec["seats"]),
            }
            for run_id, spec in specs.items()
        }

    store.restore_games(games(), settings)
    return len(ids)


def _game_record(game: GameDetail, events: list[Event]) -> GameRecord:
    return GameRecord(
        ScheduledGame(game.index, game.seed, game.seating, game.session),
        Outcome(
            list(game.ranks),
            game.reason,
            None if game.scores is None else list(game.scores),
            dict(game.details),
            game.void,
            game.disqualified,
        ),
        list(game.faults),
        events,
        game.started_at,
        game.duration,
        extra=dict(game.extra),
        sandbox=game.sandbox,
    )


@contextmanager
def records_database(path: Path) -> Iterator[Path]:
    """A database of its own, made in a temporary folder from the records file at ``path``
    and removed after: what reads a database (the report) reads records through it.
    ArenaError for a file with no records."""
    with tempfile.TemporaryDirectory(prefix="arena-records-") as folder:
        database = Path(folder) / "records.sqlite"
        with Store(database) as store:
            if load_records(store, path) == 0:
                raise ArenaError(f"{path}: no game records in it")
        yield database
