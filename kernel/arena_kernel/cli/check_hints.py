"""What ``arena check-bot`` suggests for the mistakes most bots make once, read from a game
in which the bot failed: a bot that never flushes its output, keys written in another case
than the protocol's, a bot that connects to a port of its own choosing.

Pure functions of what the store holds of the game, as the rest of the report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena_kernel.model import Event, Fault

REFUSED = re.compile(r"ECONNREFUSED|Connection refused|connection refused", re.IGNORECASE)
"""How a bot's stderr says that nothing listened where it connected (Python, Node.js,
Java, C all say one of these)."""

TRIED_PORT = re.compile(r"ECONNREFUSED \S*:(\d{1,5})\b")
"""The port a refused connection went to, where the bot's stderr says (Node.js does)."""

NO_FLUSH = (
    "hint: it sent nothing at all: a bot must flush its output after every message "
    "(Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush(); Node.js "
    "writes at once), or its replies wait in a buffer until it exits"
)


def hints(
    events: Sequence[Event], seat: int, fault: Fault, stderr: str, port_given: bool
) -> list[str]:
    """The hints for the bot in ``seat`` whose first fault in the game of ``events`` was
    ``fault``; ``stderr`` is the end of what it wrote there, ``port_given`` whether the
    check was told a fixed port."""
    found = []
    sent_anything = any(e.seat == seat and e.kind in ("recv", "late") for e in events)
    if str(fault.kind) in ("timeout", "wall-cap") and not sent_anything:
        found.append(NO_FLUSH)
    if str(fault.kind) in ("malformed", "illegal"):
        found += _case_hints(events, seat, fault.detail)
    if str(fault.kind) in ("connect", "exit", "timeout") and REFUSED.search(stderr):
        tried = TRIED_PORT.search(stderr)
        port = tried.group(1) if tried else "PORT"
        found.append(
            "hint: its stderr says a connection was refused: a bot connects to the port "
            "arena gives it ({port} in its command, or ARENA_PORT)"
            + (
                ""
                if port_given
                else f"; one that always connects to the same port needs --port {port} here, "
                f"and [transport_options.tcp] port = {port} in a match file"
            )
        )
    return found


def _case_hints(events: Sequence[Event], seat: int, detail: str) -> list[str]:
    """A hint for the keys of the bot's replies that the protocol writes in another case
    (``type`` where it writes ``Type``), as the messages it was sent and the fault's
    reason (``Type is missing``) write them: keys are case-sensitive."""
    theirs: dict[str, str] = {}
    for event in events:
        if event.seat == seat and event.kind == "send":
            for key in _keys(_parsed(event.text)):
                theirs.setdefault(key.lower(), key)
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", detail):
        theirs.setdefault(word.lower(), word)
    wrong: dict[str, str] = {}
    for event in events:
        if event.seat == seat and event.kind == "recv":
            for key in _keys(_parsed(event.text)):
                meant = theirs.get(key.lower())
                if meant is not None and meant != key and key not in theirs.values():
                    wrong.setdefault(key, meant)
    if not wrong:
        return []
    mine = ", ".join(f'"{k}"' for k in wrong)
    protocol = ", ".join(f'"{v}"' for v in wrong.values())
    return [f"hint: keys are case-sensitive: it wrote {mine} where the protocol writes {protocol}"]


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _keys(value: Any) -> Iterator[str]:
    """Every key of the JSON objects in ``value``, nested ones too."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)
