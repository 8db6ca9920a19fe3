"""What ``arena plugins`` listed, kept in the user's cache folder with everything it
depends on, so that the next listing needs to import no plugin; and the installed
plugins' entry points, so that a command loading them needs no scan of every
distribution's metadata (:func:`~arena_kernel.registries.installed.installed_plugins`).

Listing loads every installed plugin, and with their games the referee and asyncio: 150 ms
of CPU or more, against 25 ms for Python's own start. What it lists changes only when
one of these does, so the cache keeps them beside the listing and serves it only while
every one is as it was:

- the interpreter (its version and executable), ``sys.path`` and ``ARENA_DISABLE_PLUGINS``;
- every ``*.dist-info`` and ``*.egg-info`` folder on ``sys.path`` (where
  ``importlib.metadata`` reads the entry points from), with its modification time and that
  of its ``entry_points.txt``: installing, removing or reinstalling a distribution
  changes them;
- the file of every module loaded once the listing was made (the kernel's, the plugins',
  their dependencies'; not the standard library's, which goes with the interpreter's
  version), with its modification time and size: editing an editable install changes
  them.

A module a plugin failed to import and then did without is not among them: its appearing
later is not seen until something else changes. The cache is a convenience: a folder that
cannot be written or a file that cannot be read is the same as no cache.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena_kernel.registries.report import DISABLE_VARIABLE

FORMAT = 1
"""Bumped when what a cache file holds changes: a file of another format is a miss."""

METADATA_SUFFIXES = (".dist-info", ".egg-info")

Stamp = list[Any]
"""A file's ``[path, mtime_ns, size, inode]`` (a file replaced within the clock's tick has
another inode), or ``[path, None, None, None]`` when it is missing."""


CACHE_VARIABLE = "ARENA_CACHE_DIR"
"""The cache folder, where it is not the default (tests give each session one of its own)."""

KEPT_FILES = 32
"""Files of one kind a folder keeps, the most recently written: one per interpreter and
path, and a path with a temporary folder on it (a test's) is seen once."""


def cache_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """``$ARENA_CACHE_DIR``, else ``$XDG_CACHE_HOME/arena``, by default ``~/.cache/arena``."""
    if environ.get(CACHE_VARIABLE):
        return Path(environ[CACHE_VARIABLE])
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "arena"


def stamp(path: str) -> Stamp:
    try:
        found = os.stat(path)
    except OSError:
        return [path, None, None, None]
    return [path, found.st_mtime_ns, found.st_size, found.st_ino]


def distributions(entries: list[str]) -> list[list[Any]]:
    """The metadata folders of the distributions on the path ``entries``, each as its path,
    its own modification time and inode, and its ``entry_points.txt``'s stamp."""
    found = []
    for entry in entries:
        try:
            with os.scandir(entry or ".") as listing:
                folders = sorted(
                    (item.path, item.stat().st_mtime_ns, item.inode())
                    for item in listing
                    if item.name.endswith(METADATA_SUFFIXES)
                )
        except OSError:  # not a folder (a zip file: its own stamp stands for it), missing
            if os.path.isfile(entry):
                found.append([entry, *stamp(entry)[1:]])
            continue
        for path, mtime, inode in folders:
            entry_points = stamp(os.path.join(path, "entry_points.txt"))[1:]
            found.append([path, mtime, inode, entry_points])
    return found


def environment(environ: Mapping[str, str] | None = os.environ) -> dict[str, Any]:
    """What the listing of this process depends on besides its modules' files (``environ``
    None: what the entry points depend on, the distributions, and not the disabled
    plugins)."""
    found: dict[str, Any] = {
        "python": [sys.version, sys.executable],
        "path": list(sys.path),
        "distributions": distributions(sys.path),
    }
    if environ is not None:
        found["disabled"] = environ.get(DISABLE_VARIABLE, "")
    return found


def loaded_files() -> list[Stamp]:
    """The stamps of the files of every module loaded now but the standard library's."""
    files = set()
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in sys.stdlib_module_names:
            continue
        path = getattr(module, "__file__", None)
        if isinstance(path, str):
            files.add(path)
    return [stamp(path) for path in sorted(files)]


class ListingCache:
    """One cache file per interpreter and path (so that two environments do not take turns
    replacing each other's listing) in ``folder``; ``kind`` names what it keeps
    (``plugins``: the listing; ``entry-points``: the installed plugins' entry points, which
    depend on the distributions alone: their ``env`` has no ``disabled``)."""

    def __init__(self, folder: Path, env: dict[str, Any], kind: str = "plugins") -> None:
        self.env = env
        self.kind = kind
        scope = json.dumps([env["python"], env["path"]]).encode()
        self.path = folder / f"{kind}-{zlib.crc32(scope):08x}.json"

    def read(self) -> Any | None:
        """The listing kept for this environment while nothing it depends on has changed,
        else None."""
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(kept, dict) or kept.get("format") != FORMAT:
            return None
        if kept.get("environment") != self.env:
            return None
        files = kept.get("files")
        if not isinstance(files, list) or any(
            not isinstance(kept_stamp, list) or stamp(kept_stamp[0]) != kept_stamp
            for kept_stamp in files
        ):
            return None
        return kept.get("listing")

    def write(self, listing: Any, files: list[Stamp]) -> None:
        """Keep ``listing`` (JSON data) with the stamps ``files``; a failure keeps nothing."""
        document = {"format": FORMAT, "environment": self.env, "files": files, "listing": listing}
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            partial.write_text(json.dumps(document), encoding="utf-8")
            os.replace(partial, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
            return
        self._prune()

    def _prune(self) -> None:
        """Remove all but the :data:`KEPT_FILES` most recently written files of this kind
        (this one among them, whatever the clock's tick made of the others' times)."""
        with contextlib.suppress(OSError):
            others = sorted(
                (
                    path
                    for path in self.path.parent.glob(f"{self.kind}-????????.json")
                    if path != self.path
                ),
                key=lambda path: path.stat().st_mtime_ns,
                reverse=True,
            )
            for stale in others[KEPT_FILES - 1 :]:
                stale.unlink(missing_ok=True)
