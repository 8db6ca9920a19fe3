"""What a bot's program needs to see to run at all, besides the system folders.

A sandbox shows nothing outside the system unless asked, but a program often lives
elsewhere: the arena's own Python (a pyenv or a virtual environment in a home folder) for
a built-in bot, a runtime installed under ``/root`` for a ``cmd`` bot, a script named by
an absolute path. These are shown read-only, and only these: the installation itself, not
the folder around it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from arena_kernel.sandbox.view import SYSTEM, same_path


def inside(path: Path, folders: Iterable[Path]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies in one."""
    return any(path == f or f in path.parents for f in folders)


_SYSTEM_PATHS = tuple(same_path(p) for p in SYSTEM)


def installation(program: Path) -> Path:
    """The folder a program is installed in: the parent of its ``bin`` folder
    (``/opt/jdk/bin/java`` -> ``/opt/jdk``), else the program's own folder."""
    folder = program.parent
    return folder.parent if folder.name == "bin" else folder


def python_runtime() -> tuple[Path, ...]:
    """The arena's own Python: its virtual environment and the installation behind it, and
    the folders of the arena packages it has imported so far that live elsewhere (an
    editable install's source folders). A built-in bot runs on exactly this Python."""
    paths = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    paths.add(installation(same_path(sys.executable)))
    for name in list(sys.modules):
        if "." not in name and name.startswith("arena_"):
            paths.update(package_folders(name))
    return tuple(sorted(p for p in paths if not inside(p, _SYSTEM_PATHS)))


def package_folders(module: str) -> list[Path]:
    """Where the top-level package of ``module`` lives (its folders, or its file)."""
    top = module.partition(".")[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    if spec.submodule_search_locations:
        return [same_path(p) for p in spec.submodule_search_locations]
    return [same_path(spec.origin)] if spec.origin else []


def _program(argv0: str, cwd: Path | None, env: Mapping[str, str]) -> Path | None:
    """The program ``argv0`` names, found as ``exec`` finds it, or None."""
    if "/" in argv0:
        return Path(os.path.abspath((cwd or Path.cwd()) / argv0))
    found = shutil.which(argv0, path=env.get("PATH", os.defpath))
    return Path(found) if found is not None else None


def runs_arena_python(argv: Sequence[str], cwd: Path | None, env: Mapping[str, str]) -> bool:
    """Whether a command runs the arena's own Python (which may run arena's modules)."""
    program = _program(argv[0], cwd, env) if argv else None
    return program is not None and same_path(program) == same_path(sys.executable)


def named_paths(args: Iterable[str], base: Path) -> list[Path]:
    """The paths among ``args`` (relative to ``base``) that exist, resolved."""
    return [same_path(base / arg) for arg in args if arg and os.path.exists(base / arg)]


def command_needs(
    argv: Iterable[str], cwd: Path | None, env: Mapping[str, str]
) -> tuple[Path, ...]:
    """What a command needs outside the system: the installation of the program it runs
    (found on the ``PATH`` it is given, or as a path), both through and past a symlink (a
    virtual environment's ``python`` and the Python it links to), and every existing path
    among its arguments (``node /abs/path/bot.js``)."""
    argv = list(argv)
    if not argv:
        return ()
    needs = named_paths(argv[1:], cwd or Path.cwd())
    program = _program(argv[0], cwd, env)
    if program is not None:
        needs += [installation(program), installation(same_path(program))]
    return tuple(p for p in dict.fromkeys(needs) if not inside(p, _SYSTEM_PATHS))
