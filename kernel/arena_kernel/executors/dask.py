"""The ``dask`` executor: sessions played by the workers of a Dask cluster, stored here.

Why Dask distributed: it is pure Python, installs with pip, runs the same code on a
``LocalCluster`` (tests, one big machine) and on ``dask scheduler`` / ``dask worker``
processes on many machines, and already does what a tournament needs of a cluster: it
hands tasks to free workers, notices a worker that dies (killed, its machine gone) and
gives its tasks to another one, and gives up on a task that killed its workers too often
(``KilledWorker``). arena adds only what is its own:

- a task is one session (one game, for games whose bots live for a game), played by
  :func:`~arena_kernel.executors.remote.play_session` with the same referee code as the
  local executor; its result (the records, the logs) comes back to the coordinator, which
  alone writes the store, one transaction per game, as each session ends;
- a session is stored only when it has ended, so a session cut short by a dying worker
  leaves nothing behind and is played again whole (its bots' processes belong together);
- as many sessions as the cluster has threads are submitted at a time, the next ones as
  results come back: a schedule of a million games is never all in the scheduler, and a
  worker holds only the sessions it plays. (Dask blames a worker's death on every task
  the worker holds, so a session queued behind one that crashes its worker would be
  counted as crashing too: the cluster started here gives each thread one task at most,
  ``worker-saturation`` 1.0.)
- before the first game, every worker checks that it can start every bot and that its
  copy of each bot's files is the coordinator's
  (:func:`~arena_kernel.executors.remote.check_worker`);
- a session's result is let go as soon as its games are stored: the scheduler would
  otherwise play it again when the worker holding the result dies;
- the coordinator renews its run's lease on every worker every ``lease / 4`` seconds, so
  a worker closes the run of a coordinator that died without closing it;
- when the connection to the scheduler is lost, every session in play is lost with it
  (Dask cancels a client's tasks): the run stops with a set-up error at once, its games
  in play unstored for the next run, instead of waiting on results that never come.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import itertools
import logging
import secrets
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from arena_kernel.errors import SetupError
from arena_kernel.executors.base import Executor, Results
from arena_kernel.options import Option

if TYPE_CHECKING:  # registering an executor imports no game, no referee and no Dask
    from arena_kernel.executors.remote import SessionResult, WorkerCheck, WorkerSetup
    from arena_kernel.match.resolved import ResolvedMatch
    from arena_kernel.match.schedule import Session, Sessions

T = TypeVar("T")

WATCH = 0.25
"""Seconds between looks at the connection to the scheduler while the coordinator waits."""

STALE = 30.0
"""Seconds the sessions in play may go without one ending before the coordinator asks the
scheduler whether it still holds them. A scheduler can let go of a session the coordinator
waits for (its result lost with a worker, on a machine so loaded that the two disagree on
who holds what), and nothing would ever tell the coordinator: a session the scheduler has
not held at two looks in a row is given up as a run error, its games left for the next run."""

LOOPBACK = "127.0.0.1"
"""Where every port of the cluster a run starts for itself listens."""

CLOSE_WAIT = 10.0
"""Seconds the coordinator gives the cluster to close the run at its end."""

SATURATION = 1.0
"""The most ``distributed.scheduler.worker-saturation`` may be: with more, a worker holds
sessions waiting behind the one it plays, and is blamed for them when that one kills it."""


class DaskExecutor(Executor):
    name = "dask"
    summary = "the workers of a Dask cluster (pip install 'arena-kernel[dask]')"
    options = {
        "scheduler": Option(
            None,
            "The Dask scheduler's address, as tcp://HOST:8786; none: start a cluster of "
            "`workers` processes on this machine for the run.",
            type=str,
        ),
        "workers": Option(2, "Worker processes of the cluster started on this machine.", minimum=1),
        "threads": Option(
            1,
            "Sessions each of those worker processes plays at once (bots are processes "
            "of their own: more than one per core is fine for bots that mostly wait).",
            minimum=1,
        ),
        "timeout": Option(
            30.0, "Seconds to reach the scheduler and for its first worker to join.", above=0
        ),
        "tries": Option(
            3,
            "How many times a session is started on a worker that then dies before it "
            "is reported as failed (the cluster started here; a scheduler of your own "
            "has its distributed.scheduler.allowed-failures, plus one, and the run says "
            "when that is not this).",
            minimum=1,
        ),
        "lease": Option(
            60.0,
            "Seconds a worker keeps a run open (its bots' warden, its prepared transports) "
            "without word from the coordinator, which renews it every lease / 4 seconds: "
            "a coordinator that dies leaves nothing on the workers for longer.",
            above=0,
        ),
    }

    def __init__(
        self, match: ResolvedMatch, plugins: Sequence[str | object] = (), **options: Any
    ) -> None:
        super().__init__(match, plugins, **options)
        self.client: Any = None
        self.cluster: Any = None
        self.address = ""
        self._tasks = itertools.count()
        self._forgotten: set[str] = set()
        self._renewing: asyncio.Task[None] | None = None
        self._quiet = contextlib.ExitStack()
        self.threads = 1

    async def prepare(self, sessions: Sessions) -> None:
        from arena_kernel.executors.remote import WorkerSetup, check_worker, coordinator_files

        distributed = self._distributed()
        self._quiet.enter_context(_quiet_logs())
        self.setup = WorkerSetup(
            secrets.token_hex(8),
            self.match.spec,
            self._plugin_paths(),
            coordinator_files(self.match),
            self.config["lease"],
        )
        await self._connect(distributed)
        if self.cluster is None:
            self.note = await self._connected(self._scheduler_settings())
        self._renewing = asyncio.ensure_future(self._renew_lease())
        checks: dict[str, WorkerCheck] = await self._connected(
            self.client.run(check_worker, self.setup)
        )
        problems = [
            f"worker {address} on {check.host}: {check.problem}"
            for address, check in sorted(checks.items())
            if check.problem is not None
        ]
        if problems:
            raise SetupError("; ".join(problems))
        threads: dict[str, int] = await self._connected(self.client.nthreads())
        self.threads = sum(threads.values())
        self.sandbox, self.sandbox_note = _sandbox(checks)
        for address, check in checks.items():
            games, cores = self.crowding.get(check.host, (0, check.cores))
            self.crowding[check.host] = (games + threads.get(address, 0), cores)

    def _distributed(self) -> Any:
        """The ``distributed`` package, imported when a run asks for this executor (its
        API is used untyped)."""
        try:
            return importlib.import_module("distributed")
        except ImportError:
            raise SetupError(
                f'{self.match.spec.path}: executor "dask" needs the distributed package: '
                "pip install 'arena-kernel[dask]'"
            ) from None

    def _plugin_paths(self) -> tuple[str, ...]:
        """The run's extra plugins as import paths, which a worker imports."""
        for plugin in self.plugins:
            if not isinstance(plugin, str):
                raise SetupError(
                    f"{self.match.spec.path}: plugin {plugin!r} cannot be imported by its "
                    "name, so a Dask worker cannot load it: make it a module of an installed "
                    "package (or a match file's plugins = [...])"
                )
        return tuple(str(plugin) for plugin in self.plugins)

    async def _connect(self, distributed: Any) -> None:
        address = self.config["scheduler"]
        if address is None:
            import dask

            tries = self.config["tries"]
            settings = {
                "distributed.scheduler.allowed-failures": tries - 1,
                "distributed.scheduler.worker-saturation": SATURATION,
            }
            with dask.config.set(settings):
                # Every port of the cluster on loopback and no dashboard: whoever reaches
                # a scheduler can run code on its workers. (The scheduler serves its
                # health and metrics pages over HTTP all the same: on a free port.)
                self.cluster = await distributed.LocalCluster(
                    n_workers=self.config["workers"],
                    threads_per_worker=self.config["threads"],
                    processes=True,
                    asynchronous=True,
                    host=LOOPBACK,
                    dashboard_address=None,
                    worker_dashboard_address=None,
                    scheduler_kwargs={"dashboard_address": f"{LOOPBACK}:0"},
                    silence_logs=logging.ERROR,
                )
            address = self.cluster.scheduler_address
        self.address = address
        timeout = self.config["timeout"]
        client = distributed.Client(address, asynchronous=True, timeout=timeout)
        try:
            await client
            await client.wait_for_workers(1, timeout=timeout)
            self.client = client
        except Exception as exc:  # a connection refused, no TLS settings for tls://...
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), CLOSE_WAIT)
            hint = ""
            if str(address).startswith("tls://"):
                hint = " (a tls:// scheduler takes Dask's TLS settings: see the README)"
            raise SetupError(
                f"{self.match.spec.path}: cannot reach a Dask scheduler with a worker at "
                f"{address}: {exc}{hint}"
            ) from None

    async def _scheduler_settings(self) -> str | None:
        """What a scheduler of the user's own sets otherwise than the executor needs, with
        what to set instead, as a warning line for the run's header (None: nothing)."""
        import dask

        async def setting(key: str) -> Any:
            # dask.config.get is found on any scheduler, with or without arena installed.
            return await self.client.run_on_scheduler(
                dask.config.get, f"distributed.scheduler.{key}"
            )

        where = f"the Dask scheduler at {self.address}"
        try:
            saturation = float(await setting("worker-saturation"))
            failures = int(await setting("allowed-failures"))
        except Exception as exc:
            return (
                f"cannot read the settings of {where} ({type(exc).__name__}: {exc}): "
                'see the README\'s "Several machines" for what the run needs of them'
            )
        problems, settings = [], []
        if saturation > SATURATION:
            problems.append(
                f"worker-saturation {saturation:g} hands a worker sessions beyond its "
                "threads (a worker that dies is blamed for them too)"
            )
            settings.append(f"DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION={SATURATION}")
        tries = self.config["tries"]
        if failures + 1 != tries:
            problems.append(
                f"allowed-failures {failures} starts a session {failures + 1} times on "
                f"workers that die, not `tries` = {tries}"
            )
            settings.append(f"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES={tries - 1}")
        if not problems:
            return None
        return f"{where}: {'; '.join(problems)}: start it with {' '.join(settings)}"

    async def _renew_lease(self) -> None:
        """Renew the run's lease on every worker, for as long as the run plays."""
        from arena_kernel.executors.remote import renew_run

        every = self.setup.lease / 4
        while True:
            await asyncio.sleep(every)
            with contextlib.suppress(Exception):  # a worker gone, a scheduler gone: play() sees
                # Bounded: a worker that cannot be reached must not hold up the others'.
                renewal = self.client.run(renew_run, self.setup.token, on_error="ignore")
                await asyncio.wait_for(renewal, every)

    async def _connected(
        self, awaitable: Awaitable[T], sessions: Callable[[], list[Any]] | None = None
    ) -> T:
        """What ``awaitable`` gives, waited for as long as the connection to the scheduler
        holds; once it is lost, :class:`SetupError` (and ``awaitable`` is cancelled). The
        futures of ``sessions()`` that the scheduler no longer holds are cancelled, their
        keys in :attr:`_forgotten` (:data:`STALE`)."""
        task = asyncio.ensure_future(awaitable)
        loop = asyncio.get_running_loop()
        look = loop.time() + STALE
        suspects: set[str] = set()
        try:
            while not task.done():
                await asyncio.wait({task}, timeout=WATCH)
                if task.done():
                    break
                if self._lost():
                    raise self._lost_error()
                if sessions is not None and loop.time() >= look:
                    suspects = await self._let_go(sessions(), suspects)
                    look = loop.time() + STALE
            return task.result()
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    async def _let_go(self, futures: list[Any], suspects: set[str]) -> set[str]:
        """Cancel those of ``futures`` whose keys the scheduler did not hold at this look
        and the last (``suspects``); the keys it does not hold now."""
        keys = [future.key for future in futures]

        def unknown(dask_scheduler: Any) -> list[str]:  # sent by value: any scheduler runs it
            return [key for key in keys if key not in dask_scheduler.tasks]

        try:
            missing = set(await asyncio.wait_for(self.client.run_on_scheduler(unknown), STALE))
        except Exception:  # a scheduler too busy to answer holds them still, for now
            return set()
        gone = [future for future in futures if future.key in missing & suspects]
        if gone:
            self._forgotten.update(future.key for future in gone)
            await self.client.cancel(gone)
        return missing

    def _lost(self) -> bool:
        return self.client is None or self.client.status != "running"

    def _lost_error(self) -> SetupError:
        return SetupError(
            f"{self.match.spec.path}: lost the connection to the Dask scheduler at "
            f"{self.address}: the sessions in play on its workers are lost with it"
        )

    async def play(self, sessions: Iterator[Session], results: Results) -> None:
        from arena_kernel.executors.remote import deliver

        distributed = self._distributed()
        client = self.client
        submitted: dict[str, Session] = {}

        def submit(session: Session) -> Any:
            # Unique for the run: a staged format numbers each stage's sessions from 0, and
            # Dask would hand back a finished task of the same key instead of playing.
            key = f"arena-{self.setup.token}-{next(self._tasks)}-session-{session.number}"
            submitted[key] = session
            disqualified = frozenset(results.disqualified)
            return client.submit(
                _play_on_this_worker, self.setup, session, disqualified, key=key, pure=False
            )

        first = itertools.islice(sessions, self.threads)
        finished = distributed.as_completed([submit(session) for session in first])

        awaited: list[Any] = []

        def in_play() -> list[Any]:
            return list(finished.futures)

        def fetched() -> list[Any]:
            return awaited

        try:
            while not finished.is_empty():
                future = await self._connected(finished.__anext__(), in_play)
                session = submitted.pop(future.key)
                try:
                    if future.key in self._forgotten:
                        raise _Forgotten
                    awaited[:] = [future]
                    result: SessionResult = await self._connected(future, fetched)
                except _Forgotten:
                    results.failed(
                        f"session-{session.number}",
                        "the Dask scheduler let go of it before it ended (its result lost "
                        "with a worker); its games are not stored, a later run plays them",
                        f"{future.key}: not held by the scheduler at two looks {STALE:g} s apart",
                    )
                except SetupError:
                    raise
                except distributed.KilledWorker as exc:
                    results.failed(
                        f"session-{session.number}",
                        "every worker that played it died; its games are not stored, "
                        "a later run plays them",
                        str(exc),
                    )
                except Exception as exc:
                    if self._lost():
                        raise self._lost_error() from None
                    results.failed(
                        f"session-{session.number}",
                        f"the worker failed: {type(exc).__name__}: {exc}",
                        "".join(traceback.format_exception(exc)),
                    )
                else:
                    deliver(result, results)
                # Stored: let the result go, or a worker that dies holding it would have
                # the scheduler play the session again for a client that still wants it.
                future.release()
                awaited.clear()
                del future
                for more in itertools.islice(sessions, 1):
                    finished.add(submit(more))
        finally:
            pending = list(finished.futures)
            if pending and not self._lost():
                with contextlib.suppress(Exception):
                    await client.cancel(pending)

    async def aclose(self) -> None:
        from arena_kernel.executors.remote import close_run

        try:
            if self._renewing is not None:
                self._renewing.cancel()
                with contextlib.suppress(BaseException):
                    await self._renewing
            if self.client is not None:
                if not self._lost():
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(
                            self.client.run(close_run, self.setup.token), CLOSE_WAIT
                        )
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.client.close(), CLOSE_WAIT)
        finally:
            try:
                if self.cluster is not None:
                    await self.cluster.close()
            finally:
                self._quiet.close()


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    """The coordinator's ``distributed`` loggers silent but for critical records: what
    goes wrong in a run is the run's to say, in its own words (a lost connection logs
    tracebacks, a worker that dies a warning)."""
    names = ["distributed"] + [
        name for name in logging.root.manager.loggerDict if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


class _Forgotten(Exception):
    """A session's future that the scheduler let go of (:data:`STALE`)."""


def _play_on_this_worker(
    setup: WorkerSetup, session: Session, disqualified: frozenset[str]
) -> SessionResult:
    """A Dask task: play ``session`` on the worker that runs it, which a set-up error
    names (``worker tcp://10.0.0.7:40123 on host7: ...``)."""
    import socket

    from distributed import get_worker

    from arena_kernel.executors.remote import play_session

    where = f"worker {get_worker().address} on {socket.gethostname()}"
    return play_session(setup, session, disqualified, where)


def _sandbox(checks: dict[str, WorkerCheck]) -> tuple[str, str | None]:
    """The run's sandbox: ``"bwrap"`` when every worker confines its bots, else ``"none"``
    with the first worker's warning (naming it)."""
    for address, check in sorted(checks.items()):
        if check.sandbox != "bwrap" and check.sandbox_note is not None:
            return "none", f"{check.sandbox_note} (worker {address} on {check.host})"
    modes = {check.sandbox for check in checks.values()}
    return ("bwrap", None) if modes == {"bwrap"} else ("none", None)
