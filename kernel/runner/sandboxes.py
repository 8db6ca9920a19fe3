"""Which sandbox each bot of a run gets: the run's mode decided once, then one
:class:`~arena_kernel.sandbox.bwrap.Sandbox` per bot the arena starts.

What a bot must not see is known only here, where the whole run is: the database, its
journals and its run lock, the logs, the match file, the other bots' folders and the files
their commands name (two bots sharing a folder do not see each other's programs, though a
file that only one program opens by itself cannot be known, hence: one folder per bot).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from arena_kernel.errors import SetupError
from arena_kernel.match.resolved import ResolvedBot, ResolvedMatch
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
from arena_kernel.sandbox.view import View, same_path
from arena_kernel.store.lock import lock_path

DATABASE_COMPANIONS = ("", "-wal", "-shm", "-journal")
"""What SQLite keeps beside a database file."""


class RunSandboxes:
    """The run's sandbox: :attr:`mode` is ``"bwrap"`` or ``"none"`` (what the run's started
    bots actually run under), :attr:`note` a line for the run header (a warning), or None.

    Raises :class:`~arena_kernel.errors.SetupError` when the match file requires a sandbox
    this machine cannot make. A run that starts no bot (in-process bots, bots that connect
    by themselves) has nothing to sandbox: nothing is probed, required or warned about.
    """

    def __init__(self, match: ResolvedMatch) -> None:
        self.match = match
        self.note: str | None = None
        self._bwrap: str | None = None
        self._made: dict[str, Sandbox | None] = {}
        wanted = match.spec.sandbox.mode
        if wanted == "none" or all(bot.program.argv is None for bot in match.bots.values()):
            self.mode = "none"
            return
        found = probe()
        if wanted == "required" and found.refusal:
            raise SetupError(f'{match.spec.path}: [sandbox] mode = "required", but {found.refusal}')
        if not found.works:
            self.mode = "none"
            self.note = f"warning: {found.describe()}"
            return
        self.mode = "bwrap"
        self._bwrap = found.bwrap
        if found.cap_problem is not None:
            self.note = f"warning: {found.describe()}"
        self._hidden = self._run_hidden()

    def for_bot(self, name: str) -> Sandbox | None:
        """The sandbox of bot ``name``; None when the run is unsandboxed or nothing is
        started for it (in-process, or a bot that connects by itself)."""
        if name not in self._made:
            self._made[name] = self._make(name)
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
        view = View(
            folder=folder,
            hidden=frozenset(hidden),
            read_only=(*needs, *map(same_path, wishes.read_only)),
            read_write=tuple(map(same_path, (*wishes.writable, *wishes.read_write))),
            tmp_mb=wishes.tmp_mb,
        )
        return Sandbox(
            bwrap=self._bwrap,
            view=view,
            host_network=wishes.network == "host",
            pids_parent=pids_parent(),
            env=private_env(bot.program.env),
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
        """What the bot's program needs outside its folder to run."""
        program = bot.program
        assert program.argv is not None
        if bot.spec.builtin is not None:
            builtin = type(self.match.game).bots[bot.spec.builtin]
            return (*python_runtime(), *package_folders(builtin.module))
        needs = list(command_needs(program.argv, folder, program.env))
        if runs_arena_python(program.argv, folder, program.env):
            needs += python_runtime()  # python -m arena_...: the arena's packages too
        return [p for p in needs if folder is None or not inside(p, [folder])]
