"""What a bot's program needs to see to run at all, besides the system folders.

A sandbox shows nothing outside the system unless asked, but a program often lives
elsewhere: the arena's own Python (a pyenv or a virtual environment in a home folder) for
a built-in bot, a runtime installed under ``/root`` for a ``cmd`` bot, a script named by
an absolute path. These are shown read-only, and only these:

- a program's installation, the folder above its ``bin`` (``/root/jdk-17/bin/java``:
  ``/root/jdk-17``), when that folder is recognisably one self-contained installation: a
  virtual environment (``pyvenv.cfg``), a Python (its standard library,
  ``lib/pythonX.Y/os.py``), a JDK or JRE (``lib/modules``, ``lib/rt.jar``, or a ``release``
  file with ``JAVA_VERSION``), a Node.js (``include/node/node_version.h``). Never a home
  (:mod:`~arena_kernel.sandbox.homes`) or what holds one, and never a hidden folder right
  in a home (a user's prefix such as ``~/.local``, a tool's whole state such as
  ``~/.cargo``: keyrings, credentials, registries) but for a virtual environment, which is
  made for one Python alone. Otherwise the program file alone is shown: ``~/bin``,
  ``~/.local/bin`` and ``~/.cargo/bin`` hold programs of every kind beside their user's
  secrets;
- the same for the file a program links to (a virtual environment's ``python`` and the
  Python it links to) and, for a script, its ``#!`` interpreter, found as ``exec`` finds
  it (:mod:`~arena_kernel.sandbox.lookup`);
- the existing paths among the command's arguments, and among the parts of an argument
  that joins paths with ``:`` or gives one after ``=`` (``-cp /a:/b.jar``,
  ``--class-path=/a:/b``, ``-Djava.library.path=/x``; a class path's ``dir/*`` names
  ``dir``), from the bot's folder or absolute; never a home or what holds one.

A version manager's shim gets nothing here: it cannot run in a sandbox, and what it would
run is settled once the bot's view is known (:mod:`~arena_kernel.sandbox.same_program`).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path

from arena_kernel.sandbox import lookup
from arena_kernel.sandbox.homes import homes, shows_home
from arena_kernel.sandbox.shims import is_shim
from arena_kernel.sandbox.view import SYSTEM, same_path


def inside(path: Path, folders: Iterable[Path]) -> bool:
    """Whether ``path`` is one of ``folders`` or lies in one."""
    return any(path == f or f in path.parents for f in folders)


_SYSTEM_PATHS = tuple(dict.fromkeys([*map(Path, SYSTEM), *map(same_path, SYSTEM)]))


def installation(program: Path, known: Collection[Path] | None = None) -> Path:
    """What a sandbox shows of ``program`` for it to run: the parent of its ``bin`` folder
    when that is a self-contained installation and no home of ``known`` (the machine's
    homes by default) is shown with it, else the program alone."""
    folder = program.parent.parent
    if program.parent.name == "bin" and _shown_whole(folder, homes({}) if known is None else known):
        return folder
    return program


def _shown_whole(folder: Path, known: Collection[Path]) -> bool:
    """Whether ``folder``, above a program's ``bin``, is an installation to show whole."""
    real = same_path(folder)
    if shows_home(real, known):
        return False
    if (real / "pyvenv.cfg").is_file():
        return True
    if real.name.startswith(".") and real.parent in known:
        return False
    return _runtime(real)


def _runtime(folder: Path) -> bool:
    """Whether ``folder`` is the installation of a Python, a JDK or JRE, or a Node.js."""
    lib = folder / "lib"
    return (
        any(lib.glob("python*/os.py"))
        or any(lib.glob("pypy*/os.py"))
        or (lib / "modules").is_file()
        or (lib / "rt.jar").is_file()
        or _java_release(folder / "release")
        or (folder / "include" / "node" / "node_version.h").is_file()
    )


def _java_release(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            return b"JAVA_VERSION=" in file.read(4096)
    except OSError:
        return False


def python_runtime() -> tuple[Path, ...]:
    """The arena's own Python: its virtual environment and the installation behind it, and
    the folders of the arena packages it has imported so far that live elsewhere (an
    editable install's source folders), none of them a home or holding one. A built-in
    bot runs on exactly this Python."""
    paths = {Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    paths.add(installation(same_path(sys.executable)))
    for name in list(sys.modules):
        if "." not in name and name.startswith("arena_"):
            paths.update(package_folders(name))
    known = homes({})
    return tuple(sorted(p for p in paths if not in_system(p) and not shows_home(p, known)))


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


def runs_arena_python(argv: Sequence[str], cwd: Path | None, env: Mapping[str, str]) -> bool:
    """Whether a command runs the arena's own Python (which may run arena's modules)."""
    program = lookup.outside(argv[0], cwd or Path.cwd(), env) if argv else None
    return program is not None and same_path(program) == same_path(sys.executable)


def named_paths(args: Iterable[str], base: Path) -> list[Path]:
    """The existing paths ``args`` name (relative to ``base``), resolved: each argument,
    and each part of one that joins paths with ``:`` or gives one after ``=``."""
    found = [
        same_path(base / word)
        for arg in args
        for word in _path_words(arg)
        if word and os.path.exists(base / word)
    ]
    return list(dict.fromkeys(found))


def _path_words(arg: str) -> list[str]:
    """What ``arg`` may name: itself, what follows its first ``=``, and the ``:``-separated
    parts of both; a class path's ``dir/*`` (all the jars in ``dir``) names ``dir``."""
    _, equals, value = arg.partition("=")
    texts = [arg, value] if equals else [arg]
    words = [*texts, *(part for text in texts for part in text.split(":"))]
    return [word.removesuffix("*") if word.endswith("/*") else word for word in words]


def command_needs(
    argv: Iterable[str], cwd: Path | None, env: Mapping[str, str]
) -> tuple[Path, ...]:
    """What a command needs outside the system, ``env`` being the environment it runs with:
    what its program needs (found on the ``PATH`` of ``env``, or as a path) and the paths
    its arguments name, none of them a home or holding one."""
    argv = list(argv)
    if not argv:
        return ()
    base = cwd or Path.cwd()
    known = homes(env)
    needs = [p for p in named_paths(argv[1:], base) if not shows_home(p, known)]
    needs += program_needs(argv[0], base, env, known)
    return tuple(p for p in dict.fromkeys(needs) if not in_system(p))


def in_system(path: Path) -> bool:
    """Whether ``path`` is shown with the system folders anyway: as it is written (a link
    there stays one) or where it leads."""
    return inside(path, _SYSTEM_PATHS) or inside(same_path(path), _SYSTEM_PATHS)


def program_needs(
    word: str, cwd: Path, env: Mapping[str, str], known: Collection[Path]
) -> list[Path]:
    """What the program a command word names needs: its installation (or itself), through
    and past a symlink, then the same for its ``#!`` interpreter, and so on; nothing for a
    shim, and nothing from there on."""
    needs: list[Path] = []
    for _ in range(lookup.CHAIN):
        program = lookup.outside(word, cwd, env)
        if program is None or is_shim(program):
            break
        needs += [installation(program, known), installation(same_path(program), known)]
        interpreter = lookup.interpreter(program)
        if interpreter is None:
            break
        word = interpreter
    return needs
