"""What a version manager's shim runs.

pyenv, rbenv, nodenv and asdf put a folder named ``shims`` first on the ``PATH``: small
scripts named after the programs they stand for (``python3``), each running the manager
(``exec "/root/.pyenv/libexec/pyenv" exec "$program" "$@"``), which picks a version from
the environment and the working folder (``PYENV_VERSION``, a ``.python-version`` there or
above it, the global default) and runs that version's program. None of that is in a
sandbox, so a shim cannot run there. Which program it runs outside, the manager itself
says: ``<manager> which <name>``, asked with the bot's environment and working folder.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

FOLDER = "shims"
"""The name of a version manager's folder of shims."""

ASKING = 30.0
"""Seconds a manager may take to say which program a shim runs."""

_RUNS = re.compile(r'^\s*exec\s+"?(/[^"\s]+)"?\s+exec\s', re.MULTILINE)
"""The line of a shim that runs its manager, and the manager's path."""

_EXPORTS = re.compile(r'^\s*export\s+(\w+)="([^"$`\\]*)"\s*$', re.MULTILINE)
"""A constant the shim sets for its manager (``export PYENV_ROOT="/root/.pyenv"``)."""


@dataclass(frozen=True)
class Shim:
    """A shim: the ``manager`` it runs and the variables it sets for it."""

    manager: Path
    exports: Mapping[str, str] = field(default_factory=dict)

    def runs(self, name: str, cwd: Path | None, env: Mapping[str, str]) -> Path | None:
        """The program this shim runs as ``name`` from ``cwd`` with ``env``, as its manager
        names it; None when it names none (no such version, a manager that fails)."""
        try:
            asked = subprocess.run(
                [str(self.manager), "which", name],
                cwd=cwd,
                env={**env, **self.exports},
                capture_output=True,
                text=True,
                timeout=ASKING,
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            return None
        found = Path(asked.stdout.partition("\n")[0].strip())
        if asked.returncode != 0 or not found.is_absolute() or is_shim(found):
            return None
        return found if os.path.isfile(found) and os.access(found, os.X_OK) else None


def is_shim(program: Path) -> bool:
    """Whether ``program`` (as found, not resolved) is a version manager's shim."""
    return program.parent.name == FOLDER


def read_shim(path: Path) -> Shim | None:
    """The shim at ``path``, as its script says; None for one that is no script running its
    manager so (a link to a manager's binary), which cannot be asked."""
    if os.path.islink(path):
        return None
    try:
        with open(path, "rb") as file:
            text = file.read(4096).decode(errors="replace")
    except OSError:
        return None
    runs = _RUNS.search(text)
    if runs is None:
        return None
    return Shim(Path(runs[1]), dict(_EXPORTS.findall(text[: runs.start()])))
