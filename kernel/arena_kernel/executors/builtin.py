"""The built-in executors, registered through the same hook as any third-party one (and
imported only when registered)."""

from __future__ import annotations

from arena_kernel.hookspecs import Register
from arena_kernel.markers import hookimpl


@hookimpl
def arena_register_executors(register: Register) -> None:
    from arena_kernel.executors.dask import DaskExecutor
    from arena_kernel.executors.local import LocalExecutor

    for executor in (LocalExecutor, DaskExecutor):
        register(executor)
