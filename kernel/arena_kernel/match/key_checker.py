"""Checking one key of a match file by its declaration (its type, its accepted values, the
installed plugin it names); every failure is one :class:`MatchFileError` naming the file,
line and key."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from arena_kernel.errors import MatchFileError, OptionError, did_you_mean
from arena_kernel.match.file_lines import KeyPath, find_line, show_path
from arena_kernel.options import Option, described
from arena_kernel.registries.registry import Registry


class KeyChecker:
    """Typed access to the raw tables; every failure names the file, line and key."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text

    def error(self, where: KeyPath, message: str) -> MatchFileError:
        line = find_line(self.text, where) if where else None
        place = f"{self.path}, line {line}" if line else f"{self.path}"
        return MatchFileError(f"{place}: {message}")

    def fail(self, where: KeyPath, message: str) -> NoReturn:
        raise self.error(where, message)

    def wrong_type(self, where: KeyPath, expected: str, value: Any) -> NoReturn:
        self.fail(where, f"{show_path(where)} must be {expected}, not {described(value)}")

    def known_keys(self, table: dict[str, Any], where: KeyPath, allowed: Sequence[str]) -> None:
        for key in table:
            if key not in allowed:
                inside = f"{show_path(where)}: unknown key" if where else "unknown top-level key"
                self.fail(
                    (*where, key),
                    f'{inside} "{key}"{did_you_mean(key, allowed)}; allowed: {", ".join(allowed)}',
                )

    def checked(self, table: dict[str, Any], where: KeyPath, option: Option) -> Any:
        """The value at ``where`` as its declaration accepts it, or None when not written.

        A match file's strings and arrays must not be empty (a blank name, no command),
        unless empty is the declared default (no extra ``plugins``).
        """
        value = table.get(str(where[-1]))
        if value is None:
            return None
        label = show_path(where)
        try:
            value = option.check(label, value)
        except OptionError as exc:
            self.fail(where, str(exc))
        if isinstance(value, str) and not value.strip():
            self.fail(where, f"{label} must not be empty")
        if isinstance(value, list):
            if not value and option.default not in ((), []):
                self.fail(where, f"{label} must not be empty")
            for i, item in enumerate(value):
                if item == "":
                    self.fail(where, f"{label}: item {i + 1} must not be empty")
        return value

    def installed(self, where: KeyPath, name: str, registry: Registry) -> None:
        if name not in registry:
            known = ", ".join(sorted(registry)) or "none"
            self.fail(
                where,
                f'{registry.kind} "{name}" is not installed{did_you_mean(name, registry)}; '
                f"installed: {known}{registry.left_out_note(name)}",
            )
