"""The program a bot's command runs is the same file inside its sandbox as outside.

``exec`` finds a command's program on the ``PATH`` (:mod:`~arena_kernel.sandbox.lookup`),
and a sandbox shows fewer folders: where the organiser's ``python3`` is not there, the
next one on the ``PATH`` would run instead, silently, maybe another version. So once a
bot's view is known, its program, and for a script each interpreter of its ``#!`` line,
is looked up inside as outside, and the run refuses, in one line naming the bot, both
paths and what to show, unless they are the same file. It costs a few ``stat`` calls per
bot and run, and for a shim one question to its manager.

A version manager's shim (:mod:`~arena_kernel.sandbox.shims`) is not run inside: its
manager names the program it runs outside, which is shown, and its folder is put first on
the ``PATH`` inside (when the ``PATH`` would not find it first), as the manager's own
``exec`` does outside. The same program then runs inside, directly, and what runs outside
is unchanged. A shim named by its path (in ``cmd``, on a ``#!`` line) cannot be passed by
that way, and is refused.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from arena_kernel.errors import SetupError
from arena_kernel.sandbox import lookup
from arena_kernel.sandbox.bwrap import Sandbox
from arena_kernel.sandbox.homes import homes
from arena_kernel.sandbox.runtime import in_system, inside, installation, program_needs
from arena_kernel.sandbox.shims import is_shim, read_shim
from arena_kernel.sandbox.view import same_path


def settle(
    label: str, sandbox: Sandbox, argv: Sequence[str], cwd: Path | None, env: Mapping[str, str]
) -> Sandbox:
    """``sandbox``, made to run the program ``argv`` runs outside (from folder ``cwd``, with
    the bot's environment ``env``). Raises :class:`~arena_kernel.errors.SetupError`,
    starting with ``label`` (``match.toml: bot "x"``), when it cannot."""
    base = cwd or Path.cwd()
    word, where = argv[0], "in cmd"
    for _ in range(lookup.CHAIN):
        program = lookup.outside(word, base, env)
        if program is None:
            return sandbox  # the start reports a missing program
        if is_shim(program):
            sandbox, program = _past_shim(label, sandbox, word, program, where, env, cwd)
        found = _inside(sandbox, word, env)
        if found is None or same_path(found) != same_path(program):
            raise SetupError(
                f'{label}: "{word}" {where} runs {program} outside the sandbox but '
                f"{found or 'nothing'} inside it; add {installation(program)} to read_only, "
                f"or write {same_path(program)} {where}"
            )
        interpreter = lookup.interpreter(program)
        if interpreter is None:
            break
        word, where = interpreter, f"on the #! line of {program}"
    return sandbox


def _inside(sandbox: Sandbox, word: str, env: Mapping[str, str]) -> Path | None:
    """The file ``exec`` runs for ``word`` in ``sandbox``."""
    view = sandbox.view
    return lookup.find(word, Path(view.cwd), {**env, **sandbox.env}, lookup.Mounts.of(view))


def _past_shim(
    label: str,
    sandbox: Sandbox,
    word: str,
    shim_file: Path,
    where: str,
    env: Mapping[str, str],
    cwd: Path | None,
) -> tuple[Sandbox, Path]:
    """``sandbox`` showing the program the shim ``shim_file`` runs outside, found first for
    ``word`` inside; and that program."""
    shim = read_shim(shim_file)
    manager = "version manager's" if shim is None else shim.manager.name
    cannot = f'{label}: "{word}" {where} is a {manager} shim ({shim_file})'
    cannot += " that cannot run in the sandbox"
    if shim is None:
        raise SetupError(f"{cannot}: write its interpreter's path {where}")
    real = shim.runs(shim_file.name, cwd, env)
    if real is None:
        raise SetupError(
            f"{cannot}, and `{manager} which {shim_file.name}` names no program for it: "
            f"write its interpreter's path {where}"
        )
    if "/" in word:
        raise SetupError(f"{cannot}; write its interpreter's path {where} (e.g. {real})")
    view = sandbox.view
    folders = [view.folder] if view.folder is not None else []
    shown = [
        need
        for need in program_needs(str(real), cwd or Path.cwd(), env, homes(env))
        if not in_system(need)
        and not inside(need, folders)
        and not any(inside(need, [h]) or inside(h, [need]) for h in view.hidden)
    ]
    sandbox = sandbox.reading(shown)
    found = _inside(sandbox, word, env)
    if found is None or same_path(found) != same_path(real):
        search = {**env, **sandbox.env}.get("PATH", os.defpath)
        sandbox = replace(sandbox, env={**sandbox.env, "PATH": f"{real.parent}:{search}"})
    return sandbox, real
