"""Which file ``exec`` runs for a command's first word, outside the sandbox and inside a
bot's view, found the same way in both.

A word with a slash is a path from the working folder; a bare name is the first
executable file of that name in the ``PATH`` folders, in order (an empty entry is the
working folder, and ``/bin:/usr/bin`` stands for a missing ``PATH``, as in glibc and
Python). A script runs the interpreter its ``#!`` line names (:func:`interpreter`), itself
found the same way: ``#!/usr/bin/env python3`` looks ``python3`` up on the ``PATH``.

Inside, a path is followed through the mounts that make the view (:class:`Mounts`): the
system folders, the bot's folder less what is hidden, what is shown read-only or
writable, each at its own path and showing what is there outside; ``/tmp``,
``/dev/shm``, ``/proc`` and ``/dev`` hold no program of the machine, and the folders on the
way to a mount are empty. A symlink is followed inside, where its target may be missing,
so ``/home/me/bin/python3`` is not there when only ``/data/me/bin/python3``, the path
``/home/me`` leads to, is shown.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from arena_kernel.sandbox.view import SCRATCH, SYSTEM, View

CHAIN = 4
"""How many ``#!`` interpreters deep a program is followed (Linux's own limit)."""

SYMLINKS = 40
"""How many symlinks a path may pass through (Linux's ``ELOOP`` limit)."""

HEAD = 256
"""How much of a file the kernel reads for its ``#!`` line."""


@dataclass(frozen=True)
class Mounts:
    """A file system as a sandbox shows it: ``shown`` paths show what is at the same path
    outside, less ``hidden`` ones; ``empty`` ones (a tmpfs, ``/proc``) show nothing of it."""

    shown: tuple[Path, ...]
    hidden: frozenset[Path] = frozenset()
    empty: tuple[Path, ...] = ()

    @classmethod
    def outside(cls) -> Mounts:
        """The whole machine, as the arena sees it."""
        return cls(shown=(Path("/"),))

    @classmethod
    def of(cls, view: View) -> Mounts:
        """What a bot with ``view`` sees."""
        folder = () if view.folder is None else (view.folder,)
        return cls(
            shown=(*map(Path, SYSTEM), *folder, *view.read_only, *view.read_write),
            hidden=view.hidden,
            empty=(Path("/proc"), Path("/dev"), *map(Path, SCRATCH)),
        )

    def follow(self, path: Path) -> Path | None:
        """Where ``path`` (absolute) leads: the path outside of what it reaches, symlinks
        followed as they are seen here, or None when it is not there."""
        todo = list(reversed(path.parts[1:]))
        current = Path("/")
        links = 0
        while todo:
            part = todo.pop()
            if part in ("", "."):
                continue
            if part == "..":
                current = current.parent
                continue
            candidate = current / part
            seen = self._seen(candidate)
            if seen is None:
                return None
            if seen and candidate not in self.shown and os.path.islink(candidate):
                links += 1
                if links > SYMLINKS:
                    return None
                target = Path(os.readlink(candidate))
                todo.extend(reversed(target.parts[1:] if target.is_absolute() else target.parts))
                if target.is_absolute():
                    current = Path("/")
                continue
            current = candidate
        return current

    def _seen(self, path: Path) -> bool | None:
        """How ``path`` is seen: True, as it is outside (if it is there); False, as an empty
        folder on the way to a mount; None, not at all."""
        if any(path == h or h in path.parents for h in self.hidden):
            return None
        mount = max(
            (m for m in (*self.shown, *self.empty) if path == m or m in path.parents),
            key=lambda m: len(m.parts),
            default=None,
        )
        if mount is not None and mount in self.shown:
            if os.path.lexists(path):
                return True
        elif mount == path:
            return False
        return False if self._on_the_way(path) else None

    def _on_the_way(self, path: Path) -> bool:
        return any(path in m.parents for m in (*self.shown, *self.empty))


def find(word: str, cwd: Path, env: Mapping[str, str], mounts: Mounts) -> Path | None:
    """The file ``exec`` runs for the command word ``word`` from folder ``cwd`` with
    ``env``'s ``PATH``, in ``mounts``: its path as ``exec`` finds it (symlinks not
    resolved), or None."""
    if "/" in word:
        candidates: Iterable[Path] = [cwd / word]
    else:
        candidates = (cwd / folder / word for folder in env.get("PATH", os.defpath).split(":"))
    for candidate in candidates:
        found = mounts.follow(candidate)
        if found is not None and os.path.isfile(found) and os.access(found, os.X_OK):
            return Path(os.path.normpath(candidate))
    return None


def outside(word: str, cwd: Path, env: Mapping[str, str]) -> Path | None:
    """The file ``exec`` runs for ``word`` outside the sandbox (see :func:`find`)."""
    return find(word, cwd, env, Mounts.outside())


def interpreter(program: Path) -> str | None:
    """The command word a script's ``#!`` line runs it with: the interpreter's path, or the
    name ``env`` looks up on the ``PATH`` (``#!/usr/bin/env -S python3 -u``: ``python3``);
    None for a file that is no script."""
    try:
        with open(program, "rb") as file:
            head = file.read(HEAD).split(b"\n", 1)[0]
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].decode(errors="replace").split()
    if words and os.path.basename(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    return words[0] if words else None
