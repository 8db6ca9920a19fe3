"""What a bot runs, and its digest: how a league tells a bot from a new version of it
under the same name.

What a bot runs is its ``[[bots]]`` table's way of running (``cmd``, ``builtin``,
``args``, ``inproc``, ``connect``, ``transport``, ``env``) and the files it is made of,
each by its SHA-256:

- a built-in bot: every file of the package it comes with (``arena_stones`` for
  ``arena_stones.bots.greedy``), so that a new release of the game's bots is a new
  version;
- a bot with a ``cwd`` of its own: every file under that folder but the run's database
  (and the files beside it) and logs, its ``[bots.sandbox] writable`` paths and
  ``__pycache__`` folders (what running it writes);
- a bot run from the match file's folder, which other bots, the database and the logs
  share: the files its command names (``my_bot.py`` of ``["python3", "my_bot.py"]``);
- a bot that connects by itself: no files (the arena cannot see what it runs).

Where it runs from (its folder's path) is not part of it: a league folder moved
elsewhere keeps its bots.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from arena_kernel.games.base import Game
from arena_kernel.match.schema import identity
from arena_kernel.match.spec import BotSpec, MatchSpec

_HOW = ("cmd", "builtin", "args", "inproc", "connect", "transport", "env")
"""The ``[[bots]]`` keys that say how a bot is run."""

_SKIPPED = frozenset(("__pycache__",))
"""Folders that running a bot fills: never part of what it runs."""

_BESIDE = ("", "-wal", "-shm", "-journal", ".lock")
"""The database's file and those SQLite and the run lock keep beside it."""

CHUNK = 1 << 20


def what_it_runs(bot: BotSpec, spec: MatchSpec, game_cls: type[Game[Any]]) -> dict[str, Any]:
    """``{"how": the keys that run it, "files": {path: SHA-256}}`` for ``bot`` of
    ``spec``; the paths are relative to the folder they were found in. A file that
    cannot be read is listed as unreadable, which a change of it later shows."""
    kept = identity(bot)
    how = {key: kept[key] for key in _HOW if key in kept}
    # As the store gives it back (arrays as lists), so that the two compare alike.
    runs: dict[str, Any] = json.loads(
        json.dumps({"how": how, "files": _files(bot, spec, game_cls)}, default=str)
    )
    return runs


def digest(runs: Mapping[str, Any]) -> str:
    """The identity of what a bot runs (:func:`what_it_runs`), in 16 hex digits."""
    blob = json.dumps(runs, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def differences(before: Mapping[str, Any], now: Mapping[str, Any]) -> list[str]:
    """What changed between two :func:`what_it_runs`, in words, the keys first."""
    changed = [
        f"its {key} changed"
        for key in sorted(set(before.get("how", {})) | set(now.get("how", {})))
        if before.get("how", {}).get(key) != now.get("how", {}).get(key)
    ]
    old, new = before.get("files", {}), now.get("files", {})
    for path in sorted(set(old) | set(new)):
        if path not in new:
            changed.append(f"{path} is gone")
        elif path not in old:
            changed.append(f"{path} is new")
        elif old[path] != new[path]:
            changed.append(f"{path} changed")
    return changed


def _files(bot: BotSpec, spec: MatchSpec, game_cls: type[Game[Any]]) -> dict[str, str]:
    if bot.builtin is not None:
        return _tree(_package_folder(game_cls.bots[bot.builtin].module), ())
    if bot.cmd is None or bot.cwd is None:
        return {}
    folder = Path(bot.cwd)
    own = Path(os.path.realpath(folder)) != Path(os.path.realpath(spec.path.absolute().parent))
    if own:
        database = [spec.database.with_name(spec.database.name + end) for end in _BESIDE]
        writable = [Path(p) for p in bot.sandbox.get("writable", ())]
        return _tree(folder, [*database, spec.logs, *writable])
    named = {}
    for word in bot.cmd:
        path = folder / word
        if "{" not in word and path.is_file():
            named[word] = _file_digest(path)
    return named


def _package_folder(module: str) -> Path | None:
    """The folder of the top-level package of ``module`` (None: not a package)."""
    found = importlib.util.find_spec(module.split(".")[0])
    if found is None or not found.submodule_search_locations:
        return None
    return Path(next(iter(found.submodule_search_locations)))


def _tree(folder: Path | None, kept_out: Iterable[Path]) -> dict[str, str]:
    """Every file under ``folder`` but those at or under ``kept_out`` and the folders
    running a bot fills, by path relative to ``folder``, sorted."""
    if folder is None or not folder.is_dir():
        return {}
    skipped = {os.path.realpath(path) for path in kept_out}
    files = {}
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in _SKIPPED and os.path.realpath(os.path.join(root, d)) not in skipped
        )
        for name in sorted(names):
            path = Path(root) / name
            if os.path.realpath(path) in skipped or not path.is_file():
                continue
            files[path.relative_to(folder).as_posix()] = _file_digest(path)
    return files


def _file_digest(path: Path) -> str:
    sha = hashlib.sha256()
    try:
        with path.open("rb") as read:
            while chunk := read.read(CHUNK):
                sha.update(chunk)
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"
    return sha.hexdigest()
