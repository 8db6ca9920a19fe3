"""What a remote worker runs: check that it can play a run, play one session of it, and
give back what the coordinator stores (the games' records, the logs, the failures).

Nothing here knows Dask: a worker of any distributed engine calls :func:`check_worker`,
:func:`play_session` and :func:`close_run` with picklable arguments and returns picklable
results. A worker never writes the store.

On a worker the referee runs as it does locally: every session of a worker process plays
on one event loop (:class:`ArenaLoop`, a thread of its own), with one
:class:`~arena_kernel.executors.lineup.Lineup` per run (its transports, its warden), made on
the first call that needs it. The engine's task threads only wait for their session.
Bots' logs go to a temporary folder, read back into the result and removed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import tempfile
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from arena_kernel.errors import ArenaError, SetupError
from arena_kernel.executors.base import Results
from arena_kernel.executors.crowding import usable_cores
from arena_kernel.executors.lineup import Lineup
from arena_kernel.executors.player import SessionPlayer
from arena_kernel.match.resolved import ResolvedMatch, resolve
from arena_kernel.match.schedule import Session
from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import GameRecord, ScheduledGame
from arena_kernel.registries.manager import get_plugin_manager, load_registries

T = TypeVar("T")


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker needs to play a run's sessions: the match, the plugin modules the
    coordinator loaded beyond the installed ones, and the coordinator's ``token`` (one
    per ``arena run``), which keeps two runs on one cluster apart."""

    token: str
    spec: MatchSpec
    plugins: tuple[str, ...] = ()


@dataclass(frozen=True)
class WorkerCheck:
    """A worker's answer to :func:`check_worker`: its host, what its bots run under, and
    the problem that keeps it from playing (None: it can play)."""

    host: str
    sandbox: str = "none"
    sandbox_note: str | None = None
    problem: str | None = None
    cores: int = 0
    """The cores the worker's process may run on (0: not told)."""


@dataclass
class SessionResult:
    """A session played on a worker: each finished game's record (its ``stderr_logs``
    under :attr:`log_root`), each failure as ``(label, message, details)``, and every file
    the session left in its log folder (path relative to :attr:`log_root` -> content)."""

    log_root: str
    records: list[GameRecord] = field(default_factory=list)
    failures: list[tuple[str, str, str]] = field(default_factory=list)
    logs: dict[str, bytes] = field(default_factory=dict)


class ArenaLoop:
    """This process's event loop for referee work, in a daemon thread: sessions started
    from any thread play on it together, as they do on the local executor's loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="arena-loop", daemon=True).start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run ``coroutine`` on the loop and wait for its result in the calling thread."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()


class _Collected:
    """A worker's :class:`~arena_kernel.executors.base.Results`: keeps what the coordinator
    will store. Bots disqualified in this session are out for its later games; those of
    other sessions are known from the coordinator at the session's start."""

    def __init__(self, log_root: Path, disqualified: frozenset[str]) -> None:
        self.log_root = log_root
        self.disqualified = set(disqualified)
        self.result = SessionResult(str(log_root))

    def game_started(self, game: ScheduledGame) -> None:
        pass

    def game_ended(self, record: GameRecord) -> None:
        self.result.records.append(record)
        self.disqualified.update(record.game.seating[s] for s in record.outcome.disqualified)

    def failed(self, label: str, message: str, details: str) -> None:
        self.result.failures.append((label, message, details))


@dataclass
class _WorkerRun:
    """A run on this worker: prepared, or the ``problem`` that keeps it from playing."""

    folder: tempfile.TemporaryDirectory[str]
    match: ResolvedMatch | None = None
    lineup: Lineup | None = None
    problem: str | None = None

    def ready(self, where: str) -> tuple[ResolvedMatch, Lineup]:
        if self.match is None or self.lineup is None or self.problem is not None:
            raise SetupError(f"{where}: {self.problem}" if where else str(self.problem))
        return self.match, self.lineup


_loop: ArenaLoop | None = None
_runs: dict[str, _WorkerRun] = {}
_lock = threading.Lock()


def _arena_loop() -> ArenaLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = ArenaLoop()
        return _loop


def _run(setup: WorkerSetup) -> _WorkerRun:
    """The run of ``setup`` on this worker, prepared on first use (plugins loaded, the
    match resolved, the bots checked and the transports prepared); its problem, if any,
    is kept, so every later call fails the same way at once."""
    with _lock:
        found = _runs.get(setup.token)
    if found is None:
        found = _arena_loop().run(_prepare(setup))
        with _lock:
            found = _runs.setdefault(setup.token, found)
    return found


async def _prepare(setup: WorkerSetup) -> _WorkerRun:
    folder = tempfile.TemporaryDirectory(prefix="arena-worker-")
    base = Path(folder.name)
    # This worker's own logs and no database: the coordinator keeps both. The bots'
    # sandboxes hide these paths as they hide the coordinator's.
    spec = dataclasses.replace(setup.spec, logs=base / "logs", database=base / "arena.sqlite")
    try:
        registries = load_registries(get_plugin_manager(extra=setup.plugins))
        match = resolve(spec, registries)
    except ArenaError as exc:
        return _WorkerRun(folder, problem=str(exc))
    lineup = Lineup(match)
    try:
        await lineup.prepare()
    except ArenaError as exc:
        await lineup.aclose()
        return _WorkerRun(folder, problem=str(exc))
    return _WorkerRun(folder, match, lineup)


def check_worker(setup: WorkerSetup) -> WorkerCheck:
    """Whether this worker can play the run of ``setup``: every plugin loads, every bot's
    command can be started here, the sandbox the match file asks for can be made."""
    run = _run(setup)
    if run.lineup is None or run.problem is not None:
        return WorkerCheck(socket.gethostname(), problem=run.problem)
    lineup = run.lineup
    return WorkerCheck(
        socket.gethostname(), lineup.sandbox, lineup.sandbox_note, cores=usable_cores()
    )


def play_session(
    setup: WorkerSetup, session: Session, disqualified: frozenset[str], where: str = ""
) -> SessionResult:
    """Play ``session`` of the run of ``setup`` here, every game's record kept.
    ``disqualified`` are the bots already out of the run. A problem of this worker's
    set-up (a bot that cannot start here) raises :class:`SetupError` naming ``where`` it
    happened, as it stops the run."""
    run = _run(setup)
    match, lineup = run.ready(where)
    folder = Path(tempfile.mkdtemp(prefix=f"session-{session.number}-", dir=run.folder.name))
    results = _Collected(folder, disqualified)
    player = SessionPlayer(match, lineup, results)
    try:
        _arena_loop().run(player.play(session))
    except SetupError as exc:
        raise SetupError(f"{where}: {exc}" if where else str(exc)) from None
    finally:
        results.result.logs = _read_and_remove(folder)
    return results.result


def _read_and_remove(folder: Path) -> dict[str, bytes]:
    logs = {}
    for path in sorted(folder.rglob("*"), reverse=True):  # files before their folders
        if path.is_file():
            logs[str(path.relative_to(folder))] = path.read_bytes()
            path.unlink()
        else:
            path.rmdir()
    folder.rmdir()
    return logs


def close_run(token: str) -> None:
    """End the run of ``token`` on this worker: its transports, its warden, its folder."""
    with _lock:
        run = _runs.pop(token, None)
    if run is None:
        return
    if run.lineup is not None:
        _arena_loop().run(run.lineup.aclose())
    run.folder.cleanup()


def deliver(result: SessionResult, results: Results) -> None:
    """Hand a session a worker played to ``results`` (the run's results, on the coordinator): its
    logs written under the run's log folder there, its records pointing at them, its
    failures reported, its games stored."""
    worker_root = Path(result.log_root)
    for relative, content in result.logs.items():
        path = results.log_root / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        except OSError as exc:
            raise SetupError(f"cannot write {path}: {exc.strerror or exc}") from None
    for label, message, details in result.failures:
        results.failed(label, message, details)
    for record in result.records:
        here = {
            seat: str(results.log_root / Path(path).relative_to(worker_root))
            for seat, path in record.stderr_logs.items()
        }
        results.game_started(record.game)
        results.game_ended(dataclasses.replace(record, stderr_logs=here))
