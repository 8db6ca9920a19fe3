"""A Dask cluster on this machine, for tests of the dask executor: real worker processes
(each with the referee's event loop, its bots below it) and a real scheduler."""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Mapping
from typing import Any


def distributed_or_skip() -> Any:
    """The ``distributed`` module; skips the test without it (fails under ``CI=true``)."""
    try:
        import distributed
    except ImportError:
        from arena_kernel.testing.pytest_plugin import skip_unless_ci

        skip_unless_ci("distributed is not installed (pip install 'arena-kernel[dask]')")
    return distributed


@contextlib.contextmanager
def local_cluster(
    workers: int = 2, threads: int = 1, env: Mapping[str, str] | None = None
) -> Iterator[Any]:
    """A ``distributed.LocalCluster`` of ``workers`` processes (``threads`` sessions at
    once each, ``env`` set in them), closed on exit; its ``scheduler_address`` is what
    ``--scheduler`` takes."""
    distributed = distributed_or_skip()
    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=threads,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
        env=dict(env or {}),
    ) as cluster:
        yield cluster


def worker_pids(address: str) -> dict[str, int]:
    """The process id of each worker of the scheduler at ``address``, by worker address."""
    distributed = distributed_or_skip()
    with distributed.Client(address, timeout=30) as client:
        pids: dict[str, int] = client.run(os.getpid)
        return pids


def busy_workers(address: str) -> dict[str, int]:
    """How many tasks each worker of the scheduler at ``address`` is playing right now."""
    distributed = distributed_or_skip()
    with distributed.Client(address, timeout=30) as client:
        return {worker: len(tasks) for worker, tasks in client.processing().items()}
