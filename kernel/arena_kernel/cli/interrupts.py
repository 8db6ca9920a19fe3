"""Ctrl-C and SIGTERM at any moment of an ``arena`` command: one line, exit status 130.

Left to Python, SIGINT while the command imports its modules or loads plugins is a
``KeyboardInterrupt`` traceback (exit status -2), click turns one met in a command into
``Aborted!`` (status 1), and SIGTERM kills the process silently (status 143). So the entry
point (:mod:`arena_kernel.cli.main`) installs :func:`answer_signals` before it imports
anything of its own; from then on the first of either signal raises :class:`Interrupted`
where the program is, and later ones are ignored while it unwinds. Once the command has
ended, its exit status decided, both are ignored while the interpreter exits
(:func:`ignore_while_exiting`).

Where that is unsafe, a run playing its games, the run takes the signals itself (see
:func:`arena_kernel.runner.api.run_prepared`): it ends every bot, then raises
``KeyboardInterrupt``, which the commands turn into :func:`interrupted`. Neither cuts a
store write in half: a game is stored in one SQLite transaction, which an exception
rolls back and a killed process never commits.

This module imports the standard library only, so that installing the handlers costs
nothing before they are there.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

EXIT_STATUS = 130
"""128 + SIGINT, what shells report for a program ended by Ctrl-C, also after SIGTERM."""

RESUME = {"run": "run the same match file again to resume"}
"""What to do next after an interrupted command, by command (the others have nothing to
resume)."""


class Interrupted(BaseException):
    """SIGINT or SIGTERM stopped the command.

    A ``BaseException``, as ``KeyboardInterrupt`` is, so that no ``except Exception`` (of
    a plugin, say) swallows it; not a ``KeyboardInterrupt``, which click would turn into
    ``Aborted!``."""


class _State:
    stopping = False
    """Set once the command is stopping: further signals are ignored."""


def answer_signals() -> None:
    """From now on, the first SIGINT or SIGTERM raises :class:`Interrupted`; one that was
    ignored when the process started (``nohup``, a shell's background job) stays so."""
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _stop)


def _stop(signum: int, frame: FrameType | None) -> None:
    if _State.stopping:
        return
    _State.stopping = True
    raise Interrupted


def ignore_while_exiting() -> None:
    """Ignore SIGINT and SIGTERM from now on: the command has ended and its exit status is
    decided.

    What is left is the interpreter's exit: joining threads, the clean-up registered for
    the exit (a run's cgroups are removed then), flushing the output. A signal there would
    cut into it, with a traceback of the thread join it interrupted, or, once Python has
    given the signals their default action back part-way through its exit, by killing the
    process (status -2 or -15) after it has done its work. An exit that hangs then takes
    ``kill -9``.

    A signal that came as the command ended raises :class:`Interrupted` as this is called
    (Python runs handlers as a function starts): the caller calls it again, which is safe,
    as :func:`_stop` raises once at most."""
    _State.stopping = True
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)


def interrupted() -> Interrupted:
    """The interruption a run took by itself (and has already ended its bots for), for
    the command to raise: further signals are ignored from now on."""
    _State.stopping = True
    return Interrupted()


def interrupted_line(argv: Sequence[str]) -> str:
    """The one line an interrupted ``arena ARGV...`` prints: for ``arena run``, with how
    to resume. The command is the first argument that is not an option (the ``arena``
    group itself takes flags only)."""
    command = next((arg for arg in argv[1:] if not arg.startswith("-")), None)
    hint = RESUME.get(command or "")
    return "arena: interrupted" + (f"; {hint}" if hint else "")


def report_interruption() -> NoReturn:
    """Print the interrupted line on stderr (over what a terminal shows of the line it is
    on: the ``^C`` it echoed) and exit with :data:`EXIT_STATUS`."""
    _State.stopping = True
    clear = "\r\x1b[K" if sys.stderr.isatty() else ""
    sys.stderr.write(f"{clear}{interrupted_line(sys.argv)}\n")
    sys.stderr.flush()
    sys.exit(EXIT_STATUS)
