"""User-facing errors: each one is printed as one clear message (CLI exit status 2)."""

from __future__ import annotations

from collections.abc import Iterable


class ArenaError(Exception):
    """Something the user can fix: a bad match file, a missing plugin, a bad database path."""


class SetupError(ArenaError):
    """The arena's own set-up failed, not a bot: it cannot listen on its port, write its logs,
    open a file descriptor, or start a command that does not exist. Never a game result: the
    run stops with this message (exit status 2) and stores nothing for the games it hit,
    which a later run plays."""


class PluginError(ArenaError):
    """A plugin could not be loaded or conflicts with another plugin."""


class MatchFileError(ArenaError):
    """A match file is invalid; the message names the file, the key and the problem."""


class OptionError(ArenaError):
    """A plugin's option table is invalid; ``key`` names the offending option."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A ' (did you mean "x"?)' suffix when a close candidate exists, else ''."""
    import difflib  # only for a name that is not known: every command imports this module

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""
