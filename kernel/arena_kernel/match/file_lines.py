"""Where a key is written in a match file, and how a message names it: every problem is
reported with the file, the line when it can be found, and the key."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

KeyPath = tuple[str | int, ...]
"""Where a value sits in the file: ``("bots", 1, "cmd")`` is the second bot's ``cmd``."""


def find_line(text: str, path: KeyPath) -> int | None:
    """The 1-based line where ``path`` is written, or None (best effort, for messages).

    Walks the path through the file's ``[table]`` / ``[[array]]`` headers and ``key =``
    lines; when a deeper part cannot be found (an inline table), the line of the deepest
    part found is the answer.
    """
    lines = text.splitlines()
    headers = [
        (number, _header_parts(found.group(1)))
        for number, line in enumerate(lines)
        if (found := _HEADER.match(line))
    ]
    name: tuple[str, ...] = ()
    start = -1  # the current table's header line; -1 is the root table
    direct = True  # False for a table only written as part of longer headers ([a.b] for a)
    end = len(lines)  # where the current array element's sub-tables end
    found_line: int | None = None
    i = 0
    while i < len(path) and isinstance(key := path[i], str):
        following = path[i + 1] if i + 1 < len(path) else None
        index = following if isinstance(following, int) else None
        if direct:
            direct_end = next((n for n, _ in headers if n > start), len(lines))
            key_line = _key_line(lines, start + 1, direct_end, key)
            if key_line is not None:
                return key_line + 1
        full = (*name, key)
        tables = [n for n, parts in headers if start < n < end and parts == full]
        if index is not None and index < len(tables):
            start, direct = tables[index], True
            end = next(
                (
                    n
                    for n, parts in headers
                    if n > start and (parts[: len(full)] != full or parts == full)
                ),
                len(lines),
            )
        elif index is None and tables:
            start, direct = tables[0], True
        elif index is None and any(
            start < n < end and parts[: len(full)] == full for n, parts in headers
        ):
            direct = False
        else:
            break
        if direct:
            found_line = start + 1
        name = full
        i += 1 if index is None else 2
    return found_line


_HEADER = re.compile(r"\s*\[\[?([^\[\]]+)\]\]?\s*(?:#.*)?$")


def _header_parts(header: str) -> tuple[str, ...]:
    parts = re.findall(r'\s*("[^"]*"|\'[^\']*\'|[^.]+)\s*(?:\.|$)', header)
    return tuple(part.strip().strip("\"'") for part in parts)


def _key_line(lines: Sequence[str], start: int, end: int, key: str) -> int | None:
    escaped = re.escape(key)
    pattern = re.compile(rf"\s*(?:{escaped}|\"{escaped}\"|'{escaped}')\s*[=.]")
    return next((n for n in range(start, end) if pattern.match(lines[n])), None)


def show_path(path: KeyPath) -> str:
    """``("bots", 1, "cmd")`` -> ``bots[2].cmd``: bots are counted from 1, as people do."""
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


_TABLE_HINTS = {
    "game": "the game's options go in [game_options]",
    "transport": "a transport's options go in [transport_options.NAME]",
}
"""Tables people will write next to ``game = ...``/``transport = ...``, which TOML forbids."""


def toml_error(path: Path, text: str, message: str) -> str:
    """Put tomllib's "(at line L, column C)" in front, where all our messages say where."""
    found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.DOTALL)
    if found:
        what, line, column = found.groups()
        lines = text.splitlines()
        header = _HEADER.match(lines[int(line) - 1]) if int(line) <= len(lines) else None
        table = _header_parts(header.group(1)) if header else ()
        hint = _TABLE_HINTS.get(table[0]) if table else None
        hint = f" ({hint})" if hint else ""
        return f"{path}, line {line}, column {column}: invalid TOML: {what}{hint}"
    found = re.fullmatch(r"(.*) \(at end of document\)", message, re.DOTALL)
    if found:
        return f"{path}, at the end: invalid TOML: {found.group(1)}"
    return f"{path}: invalid TOML: {message}"
