"""A bot's folder as the bot sees it: a private copy it may write, kept for the organiser.

Entrants write logs and caches next to themselves. Showing them the organiser's folder
read-only breaks them ("Read-only file system"); showing it writable lets a bot change what
the organiser, and the bot's next game, will find. So each start of a bot gets a copy of
its folder, at the same path inside the sandbox, made before it starts and owned by the
bot's user: it writes there as it likes, and nothing reaches the organiser's folder. What
is hidden from the bot (the database, the logs, other bots' programs) is left out of the
copy, and so is anything that appears in the folder later.

Copying is bounded so that a big folder (a repository, a virtual environment) costs a
start little: files over :data:`COPIED_FILE_MB` and whatever comes past
:data:`COPIED_TOTAL_MB` or :data:`COPIED_ENTRIES` (in breadth-first order: the folder's own
files first) are shown read-only from the original instead, a folder not yet read as one
whole. Once
the bot is gone, :meth:`PrivateFolder.keep_writes` leaves in the copy only what the bot
wrote (new and changed files), beside its stderr log, or removes the copy when that is
nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
from collections import deque
from collections.abc import Iterable
from pathlib import Path

COPIED_FILE_MB = 1
"""Files larger than this are shown read-only rather than copied."""
COPIED_TOTAL_MB = 16
"""Past this many MiB copied, the rest of the folder is shown read-only."""
COPIED_ENTRIES = 512
"""Past this many files copied, the rest of the folder is shown read-only."""


class PrivateFolder:
    """The copy of ``folder`` at ``place`` (replaced if it exists), without ``left_out``
    (absolute paths inside ``folder``: not there at all) and with ``mount_points``
    (absolute paths inside ``folder`` that something else is mounted on: empty
    placeholders). Owned by ``uid`` when given."""

    def __init__(
        self,
        folder: Path,
        place: Path,
        left_out: Iterable[Path] = (),
        mount_points: Iterable[Path] = (),
        uid: int | None = None,
    ) -> None:
        self.folder = folder
        self.place = place
        self._uid = uid
        self._left_out = frozenset(left_out)
        self._mount_points = frozenset(mount_points)
        self._shown: list[Path] = []
        self._placeholders: list[Path] = []
        self._copied: dict[Path, tuple[int, int]] = {}
        self._links: dict[Path, str] = {}
        if place.exists() or place.is_symlink():
            _remove(place)
        place.mkdir(parents=True)
        with contextlib.suppress(OSError):
            # Passable by bwrap, which enters it as root without the right to override
            # permissions before the bot becomes its owner.
            place.chmod(stat.S_IMODE(folder.stat().st_mode) | stat.S_IRWXU | 0o011)
        self._own(place)
        self._copy()

    def mounts(self) -> list[tuple[Path, list[str]]]:
        """The bwrap options that show the copy at the folder's path, and what was not
        copied read-only over it, each with the path it mounts on."""
        mounts = [(self.folder, ["--bind", str(self.place), str(self.folder)])]
        mounts += [(path, ["--ro-bind", str(path), str(path)]) for path in self._shown]
        return mounts

    def keep_writes(self) -> None:
        """Leave in the copy only what the bot wrote; remove it when that is nothing."""
        for placeholder in reversed(self._placeholders):
            with contextlib.suppress(OSError):
                if placeholder.is_dir() and not placeholder.is_symlink():
                    placeholder.rmdir()
                else:
                    placeholder.unlink()
        for inside, (size, mtime) in self._copied.items():
            with contextlib.suppress(OSError):
                info = inside.lstat()
                if stat.S_ISREG(info.st_mode) and (info.st_size, info.st_mtime_ns) == (
                    size,
                    mtime,
                ):
                    inside.unlink()
        for link, points_to in self._links.items():
            with contextlib.suppress(OSError):
                if os.readlink(link) == points_to:
                    link.unlink()
        for root, folders, _ in os.walk(self.place, topdown=False):
            for name in folders:
                with contextlib.suppress(OSError):
                    (Path(root) / name).rmdir()
        with contextlib.suppress(OSError):
            self.place.rmdir()

    def _copy(self) -> None:
        """Breadth first, so that the folder's own files come first. Once the budget is
        spent, a folder not yet read is shown whole, read-only, unless something left out
        is inside it: only then are its entries gone through one by one."""
        budget_bytes = COPIED_TOTAL_MB << 20
        budget_entries = COPIED_ENTRIES
        queue = deque([self.folder])
        while queue:
            source = queue.popleft()
            if budget_entries <= 0 and source != self.folder and not self._holds_left_out(source):
                self._placeholders.append(self._target(source))
                self._shown.append(source)
                continue
            try:
                entries = sorted(os.scandir(source), key=lambda e: (e.is_dir(), e.name))
            except OSError:
                continue
            for entry in entries:
                original = Path(entry.path)
                target = self._target(original)
                if original in self._left_out or original == self.place:
                    continue
                if original in self._mount_points:
                    self._placeholder(target, entry.is_dir(follow_symlinks=False))
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if entry.is_symlink():
                    self._links[target] = os.readlink(original)
                    os.symlink(self._links[target], target)
                    self._own(target)
                    continue
                if stat.S_ISDIR(info.st_mode):
                    target.mkdir()
                    with contextlib.suppress(OSError):
                        target.chmod(stat.S_IMODE(info.st_mode) | stat.S_IRWXU)
                    self._own(target)
                    queue.append(original)
                elif stat.S_ISREG(info.st_mode):
                    budget_entries -= 1
                    small = info.st_size <= min(COPIED_FILE_MB << 20, budget_bytes)
                    if budget_entries < 0 or not small:
                        self._show(original, target, folder=False)
                        continue
                    try:
                        shutil.copy(original, target, follow_symlinks=False)
                    except OSError:
                        continue
                    budget_bytes -= info.st_size
                    self._own(target)
                    self._copied[target] = (info.st_size, target.lstat().st_mtime_ns)

    def _target(self, original: Path) -> Path:
        return self.place / original.relative_to(self.folder)

    def _holds_left_out(self, folder: Path) -> bool:
        return any(folder in path.parents for path in self._left_out)

    def _show(self, original: Path, target: Path, *, folder: bool) -> None:
        """Show ``original`` read-only at its place rather than copy it."""
        self._placeholder(target, folder)
        self._shown.append(original)

    def _placeholder(self, target: Path, folder: bool) -> None:
        if folder:
            target.mkdir()
        else:
            target.touch()
        self._placeholders.append(target)

    def _own(self, path: Path) -> None:
        if self._uid is not None:
            os.lchown(path, self._uid, self._uid)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()
