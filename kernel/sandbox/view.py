"""What a sandboxed bot sees of the file system, as bwrap mount options.

Deny by default: the sandbox's root is empty and read-only, and only what is named here
appears in it, at the same path as outside:

- the system, read-only (:data:`SYSTEM`);
- a fresh ``/proc`` of the bot's own PID namespace (its kernel settings read-only), a
  minimal ``/dev``, and a private, size-capped ``/tmp`` and ``/dev/shm``;
- the bot's folder, read-only, without what it must not see (:attr:`View.hidden`: the
  database, the logs, the match file, other bots' folders and programs). Where something
  is hidden inside a folder, that folder is rebuilt from the entries it held when the bot
  started, so a file created there later (another bot's log, a database journal) is not
  visible either;
- what the bot's program needs to run (its runtime, the files its command names), read-only;
- what the organiser made writable.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
"""The system's folders every bot may read; the rest of ``/`` (home folders, ``/root``,
``/run`` with its service sockets, ``/var``, ``/srv``, ``/mnt``, ``/sys``) is not there."""

KERNEL_SETTINGS = ("/proc/sys", "/proc/sysrq-trigger")
"""Files of ``/proc`` that change the whole machine, read-only: file modes alone guard them,
and a bot of an arena run as root is user 0 (without capabilities, but ``/proc/sys`` asks
for none: it would accept a new ``kernel/core_pattern``, a way out of any sandbox)."""

SCRATCH = ("/tmp", "/dev/shm")
"""Private, empty, size-capped (``tmp_mb``) folders where any bot may write."""


@dataclass(frozen=True)
class View:
    """One bot's file system. Paths are absolute and resolved (no symlinks)."""

    folder: Path | None
    """The bot's folder (its cwd), read-only; None for a built-in bot, which runs in /tmp."""
    hidden: frozenset[Path] = frozenset()
    read_only: tuple[Path, ...] = ()
    read_write: tuple[Path, ...] = ()
    tmp_mb: int = 64

    @property
    def cwd(self) -> str:
        return str(self.folder) if self.folder is not None else "/tmp"


def same_path(path: str | os.PathLike[str]) -> Path:
    """``path`` absolute and without symlinks, as views compare paths."""
    return Path(os.path.realpath(path))


def system_args() -> list[str]:
    """The system folders, read-only; a merged-/usr link (``/bin -> usr/bin``) stays a link."""
    args: list[str] = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def mount_args(view: View) -> list[str]:
    """The bwrap options that build ``view``, in an order where every mount's parent is
    already in place: a folder before what is bound inside it, the read-only remounts last."""
    mounts: list[tuple[Path, list[str]]] = [
        (Path("/proc"), ["--proc", "/proc"]),
        (Path("/dev"), ["--dev", "/dev"]),
    ]
    mounts += [(Path(p), ["--ro-bind-try", p, p]) for p in KERNEL_SETTINGS]
    size = str(view.tmp_mb << 20)
    mounts += [(Path(p), ["--size", size, "--tmpfs", p]) for p in SCRATCH]
    rebuilt: list[Path] = []
    if view.folder is not None:
        mounts += _folder_mounts(view.folder, view.hidden, rebuilt)
    mounts += [(p, ["--ro-bind", str(p), str(p)]) for p in _existing(view.read_only)]
    mounts += [(p, ["--bind", str(p), str(p)]) for p in _existing(view.read_write)]
    # Stable: a folder's own entry (its tmpfs) stays before what is bound inside it.
    mounts.sort(key=lambda mount: mount[0].parts)
    args = system_args()
    for _, option in mounts:
        args += option
    for folder in rebuilt:
        args += ["--remount-ro", str(folder)]
    return [*args, "--remount-ro", "/dev", "--remount-ro", "/"]


def _existing(paths: Iterable[Path]) -> list[Path]:
    return [p for p in dict.fromkeys(paths) if os.path.lexists(p)]


def _folder_mounts(
    folder: Path, hidden: frozenset[Path], rebuilt: list[Path]
) -> list[tuple[Path, list[str]]]:
    """``folder`` read-only, less ``hidden``: bound whole when nothing inside it is hidden,
    else an empty read-only tmpfs with each entry bound back but the hidden ones. A link
    stays a link (binding it would show what it points to, maybe outside the folder)."""
    if folder in hidden:
        return []
    if not any(folder in h.parents for h in hidden):
        return [(folder, ["--ro-bind", str(folder), str(folder)])]
    rebuilt.append(folder)
    mounts: list[tuple[Path, list[str]]] = [(folder, ["--tmpfs", str(folder)])]
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return mounts
    for entry in entries:
        path = folder / entry.name
        if entry.is_symlink():
            mounts.append((path, ["--symlink", os.readlink(path), str(path)]))
        elif entry.is_dir():
            mounts += _folder_mounts(path, hidden, rebuilt)
        elif path not in hidden:
            mounts.append((path, ["--ro-bind", str(path), str(path)]))
    return mounts
