"""Running a match file from Python: what ``arena run`` does, for tests and scripts."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import signal
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from arena_kernel.errors import OptionError
from arena_kernel.match.loader import load_match
from arena_kernel.match.spec import MatchSpec
from arena_kernel.options import check_options
from arena_kernel.registries.manager import (
    ArenaPluginManager,
    get_plugin_manager,
    load_registries,
)
from arena_kernel.registries.registry import Registries
from arena_kernel.runner.league import LeagueRunner, Sitting
from arena_kernel.runner.run import Runner, RunSummary
from arena_kernel.store.sqlite import Store


@dataclasses.dataclass
class Prepared:
    """A match file read and validated, with the plugin manager that validated it."""

    spec: MatchSpec
    pm: ArenaPluginManager
    registries: Registries


def prepare(
    path: Path,
    plugins: Iterable[str | object] = (),
    *,
    concurrency: int | None = None,
    executor: str | None = None,
    executor_options: Mapping[str, Any] | None = None,
) -> Prepared:
    """Load plugins (built-ins, entry points, ``plugins``, the file's own ``plugins``)
    and validate the match file against them.

    ``concurrency``, ``executor`` and ``executor_options`` (the executor's, on top of the
    file's ``[executor_options.NAME]``) override the file's: what ``arena run -j``,
    ``--executor`` and ``--scheduler`` say."""

    @functools.cache
    def plugins_for(extra: tuple[str, ...]) -> tuple[ArenaPluginManager, Registries]:
        """The manager of ``plugins`` and the file's ``extra`` ones, with its registries:
        made once, when the loader hands over the file's plugins, and found again here."""
        pm = get_plugin_manager(extra=[*plugins, *extra])
        return pm, load_registries(pm)

    spec = load_match(Path(path), lambda extra: plugins_for(extra)[1])
    if concurrency is not None:
        spec = dataclasses.replace(spec, concurrency=concurrency)
    pm, registries = plugins_for(spec.plugins)
    if executor is not None or executor_options:
        spec = _with_executor(spec, registries, executor or spec.executor, executor_options or {})
    return Prepared(spec, pm, registries)


def _with_executor(
    spec: MatchSpec, registries: Registries, name: str, options: Mapping[str, Any]
) -> MatchSpec:
    """``spec`` played by the executor ``name`` with ``options`` on top of the file's."""
    try:
        cls = registries.executors.cls(name)
        merged = {**spec.executor_options.get(name, {}), **options}
        check_options(cls.declared_options(), merged, f'executor "{name}"')
    except OptionError as exc:
        raise OptionError(exc.key, f"{spec.path}: {exc}") from None
    return dataclasses.replace(
        spec, executor=name, executor_options={**spec.executor_options, name: merged}
    )


def run_prepared(
    prepared: Prepared, observers: Iterable[object] = (), sitting: Sitting | None = None
) -> RunSummary:
    """Play the pending games of a prepared match and return the summary.

    ``observers`` are plugin objects implementing the notification hooks (progress
    display, reports). ``sitting`` says when a league's run stops (and which bots start
    a new rating); it is for leagues only. Ctrl-C and SIGTERM stop the run: the games in
    progress are abandoned (they replay from the start next time), every bot is ended,
    and the call raises ``KeyboardInterrupt``.
    """
    sitting = sitting or Sitting()
    sitting.check(prepared.spec)
    for observer in observers:
        prepared.pm.register(observer)
    with Store(prepared.spec.database) as store, store.checkpoints_aside():
        runner: Runner
        if prepared.spec.format == "league":
            runner = LeagueRunner(prepared.spec, prepared.registries, store, prepared.pm, sitting)
        else:
            runner = Runner(prepared.spec, prepared.registries, store, prepared.pm)
        return asyncio.run(_play(runner))


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


async def _play(runner: Runner) -> RunSummary:
    """Play, turning the first SIGINT or SIGTERM into a cancellation of the run.

    Both are taken by the event loop, between two callbacks, never in the middle of one:
    Python's own SIGINT handling raises ``KeyboardInterrupt`` wherever the code happens to
    be, between starting a bot and keeping its handle for instance, and asyncio's cancels
    again at a second Ctrl-C, interrupting the ending of bots. Signals after the first are
    ignored while the run ends its bots, which takes at most ``clock.kill`` seconds
    (``kill -9`` stays safe: the warden ends them, see :mod:`arena_kernel.processes.warden`).
    Signals reach only the main thread; elsewhere the caller handles them.

    Afterwards the handlers from before the run are back (``arena``'s own, see
    :mod:`arena_kernel.cli.interrupts`), with no moment between without one.
    """
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    stopping = False

    def stop() -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            task.cancel()

    handled = STOP_SIGNALS if threading.current_thread() is threading.main_thread() else ()
    before = {sig: signal.getsignal(sig) for sig in handled}
    for sig in handled:
        loop.add_signal_handler(sig, stop)
    try:
        return await runner.play()
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None
    finally:
        _restore(loop, before)


def _restore(loop: asyncio.AbstractEventLoop, handlers: Mapping[signal.Signals, Any]) -> None:
    """Give each signal of ``handlers`` back its handler: the loop's removal leaves the
    default one (SIGTERM's kills the process), so the signals wait, blocked, until the
    handler is back."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, handlers)
    try:
        for sig, handler in handlers.items():
            loop.remove_signal_handler(sig)
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def run_match(
    path: Path,
    plugins: Iterable[str | object] = (),
    *,
    concurrency: int | None = None,
    executor: str | None = None,
    executor_options: Mapping[str, Any] | None = None,
    sitting: Sitting | None = None,
) -> RunSummary:
    """Play the match file at ``path`` (see :func:`prepare` for the overrides, and
    :func:`run_prepared` for ``sitting``)."""
    prepared = prepare(
        path,
        plugins,
        concurrency=concurrency,
        executor=executor,
        executor_options=executor_options,
    )
    return run_prepared(prepared, sitting=sitting)
