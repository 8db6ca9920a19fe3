"""The home folders of the machine, which no guess at what a bot's program needs may show it.

A home holds its user's keys and tokens (``~/.ssh``, ``~/.config``, ``~/.netrc``), and so
does anything that holds a home (``/home``, ``/``). The sandbox shows a program's
installation and the paths its command names (:mod:`~arena_kernel.sandbox.runtime`);
neither may ever be, or hold, one of these. What an organiser lists in ``read_only`` or
``read_write`` is shown as written.
"""

from __future__ import annotations

import os
import pwd
from collections.abc import Iterable, Mapping
from pathlib import Path

from arena_kernel.sandbox.view import same_path


def homes(env: Mapping[str, str]) -> frozenset[Path]:
    """Every home the machine knows: each user's in the password database, ``/root``, and
    ``$HOME`` in the arena's environment and in ``env`` (the bot's), resolved."""
    found = {entry.pw_dir for entry in pwd.getpwall()}
    found |= {"/root", os.environ.get("HOME", ""), env.get("HOME", "")}
    return frozenset(same_path(home) for home in found if os.path.isabs(home))


def shows_home(path: Path, known: Iterable[Path]) -> bool:
    """Whether showing ``path`` (resolved) would show a home of ``known``: it is one, or
    holds one."""
    return any(path == home or path in home.parents for home in known)
