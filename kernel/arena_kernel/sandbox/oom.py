"""Whom the kernel's out-of-memory killer ends first: a bot, never the arena.

When the machine runs out of memory, the kernel kills the process with the highest
``oom_score``: its share of the memory plus its ``oom_score_adj`` (-1000 to 1000). Every
bot's first process raises its own to 1000 before anything of the bot runs
(:data:`RAISE_BOT_SCORE`, in the ``sh`` prefix every bot starts through, see
:func:`~arena_kernel.sandbox.cgroups.join_command`), and all it forks inherits that. Any
process may raise its own score. Lowering it takes ``CAP_SYS_RESOURCE`` (root): an arena
that has it lowers its own to -1000 (:func:`spare_arena`), which the kernel never picks, and
so does the warden it starts after. One set by a process with that capability is also the
floor below which the process's descendants cannot go without it: a bot of a root arena
cannot lower its own score back. An arena without it keeps the score it was given (0,
usually), which a bot's 1000 still outranks, and a bot may lower its own back to that.
"""

from __future__ import annotations

import contextlib

BOT_SCORE = 1000
"""Every bot's ``oom_score_adj``: the first the out-of-memory killer picks."""

ARENA_SCORE = -1000
"""The arena's ``oom_score_adj`` where it may set it: never picked."""

RAISE_BOT_SCORE = f"{{ echo {BOT_SCORE} > /proc/self/oom_score_adj; }} 2>/dev/null"
"""``sh`` that raises its own process's score (a failure, on a ``/proc`` that refuses the
write, leaves the bot at the arena's score; it is not the bot's to report)."""

CAP_SYS_RESOURCE = 24


def spare_arena() -> bool:
    """Lower this process's ``oom_score_adj`` to :data:`ARENA_SCORE`; whether it could."""
    try:
        with open("/proc/self/oom_score_adj", "w") as score:
            score.write(f"{ARENA_SCORE}\n")
    except OSError:
        return False
    return True


def may_spare_arena() -> bool:
    """Whether this process has ``CAP_SYS_RESOURCE``, which :func:`spare_arena` needs."""
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("CapEff:"):
                return bool(int(line.split()[1], 16) >> CAP_SYS_RESOURCE & 1)
    return False
