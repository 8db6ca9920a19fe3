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

A run is held on a worker by a lease: every call for it (:func:`renew_run`, which the
coordinator sends every worker every few seconds, or a session) renews it, and a run
that has not been renewed for :attr:`WorkerSetup.lease` seconds and plays nothing is
closed as :func:`close_run` would close it, so a coordinator killed before it could close
its runs leaves nothing behind on the workers. A call that comes after that prepares
the run again: closing it is always safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import socket
import tempfile
import threading
import time
from collections.abc import Coroutine, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from arena_kernel.errors import ArenaError, SetupError
from arena_kernel.executors.base import Results
from arena_kernel.executors.crowding import usable_cores
from arena_kernel.executors.lineup import Lineup
from arena_kernel.executors.player import SessionPlayer
from arena_kernel.match.bot_identity import what_it_runs
from arena_kernel.match.resolved import ResolvedMatch, resolve
from arena_kernel.match.schedule import Session
from arena_kernel.match.spec import MatchSpec
from arena_kernel.model import GameRecord, ScheduledGame
from arena_kernel.registries.manager import get_plugin_manager, load_registries

T = TypeVar("T")


BotFiles = Mapping[str, str]
"""The files a bot is made of, each path -> the SHA-256 of its content, as
:func:`~arena_kernel.match.bot_identity.what_it_runs` finds them: a built-in bot's package,
the folder of a bot with a ``cwd`` of its own, else the files its command names."""


LEASE_CHECK = 1.0
"""Seconds between a worker's looks for runs whose lease has run out."""


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker needs to play a run's sessions: the match, the plugin modules the
    coordinator loaded beyond the installed ones, and the coordinator's ``token`` (one
    per ``arena run``), which keeps two runs on one cluster apart. ``bots`` are the files
    of each bot started by command as the coordinator has them (:func:`coordinator_files`),
    which a worker's copy must match; ``lease``, the seconds a worker keeps the run
    without a word from the coordinator."""

    token: str
    spec: MatchSpec
    plugins: tuple[str, ...] = ()
    bots: Mapping[str, BotFiles] = field(default_factory=dict)
    lease: float = 60.0


def coordinator_files(match: ResolvedMatch) -> dict[str, BotFiles]:
    """The files of each of ``match``'s bots on this machine: what
    :attr:`WorkerSetup.bots` holds."""
    return _files_here(match.spec, match)


def _files_here(spec: MatchSpec, match: ResolvedMatch) -> dict[str, BotFiles]:
    """Each bot's files on this machine, ``spec`` (the coordinator's, whose database and
    logs they leave out) saying where they are."""
    game = type(match.game)
    return {bot.name: what_it_runs(bot, spec, game)["files"] for bot in spec.bots}


def first_difference(here: BotFiles, reference: BotFiles) -> str | None:
    """How the files ``here`` differ from the coordinator's ``reference``, in words (the
    first file in name order that differs), or None when they are the same."""
    for path in sorted(set(here) | set(reference)):
        mine, theirs = here.get(path), reference.get(path)
        if mine == theirs:
            continue
        if mine is None:
            return f"{path} is missing here"
        if theirs is None:
            return f"{path} is here but not on the coordinator"
        return f"{path} differs from the coordinator's ({mine[:12]} here, {theirs[:12]} there)"
    return None


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
    """A run on this worker: prepared, or the ``problem`` that keeps it from playing;
    when its lease was last renewed (``time.monotonic()``) and how many calls use it."""

    folder: tempfile.TemporaryDirectory[str]
    lease: float
    match: ResolvedMatch | None = None
    lineup: Lineup | None = None
    problem: str | None = None
    renewed: float = field(default_factory=time.monotonic)
    users: int = 0

    def ready(self, where: str) -> tuple[ResolvedMatch, Lineup]:
        if self.match is None or self.lineup is None or self.problem is not None:
            raise SetupError(f"{where}: {self.problem}" if where else str(self.problem))
        return self.match, self.lineup

    def expired(self, now: float) -> bool:
        return self.users == 0 and now - self.renewed > self.lease

    async def aclose(self) -> None:
        try:
            if self.lineup is not None:
                await self.lineup.aclose()
        finally:
            self.folder.cleanup()


_loop: ArenaLoop | None = None
_runs: dict[str, _WorkerRun] = {}
_lock = threading.Lock()


def _arena_loop() -> ArenaLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = ArenaLoop()
            asyncio.run_coroutine_threadsafe(_close_expired(), _loop.loop)
        return _loop


async def _close_expired() -> None:
    """For as long as the process lives: close every run whose lease ran out."""
    while True:
        await asyncio.sleep(LEASE_CHECK)
        now = time.monotonic()
        with _lock:
            expired = [token for token, run in _runs.items() if run.expired(now)]
            ended = [_runs.pop(token) for token in expired]
        for run in ended:
            with contextlib.suppress(Exception):  # a run is closed even if a bot misbehaves
                await run.aclose()


@contextlib.contextmanager
def _using(setup: WorkerSetup) -> Iterator[_WorkerRun]:
    """The run of ``setup`` on this worker, prepared on first use (plugins loaded, the
    match resolved, the bots checked and the transports prepared), its lease renewed and
    kept from running out until the ``with`` block ends. Its problem, if any, is kept, so
    every later call fails the same way at once."""
    with _lock:
        found = _runs.get(setup.token)
        if found is not None:
            found.users += 1
    if found is None:
        made = _arena_loop().run(_prepare(setup))
        with _lock:
            found = _runs.setdefault(setup.token, made)
            found.users += 1
        if found is not made:  # another call prepared it meanwhile
            _arena_loop().run(made.aclose())
    try:
        yield found
    finally:
        with _lock:
            found.users -= 1
            found.renewed = time.monotonic()


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
        return _WorkerRun(folder, setup.lease, problem=str(exc))
    stale = _stale_bot(setup, match)
    if stale is not None:
        return _WorkerRun(folder, setup.lease, problem=stale)
    lineup = Lineup(match)
    try:
        await lineup.prepare()
    except ArenaError as exc:
        await lineup.aclose()
        return _WorkerRun(folder, setup.lease, problem=str(exc))
    return _WorkerRun(folder, setup.lease, match, lineup)


def _stale_bot(setup: WorkerSetup, match: ResolvedMatch) -> str | None:
    """The first bot whose files here are not the coordinator's, in words, or None."""
    here = _files_here(setup.spec, match)
    for name, reference in sorted(setup.bots.items()):
        difference = first_difference(here.get(name, {}), reference)
        if difference is not None:
            return f'{setup.spec.path}: bot "{name}" is not the coordinator\'s here: {difference}'
    return None


def check_worker(setup: WorkerSetup) -> WorkerCheck:
    """Whether this worker can play the run of ``setup``: every plugin loads, every bot's
    files are the coordinator's and its command can be started here, the sandbox the
    match file asks for can be made."""
    with _using(setup) as run:
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
    with _using(setup) as run:
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


def renew_run(token: str) -> bool:
    """Renew the lease of the run of ``token`` on this worker; whether it is open here.
    Quick: an engine may call it on the thread that talks to its scheduler."""
    with _lock:
        run = _runs.get(token)
        if run is not None:
            run.renewed = time.monotonic()
        return run is not None


def open_runs() -> list[str]:
    """The tokens of the runs open on this worker."""
    with _lock:
        return sorted(_runs)


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
    if run is not None:
        _arena_loop().run(run.aclose())


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
