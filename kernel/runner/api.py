"""Running a match file from Python: what ``arena run`` does, for tests and scripts."""

from __future__ import annotations

import asyncio
import dataclasses
import signal
from collections.abc import Iterable
from pathlib import Path

import pluggy

from kernel.match.loader import load_match
from kernel.match.spec import MatchSpec
from kernel.plugins.manager import get_plugin_manager, load_registries
from kernel.plugins.registry import Registries
from kernel.runner.run import Runner, RunSummary
from kernel.store.sqlite import Store


@dataclasses.dataclass
class Prepared:
    """A match file read and validated, with the plugin manager that validated it."""

    spec: MatchSpec
    pm: pluggy.PluginManager
    registries: Registries


def prepare(
    path: Path, plugins: Iterable[str | object] = (), *, concurrency: int | None = None
) -> Prepared:
    """Load plugins (built-ins, entry points, ``plugins``, the file's own ``plugins``)
    and validate the match file against them."""
    loaded: list[tuple[pluggy.PluginManager, Registries]] = []

    def registries_for(extra: tuple[str, ...]) -> Registries:
        pm = get_plugin_manager(extra=[*plugins, *extra])
        loaded.append((pm, load_registries(pm)))
        return loaded[-1][1]

    spec = load_match(Path(path), registries_for)
    if concurrency is not None:
        spec = dataclasses.replace(spec, concurrency=concurrency)
    pm, registries = loaded[-1]
    return Prepared(spec, pm, registries)


def run_prepared(prepared: Prepared, observers: Iterable[object] = ()) -> RunSummary:
    """Play the pending games of a prepared match and return the summary.

    ``observers`` are plugin objects implementing the notification hooks (progress
    display, reports). SIGTERM stops the run as cleanly as Ctrl-C: the games in progress
    are abandoned (they replay from the start next time) and every bot is ended; both
    surface as ``KeyboardInterrupt``.
    """
    for observer in observers:
        prepared.pm.register(observer)
    with Store(prepared.spec.database) as store:
        runner = Runner(prepared.spec, prepared.registries, store, prepared.pm)
        return asyncio.run(_play(runner))


async def _play(runner: Runner) -> RunSummary:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        return await runner.play()
    except asyncio.CancelledError:
        raise KeyboardInterrupt from None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def run_match(
    path: Path, plugins: Iterable[str | object] = (), *, concurrency: int | None = None
) -> RunSummary:
    return run_prepared(prepare(path, plugins, concurrency=concurrency))
