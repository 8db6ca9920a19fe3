"""What an executor plugin imports from arena besides :mod:`arena_kernel.plugin`: the
:class:`Executor` base class, the runner's :class:`Results` it hands games to, and the
calls that play a run's sessions on a remote worker of any distributed engine (the
built-in ``dask`` executor is made of them).

Names here change only with :data:`arena_kernel.plugin.API_VERSION`. Each is imported on
first use, so that registering an executor loads neither the referee nor the runner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from arena_kernel.lazy_names import served_on_first_use

if TYPE_CHECKING:  # _EXPORTS for type checkers: the same names from the same modules
    from arena_kernel.executors.base import Executor as Executor
    from arena_kernel.executors.base import Results as Results
    from arena_kernel.executors.remote import SessionResult as SessionResult
    from arena_kernel.executors.remote import WorkerCheck as WorkerCheck
    from arena_kernel.executors.remote import WorkerSetup as WorkerSetup
    from arena_kernel.executors.remote import check_worker as check_worker
    from arena_kernel.executors.remote import close_run as close_run
    from arena_kernel.executors.remote import coordinator_files as coordinator_files
    from arena_kernel.executors.remote import deliver as deliver
    from arena_kernel.executors.remote import play_session as play_session
    from arena_kernel.executors.remote import renew_run as renew_run

_EXPORTS: Final = {
    "Executor": "arena_kernel.executors.base",
    "Results": "arena_kernel.executors.base",
    "SessionResult": "arena_kernel.executors.remote",
    "WorkerCheck": "arena_kernel.executors.remote",
    "WorkerSetup": "arena_kernel.executors.remote",
    "check_worker": "arena_kernel.executors.remote",
    "close_run": "arena_kernel.executors.remote",
    "coordinator_files": "arena_kernel.executors.remote",
    "deliver": "arena_kernel.executors.remote",
    "play_session": "arena_kernel.executors.remote",
    "renew_run": "arena_kernel.executors.remote",
}
"""Every name of the surface, and the module that defines it."""

__all__ = [*_EXPORTS]

__getattr__ = served_on_first_use(__name__, _EXPORTS)
