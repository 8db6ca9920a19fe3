"""Which sandbox each bot of a run gets: the run's mode decided once, then one
:class:`~arena_kernel.sandbox.bwrap.Sandbox` per bot the arena starts.

What a bot must not see is known only here, where the whole run is: the database, its
journals and its run lock, the logs, the match file, the other bots' folders and the files
their commands name (two bots sharing a folder do not see each other's programs, though a
file that only one program opens by itself cannot be known, hence: one folder per bot).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from arena_kernel.errors import MatchFileError, SetupError
from arena_kernel.match.resolved import ResolvedBot, ResolvedMatch
from arena_kernel.sandbox import uids
from arena_kernel.sandbox.bwrap import Sandbox, private_env
from arena_kernel.sandbox.pids import pids_parent
from arena_kernel.sandbox.probe import probe
from arena_kernel.sandbox.runtime import (
    command_needs,
    inside,
    named_paths,
    package_folders,
    python_runtime,
    runs_arena_python,
)
from arena_kernel.sandbox.same_program import settle
from arena_kernel.sandbox.view import View, give, same_path
from arena_kernel.store.lock import lock_path
from arena_kernel.transports.base import BotProgram
from arena_kernel.transports.process import passed_environment

DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""What SQLite keeps beside a database file."""


class RunSandboxes:
    """The run's sandbox: :attr:`mode` is ``"bwrap"`` or ``"none"`` (what the run's started
    bots actually run under), :attr:`note` a line for the run header (a warning), or None.

    Raises :class:`~arena_kernel.errors.SetupError` when the match file requires a sandbox
    this machine cannot make (with a syscall filter, for bots whose calls are filtered). A
    run that starts no bot (in-process bots, bots that connect by themselves) has nothing
    to sandbox: nothing is probed, required or warned about.
    """

    def __init__(self, match: ResolvedMatch) -> None:
        self.match = match
        self.note: str | None = None
        self._bwrap: str | None = None
        self._syscall_filter: bytes | None = None
        self._made: dict[str, Sandbox | None] = {}
        self._leases: list[uids.UidLease] = []
        wanted = match.spec.sandbox.mode
        if wanted == "none" or all(bot.program.argv is None for bot in match.bots.values()):
            self.mode = "none"
            return
        found = probe()
        filtered = any(
            bot.sandbox.syscalls == "filtered"
            for bot in match.bots.values()
            if bot.program.argv is not None
        )
        refusal = found.refuses(filtered=filtered)
        if wanted == "required" and refusal:
            raise SetupError(f'{match.spec.path}: [sandbox] mode = "required", but {refusal}')
        if not found.works:
            self.mode = "none"
            self.note = f"warning: {found.describe()}"
            return
        self.mode = "bwrap"
        self._bwrap = found.bwrap
        self._syscall_filter = found.syscalls.program
        warnings = [found.describe()] if found.cap_problem is not None else []
        if filtered and self._syscall_filter is None:
            warnings.append(f"bots' system calls are not filtered: {found.syscalls.problem}")
        if warnings:
            self.note = f"warning: {'; '.join(warnings)}"
        self._hidden = self._run_hidden()

    def for_bot(self, name: str) -> Sandbox | None:
        """The sandbox of bot ``name``; None when the run is unsandboxed or nothing is
        started for it (in-process, or a bot that connects by itself)."""
        if name not in self._made:
            self._made[name] = self._program_inside(name, self._make(name))
        return self._made[name]

    def confined(self, name: str) -> bool:
        """Whether bot ``name`` runs in a sandbox with a network of its own, where nothing
        of the machine's network reaches it."""
        sandbox = self.for_bot(name)
        return sandbox is not None and not sandbox.host_network

    def _make(self, name: str) -> Sandbox | None:
        bot = self.match.bots[name]
        if self._bwrap is None or bot.program.argv is None:
            return None
        folder = same_path(bot.program.cwd) if bot.program.cwd is not None else None
        own = self._named(bot)
        # Another bot's things matter only where this bot could see them: in its folder.
        hidden = self._hidden | {
            path
            for other in self.match.bots.values()
            if other.spec.name != name
            for path in self._named(other)
            if folder is not None and inside(path, [folder]) and path not in own
        }
        needs = [
            path
            for path in self._needs(bot, folder)
            if path != Path("/") and not any(inside(h, [path]) for h in hidden)
        ]
        wishes = bot.sandbox
        read_only = tuple(map(same_path, wishes.read_only))
        writable = tuple(map(same_path, wishes.writable))
        read_write = (*writable, *map(same_path, wishes.read_write))
        self._refuse_hidden(name, (*read_only, *read_write), hidden)
        view = View(
            folder=folder,
            hidden=frozenset(hidden),
            read_only=(*needs, *read_only),
            read_write=read_write,
            tmp_mb=wishes.tmp_mb,
        )
        uid = self._uid(writable)
        if uid is not None:
            self._refuse_unreadable(name, (*needs, *read_only, *read_write))
        return Sandbox(
            bwrap=self._bwrap,
            view=view,
            host_network=wishes.network == "host",
            pids_parent=pids_parent(),
            env=private_env(bot.program.env),
            syscall_filter=self._syscall_filter if wishes.syscalls == "filtered" else None,
            uid=uid,
            private_folder=folder not in read_write,
            mount_points=tuple(
                p for p in (*read_only, *read_write) if folder is not None and folder in p.parents
            ),
        )

    def close(self) -> None:
        """Give back the user ids the run's bots had."""
        for lease in self._leases:
            lease.release()
        self._leases.clear()

    def _uid(self, writable: Iterable[Path]) -> int | None:
        """A user id of the bot's own (an arena run as root, see
        :mod:`~arena_kernel.sandbox.uids`), to which the paths it may write are given."""
        if not uids.wanted():
            return None
        lease = uids.lease()
        self._leases.append(lease)
        for path in writable:
            give(path, lease.uid)
        return lease.uid

    def _refuse_unreadable(self, name: str, shown: Iterable[Path]) -> None:
        """A bot with a user id of its own reads only what any user may: a path shown to
        it that other users may not read (a folder made with mode 0700) would only make it
        fail at its start."""
        for path in shown:
            try:
                mode = path.stat().st_mode
            except OSError:
                continue
            wanted = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
            if mode & wanted != wanted:
                raise SetupError(
                    f"{self.match.spec.path}: bot {name!r} runs as a user of its own (arena "
                    f"runs as root), and other users may not read {path} (mode "
                    f"{stat.S_IMODE(mode):04o}): let them (chmod o+rX) or move it"
                )

    def _refuse_hidden(self, name: str, shown: Iterable[Path], hidden: Iterable[Path]) -> None:
        """A path the organiser shows a bot must not hold what the run hides from it."""
        for path in shown:
            for secret in hidden:
                if path == secret or path in secret.parents:
                    raise MatchFileError(
                        f"{self.match.spec.path}: bot {name!r}: the sandbox path {path} "
                        f"holds {secret}, which no bot may see (the database, the logs, "
                        "the match file or another bot's program): name a folder "
                        "inside it instead, or move that out"
                    )

    def _run_hidden(self) -> frozenset[Path]:
        spec = self.match.spec
        database = [Path(f"{spec.database}{suffix}") for suffix in DATABASE_COMPANIONS]
        kept = (spec.path, spec.logs, lock_path(spec.database), *database)
        return frozenset(same_path(p) for p in kept)

    @staticmethod
    def _named(bot: ResolvedBot) -> set[Path]:
        """A started bot's own things: its folder and the existing paths its command names."""
        program = bot.program
        if program.argv is None or program.cwd is None:
            return set()
        return {same_path(program.cwd), *named_paths(program.argv, Path(program.cwd))}

    def _needs(self, bot: ResolvedBot, folder: Path | None) -> Iterable[Path]:
        """What the bot's program needs outside its folder to run, none of it in what the
        run hides."""
        program = bot.program
        assert program.argv is not None
        if bot.spec.builtin is not None:
            builtin = type(self.match.game).bots[bot.spec.builtin]
            return (*python_runtime(), *package_folders(builtin.module))
        env = _environment(program)
        needs = list(command_needs(program.argv, folder, env))
        if runs_arena_python(program.argv, folder, env):
            needs += python_runtime()  # python -m arena_...: the arena's packages too
        return [
            p
            for p in needs
            if (folder is None or not inside(p, [folder])) and not inside(p, self._hidden)
        ]

    def _program_inside(self, name: str, sandbox: Sandbox | None) -> Sandbox | None:
        """``sandbox``, made to run the program its bot runs outside, or a SetupError (see
        :mod:`~arena_kernel.sandbox.same_program`)."""
        if sandbox is None:
            return None
        program = self.match.bots[name].program
        assert program.argv is not None
        label = f'{self.match.spec.path}: bot "{name}"'
        return settle(label, sandbox, program.argv, sandbox.view.folder, _environment(program))


def _environment(program: BotProgram) -> dict[str, str]:
    """The environment a bot's command is started with, where ``exec`` finds its program."""
    return {**passed_environment(os.environ), **program.env}
