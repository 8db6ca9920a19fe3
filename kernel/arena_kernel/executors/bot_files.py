"""A bot's files by their content: what tells a worker's copy of a bot from the one the
coordinator has, before the first game.

Bots are not sent to the workers of a cluster: each machine has its own copy at the paths
the match file names, and a copy left stale on one machine would play another bot under
the same name, unseen. So each side lists the files a bot's command names with a digest of
their content, and a worker whose list is not the coordinator's does not play.

The files of a bot are those its command names: the program when it is given as a path
(``./bot``, ``bots/alpha/run.sh``; a bare name such as ``python3`` is a tool of the machine,
found on its ``PATH``) and every later argument that is a file or a folder in the bot's
folder (``cwd``), a folder with every file under it but hidden ones and ``__pycache__``
(what each machine writes for itself), and never the run's database or log files.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from arena_kernel.transports.base import BotProgram, uses_placeholders

BotFiles = dict[str, str]
"""A bot's files: each path as the command names it (a folder's files below it) -> the
SHA-256 of its content."""

_CHUNK = 1 << 20


def bot_files(program: BotProgram, database: Path, logs: Path) -> BotFiles:
    """The files ``program``'s command names, with the digests of their content, but the
    match file's ``database`` (with its journal and lock files, named after it) and what
    is under its ``logs`` folder."""
    own = _Own(database.resolve(), logs.resolve())
    if program.argv is None:
        return {}
    cwd = Path(program.cwd) if program.cwd is not None else Path.cwd()
    found: BotFiles = {}
    for position, arg in enumerate(program.argv):
        if not arg or uses_placeholders((arg,)) or (position == 0 and os.sep not in arg):
            continue
        path = cwd / arg
        if path.is_file() and not own(path):
            found[arg] = _digest(path)
        elif position > 0 and path.is_dir():
            for file in _files_under(path, own):
                found[str(Path(arg) / file.relative_to(path))] = _digest(file)
    return found


def first_difference(mine: Mapping[str, str], reference: Mapping[str, str]) -> str | None:
    """How ``mine`` differs from the ``reference`` files, in words (the first file in
    name order that differs), or None when they are the same."""
    for path in sorted(set(mine) | set(reference)):
        here, there = mine.get(path), reference.get(path)
        if here == there:
            continue
        if here is None:
            return f"{path} is missing here"
        if there is None:
            return f"{path} is here but not on the coordinator"
        return f"{path} differs from the coordinator's ({here[:12]} here, {there[:12]} there)"
    return None


@dataclass(frozen=True)
class _Own:
    """The run's own files, which no bot's list holds."""

    database: Path
    logs: Path

    def __call__(self, path: Path) -> bool:
        resolved = path.resolve()
        database = self.database
        return resolved.is_relative_to(self.logs) or (
            resolved.parent == database.parent and resolved.name.startswith(database.name)
        )


def _files_under(folder: Path, own: _Own) -> Iterator[Path]:
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith(".") and f != "__pycache__")
        for name in sorted(files):
            path = Path(root) / name
            if not name.startswith(".") and path.is_file() and not own(path):
                yield path


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
