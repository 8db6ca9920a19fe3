"""A user id of its own for each sandboxed bot of an arena run as root.

Inside a sandbox without capabilities, root is still user 0 for file permissions: it could
read ``/etc/shadow`` and every root-only file in what it is shown, and another bot's files
if a bind went wrong. So an arena run as root runs each bot as an unprivileged user id of
its own (as isolate does with its box users): the bot can read only what any user may, and
nothing of another bot's.

A bot keeps its id for the whole run, so that the paths it may write (``writable``) can be
given to it once. Ids come from :data:`FIRST`..:data:`FIRST` + :data:`COUNT`, far above the
ids of real users, of ``systemd``'s dynamic users and of container ranges; an id is leased
with a lock file (``flock``), so that two arenas on one machine never hand out the same id,
and a lease ends with its arena however that ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import shutil
import stat
from pathlib import Path

from arena_kernel.errors import SetupError

FIRST = 1_950_000_000
"""The first id handed to a bot."""
COUNT = 65_536
"""How many ids there are to hand out."""

_LEASES = ("/run/arena-uids", "/tmp/arena-uids")
"""Where the lock files live: the first that root owns, or can make, with mode 0700."""


def wanted() -> bool:
    """Whether bots get ids of their own: only an arena run as root can give them."""
    return os.geteuid() == 0


class UidLease:
    """One id, leased until :meth:`release` (or this process's end)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def lease() -> UidLease:
    """The first free id; raises :class:`SetupError` when there is none or no place to
    keep the leases."""
    folder = _lease_folder()
    for uid in range(FIRST, FIRST + COUNT):
        fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return UidLease(uid, fd)
    raise SetupError(f"cannot give a bot a user id of its own: all {COUNT} ids are in use")


def _lease_folder() -> Path:
    for candidate in map(Path, _LEASES):
        with contextlib.suppress(FileExistsError, FileNotFoundError):
            candidate.mkdir(mode=0o700)
        with contextlib.suppress(OSError):
            info = candidate.lstat()
            if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o077:
                return candidate
    raise SetupError(
        "cannot give bots user ids of their own: none of "
        + ", ".join(_LEASES)
        + " is a folder only root may use"
    )


@functools.cache
def _setpriv() -> str:
    """util-linux's ``setpriv``, by the path it has in the system folders every sandbox
    shows."""
    found = shutil.which("setpriv", path=os.defpath)
    if found is None:
        raise SetupError("cannot give bots user ids of their own: setpriv (util-linux) is missing")
    return os.path.realpath(found)


def drop_command(uid: int) -> list[str]:
    """The ``setpriv`` prefix that runs the rest of argv as ``uid`` (its own group, no other
    groups) with every capability gone for good: the permitted set empties as the ids
    change, and the bounding and inheritable sets are cleared before."""
    return [
        _setpriv(),
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--bounding-set=-all",
        "--inh-caps=-all",
        "--no-new-privs",
        "--",
    ]
