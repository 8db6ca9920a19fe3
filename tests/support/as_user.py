"""Running ``arena`` as an ordinary user, from tests that run as root (as CI does).

The user is a bare user id (:data:`USER_ID`, no account needed) with a home folder of its
own in /tmp. It runs the arena's own Python and packages, which may live under a folder
only root may pass (a pyenv under /root): the arena runs in a mount namespace of its own
where each such folder is an empty, passable tmpfs with just those installations bound
back, so the user reaches them and nothing else of it, as it would on a machine where they
were installed for everyone.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from arena_kernel.model import RunInfo
from arena_kernel.runner.run import RunSummary
from arena_kernel.sandbox.runtime import python_runtime
from arena_kernel.store import Store

USER_ID = 44_444 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
"""The user the arena runs as: nobody's id on a test machine, one per pytest-xdist worker.
A process-count limit holds per user, so the fork bomb one worker's test plays must not
leave another worker's test, running beside it, without processes."""

_MOUNTS = """
set -e
staging=$1; shift
while [ "$1" != "--" ]; do
    case $1 in
    block=*) folder=${1#block=}; mkdir -p "$staging$folder"
             mount --bind "$folder" "$staging$folder"
             mount -t tmpfs -o mode=0755 arena-test "$folder" ;;
    show=*)  path=${1#show=}; mkdir -p "$path"; mount --bind "$staging$path" "$path" ;;
    esac
    shift
done
shift
exec "$@"
"""


def unreachable(path: Path) -> Path | None:
    """The highest folder above ``path`` that another user may not pass, or None."""
    for parent in reversed(path.parents[:-1]):
        if not parent.stat().st_mode & stat.S_IXOTH:
            return parent
    return None


def mount_options(needed: Iterable[Path]) -> list[str]:
    """The arguments of :data:`_MOUNTS` that make ``needed`` reachable."""
    blocked: dict[Path, list[Path]] = {}
    for path in needed:
        folder = unreachable(path)
        if folder is not None:
            blocked.setdefault(folder, []).append(path)
    options = []
    for folder, paths in blocked.items():
        options.append(f"block={folder}")
        options += [f"show={path}" for path in paths if path.is_dir()]
    return options


class UserArena:
    """A folder of the user's (:attr:`folder`, with its :attr:`home`) and the ``arena``
    command run as the user in it."""

    def __init__(self) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="arena-as-user-"))
        self.base.chmod(0o755)
        self.home = self._own_folder("home")
        self.folder = self._own_folder("work")

    def _own_folder(self, name: str) -> Path:
        folder = self.base / name
        folder.mkdir(mode=0o700)
        os.chown(folder, USER_ID, USER_ID)
        return folder

    def give(self, path: Path) -> None:
        """Make what the test wrote in the user's folder the user's."""
        for root, folders, files in os.walk(path):
            for name in (*folders, *files):
                os.lchown(os.path.join(root, name), USER_ID, USER_ID)
        os.lchown(path, USER_ID, USER_ID)

    def arena(self, *args: str, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
        """``arena ARGS`` as the user, in its folder, with only ``env`` (and a ``PATH``,
        ``HOME``) in its environment."""
        needed = {Path(os.path.realpath(sys.executable)), *python_runtime()}
        staging = self.base / "staging"
        staging.mkdir(mode=0o700, exist_ok=True)
        command = [
            shutil.which("unshare") or "unshare",
            "--mount",
            "--propagation",
            "private",
            "--",
            "/bin/sh",
            "-c",
            _MOUNTS,
            "sh",
            str(staging),
            *mount_options(needed),
            "--",
            shutil.which("setpriv") or "setpriv",
            f"--reuid={USER_ID}",
            f"--regid={USER_ID}",
            "--clear-groups",
            "--inh-caps=-all",
            "--",
            sys.executable,
            "-m",
            "arena_kernel.cli.main",
            *args,
        ]
        environment = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            **env,
        }
        return subprocess.run(
            command,
            cwd=self.folder,
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )

    def run_match(self, match: Path, env: Mapping[str, str]) -> RunSummary:
        """``arena run MATCH`` as the user; the run as stored (its errors: the command's
        stderr when it failed)."""
        done = self.arena("run", str(match), env=env)
        database = match.parent / "results.sqlite"
        if not database.exists():
            raise AssertionError(f"arena run as a user stored nothing: {done.stderr}")
        with Store(database) as store:
            (run,) = store.runs()
        errors = [done.stderr] if done.returncode not in (0,) else []
        info = RunInfo(
            run.run_id,
            run.key,
            run.name,
            run.game,
            run.total_games,
            run.done_games,
            str(database),
        )
        return RunSummary(run=info, played=run.done_games, errors=errors)

    def remove(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)
