"""Checks made once before the first game, for what would otherwise fail every game.

A command that does not exist or a log folder that cannot be written is the organiser's
set-up, not the bots' play: found before the first game it is one clear line
(:class:`~arena_kernel.errors.SetupError`), instead of a schedule of games lost to faults.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from arena_kernel.errors import SetupError
from arena_kernel.transports.base import BotProgram, uses_placeholders
from arena_kernel.transports.process import missing_program


def check_program(program: BotProgram, source: str) -> None:
    """Raise unless ``program``'s command can be started (``source`` names the match file).
    A bot without a command (in-process, or one that connects by itself) passes."""
    if program.argv is None:
        return
    problem = None
    if not program.argv:
        problem = "its command is empty"
    elif program.cwd is not None and not os.path.isdir(program.cwd):
        problem = f"its folder (cwd) {program.cwd} does not exist"
    elif not uses_placeholders(program.argv[:1]):
        problem = missing_program(program.argv[0], program.cwd, {**os.environ, **program.env})
    if problem is not None:
        raise SetupError(f'{source}: bot "{program.name}" cannot be started: {problem}')


def check_writable_folder(path: Path, key: str, source: str) -> None:
    """Create the folder ``path`` (the match file's ``key``) if needed and prove that a
    file can be written in it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        reason = "it is a file, not a folder" if path.is_file() else exc.strerror or str(exc)
        raise SetupError(f"{source}: `{key}` {path}: cannot create the folder: {reason}") from None
    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise SetupError(
            f"{source}: `{key}` {path}: cannot write in the folder: {exc.strerror or exc}"
        ) from None
