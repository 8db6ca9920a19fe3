"""What a sandboxed bot sees of the file system, as bwrap mount options.

Deny by default: the sandbox's root is empty and read-only, and only what is named here
appears in it, at the same path as outside:

- the system, read-only (:data:`SYSTEM`);
- a fresh ``/proc`` of the bot's own PID namespace (its kernel settings read-only), a
  minimal ``/dev``, and a private, size-capped ``/tmp`` and ``/dev/shm``;
- the bot's folder, without what it must not see (:attr:`View.hidden`: the database, the
  logs, the match file, other bots' folders and programs): a private copy made when the
  bot starts (:mod:`~arena_kernel.sandbox.private_folder`), so a file created there later
  (another bot's log, a database journal) is not visible either;
- what the bot's program needs to run (its runtime, the files its command names), read-only;
- what the organiser made writable.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from arena_kernel.model.values import FrozenValue, set_fields

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
"""The system's folders every bot may read; the rest of ``/`` (home folders, ``/root``,
``/run`` with its service sockets, ``/var``, ``/srv``, ``/mnt``, ``/sys``) is not there."""

KERNEL_SETTINGS = ("/proc/sys", "/proc/sysrq-trigger")
"""Files of ``/proc`` that change the whole machine, read-only: file modes alone guard them,
and a bot of an arena run as root is user 0 (without capabilities, but ``/proc/sys`` asks
for none: it would accept a new ``kernel/core_pattern``, a way out of any sandbox)."""

SCRATCH = ("/tmp", "/dev/shm")
"""Private, empty, size-capped (``tmp_mb``) folders where any bot may write."""


class View(FrozenValue):
    """One bot's file system. Paths are absolute and resolved (no symlinks)."""

    __slots__ = ("folder", "hidden", "read_only", "read_write", "tmp_mb")

    folder: Path | None
    """The bot's folder (its cwd), read-only; None for a built-in bot, which runs in /tmp."""
    hidden: frozenset[Path]
    read_only: tuple[Path, ...]
    read_write: tuple[Path, ...]
    tmp_mb: int

    def __init__(
        self,
        folder: Path | None,
        hidden: frozenset[Path] = frozenset(),
        read_only: tuple[Path, ...] = (),
        read_write: tuple[Path, ...] = (),
        tmp_mb: int = 64,
    ) -> None:
        set_fields(
            self,
            folder=folder,
            hidden=hidden,
            read_only=read_only,
            read_write=read_write,
            tmp_mb=tmp_mb,
        )

    @property
    def cwd(self) -> str:
        return str(self.folder) if self.folder is not None else "/tmp"


def same_path(path: str | os.PathLike[str]) -> Path:
    """``path`` absolute and without symlinks, as views compare paths."""
    return Path(os.path.realpath(path))


def give(path: Path, uid: int) -> None:
    """Make ``path`` and everything in it belong to ``uid`` (links themselves, never what
    they point to), so that a bot run as ``uid`` may write it."""
    if not os.path.lexists(path):
        return
    os.lchown(path, uid, uid)
    if path.is_dir() and not path.is_symlink():
        for root, folders, files in os.walk(path):
            for entry in (*folders, *files):
                os.lchown(os.path.join(root, entry), uid, uid)


def system_args() -> list[str]:
    """The system folders, read-only; a merged-/usr link (``/bin -> usr/bin``) stays a link."""
    args: list[str] = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args


def mount_args(view: View, folder: Sequence[tuple[Path, list[str]]] | None = None) -> list[str]:
    """The bwrap options that build ``view``, in an order where every mount's parent is
    already in place: a folder before what is bound inside it, the read-only remounts last.
    ``folder``: the mounts that show the bot's folder (its private copy, see
    :mod:`~arena_kernel.sandbox.private_folder`) instead of the folder read-only."""
    mounts: list[tuple[Path, list[str]]] = [
        (Path("/proc"), ["--proc", "/proc"]),
        (Path("/dev"), ["--dev", "/dev"]),
    ]
    mounts += [(Path(p), ["--ro-bind-try", p, p]) for p in KERNEL_SETTINGS]
    size = str(view.tmp_mb << 20)
    mounts += [(Path(p), ["--size", size, "--perms", "1777", "--tmpfs", p]) for p in SCRATCH]
    if folder is not None:
        mounts += folder
    elif view.folder is not None:
        if any(view.folder == h or view.folder in h.parents for h in view.hidden):
            raise ValueError(f"{view.folder} holds what its bot must not see: copy it")
        mounts.append((view.folder, ["--ro-bind", str(view.folder), str(view.folder)]))
    mounts += [(p, ["--ro-bind", str(p), str(p)]) for p in _existing(view.read_only)]
    mounts += [(p, ["--bind", str(p), str(p)]) for p in _existing(view.read_write)]
    # Stable: a folder's own entry stays before what is bound inside it.
    mounts += [(p, ["--perms", "0755", "--dir", str(p)]) for p in _parents(mounts)]
    mounts.sort(key=lambda mount: mount[0].parts)
    args = system_args()
    for _, option in mounts:
        args += option
    return [*args, "--remount-ro", "/dev", "--remount-ro", "/"]


def _parents(mounts: Sequence[tuple[Path, list[str]]]) -> set[Path]:
    """The folders bwrap must make for ``mounts`` to be mounted on: those not already there
    through a bind (a parent on the sandbox's empty root, or in a tmpfs). Made explicitly
    with mode 0755: bwrap makes them 0700, which a bot run as a user id of its own could not
    pass through."""
    targets = {path for path, _ in mounts}
    bound = {path for path, option in mounts if "--tmpfs" not in option} | set(map(Path, SYSTEM))
    found: set[Path] = set()
    for target in targets:
        for parent in target.parents[:-1]:
            if parent in bound or not bound.isdisjoint(parent.parents):
                break
            if parent not in targets:
                found.add(parent)
    return found


def _existing(paths: Iterable[Path]) -> list[Path]:
    return [p for p in dict.fromkeys(paths) if os.path.lexists(p)]
