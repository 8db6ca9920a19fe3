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
- before the first game, every worker checks that it can start every bot
  (:func:`~arena_kernel.executors.remote.check_worker`).
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import logging
import secrets
import traceback
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from arena_kernel.errors import SetupError
from arena_kernel.executors.base import Executor, Results
from arena_kernel.options import Option

if TYPE_CHECKING:  # registering an executor imports no game, no referee and no Dask
    from arena_kernel.executor_plugin import SessionResult, WorkerCheck, WorkerSetup
    from arena_kernel.match.resolved import ResolvedMatch
    from arena_kernel.match.schedule import Session, Sessions


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
            "has its distributed.scheduler.allowed-failures, plus one).",
            minimum=1,
        ),
    }

    def __init__(
        self, match: ResolvedMatch, plugins: Sequence[str | object] = (), **options: Any
    ) -> None:
        super().__init__(match, plugins, **options)
        self.client: Any = None
        self.cluster: Any = None
        self._tasks = itertools.count()
        self.threads = 1

    async def prepare(self, sessions: Sessions) -> None:
        from arena_kernel.executor_plugin import WorkerSetup, check_worker

        distributed = self._distributed()
        self.setup = WorkerSetup(secrets.token_hex(8), self.match.spec, self._plugin_paths())
        await self._connect(distributed)
        checks: dict[str, WorkerCheck] = await self.client.run(check_worker, self.setup)
        problems = [
            f"worker {address} on {check.host}: {check.problem}"
            for address, check in sorted(checks.items())
            if check.problem is not None
        ]
        if problems:
            raise SetupError("; ".join(problems))
        threads: dict[str, int] = await self.client.nthreads()
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
                "distributed.scheduler.worker-saturation": 1.0,
            }
            with dask.config.set(settings):
                self.cluster = await distributed.LocalCluster(
                    n_workers=self.config["workers"],
                    threads_per_worker=self.config["threads"],
                    processes=True,
                    asynchronous=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            address = self.cluster.scheduler_address
        try:
            timeout = self.config["timeout"]
            self.client = await distributed.Client(address, asynchronous=True, timeout=timeout)
            await self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise SetupError(
                f"{self.match.spec.path}: cannot reach a Dask scheduler with a worker at "
                f"{address}: {exc}"
            ) from None

    async def play(self, sessions: Iterator[Session], results: Results) -> None:
        from arena_kernel.executor_plugin import deliver

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

        first = [submit(s) for s in itertools.islice(sessions, self.threads)]
        finished = distributed.as_completed(first)
        try:
            async for future in finished:
                session = submitted.pop(future.key)
                try:
                    result: SessionResult = await future
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
                    results.failed(
                        f"session-{session.number}",
                        f"the worker failed: {type(exc).__name__}: {exc}",
                        "".join(traceback.format_exception(exc)),
                    )
                else:
                    deliver(result, results)
                for more in itertools.islice(sessions, 1):
                    finished.add(submit(more))
        finally:
            pending = list(finished.futures)
            if pending:
                with contextlib.suppress(Exception):
                    await client.cancel(pending)

    async def aclose(self) -> None:
        from arena_kernel.executor_plugin import close_run

        try:
            if self.client is not None:
                with contextlib.suppress(Exception):
                    await self.client.run(close_run, self.setup.token)
                await self.client.close()
        finally:
            if self.cluster is not None:
                await self.cluster.close()


def _play_on_this_worker(
    setup: WorkerSetup, session: Session, disqualified: frozenset[str]
) -> SessionResult:
    """A Dask task: play ``session`` on the worker that runs it, which a set-up error
    names (``worker tcp://10.0.0.7:40123 on host7: ...``)."""
    import socket

    from distributed import get_worker

    from arena_kernel.executor_plugin import play_session

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
