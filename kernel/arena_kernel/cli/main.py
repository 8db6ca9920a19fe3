"""``arena``: the command's entry point (the console script, ``python -m arena_kernel``).

User errors (a bad match file, an unknown game, a missing or damaged database) and
failures of the set-up (a command that does not exist, a port in use, a log folder that
cannot be written, another run on the same database) print one message and exit with
status 2, storing no game for them; a run whose games all finished exits 0; a run in which
a game plugin failed exits 1; a command interrupted by Ctrl-C or SIGTERM, at any moment,
prints one line and exits 130 (an interrupted run: run it again to resume). A plugin that
fails without stopping the command (an installed plugin that cannot be loaded, an
observer that raises) is one ``arena: warning: ...`` line.

The signal handlers are installed first, before the commands (click, plugins, the
runner) are imported, and ignored once the command has ended, while the interpreter exits:
see :mod:`arena_kernel.cli.interrupts`. The commands are in
:mod:`arena_kernel.cli.commands`.

Python's garbage collector is off while the commands and click are imported: it would
walk the new modules' objects a dozen times over, a tenth of what ``arena standings``
costs, to find no garbage in what lives as long as the process. The objects are then
frozen (left out of every later collection, as :func:`gc.freeze` says) and the collector
is on again for the command itself.
"""

from __future__ import annotations

import gc

from arena_kernel.cli.interrupts import (
    Interrupted,
    answer_signals,
    ignore_while_exiting,
    report_interruption,
)


def main() -> None:
    answer_signals()
    try:
        gc.disable()
        try:
            from arena_kernel.cli.commands import run_cli
        finally:
            gc.freeze()
            gc.enable()
        run_cli()
    except Interrupted:
        report_interruption()
    finally:
        try:
            ignore_while_exiting()
        except Interrupted:
            ignore_while_exiting()


if __name__ == "__main__":
    main()
