"""One message shape for the test games on every codec: a verb and its arguments.

``line``/``raw``: ``"move 7"``; ``jsonl``: ``{"verb": "move", "args": [7]}``;
``sexpr``: ``(move 7)``. Lets one game be played over all four built-in codecs.
"""

from __future__ import annotations

import re
from typing import Any

from arena_kernel.codecs.sexpr import Symbol

_INTEGER = re.compile(r"-?[0-9]+")
"""A number argument of the text forms: ASCII digits only (``str.isdigit`` also passes
``²``, which ``int`` refuses)."""


def to_wire(codec: str, verb: str, *args: Any) -> Any:
    if codec == "jsonl":
        return {"verb": verb, "args": list(args)}
    if codec == "sexpr":
        return [Symbol(verb), *(Symbol(a) if isinstance(a, str) else a for a in args)]
    return " ".join([verb, *(str(a) for a in args)])


def from_wire(codec: str, message: Any) -> tuple[str, list[Any]]:
    """``(verb, args)``; anything unreadable comes back as ``("", [])``."""
    if codec == "jsonl":
        if isinstance(message, dict) and isinstance(message.get("verb"), str):
            args = message.get("args", [])
            return message["verb"], args if isinstance(args, list) else []
        return "", []
    if codec == "sexpr":
        if isinstance(message, list) and message and isinstance(message[0], str):
            return str(message[0]), [str(a) if isinstance(a, str) else a for a in message[1:]]
        return "", []
    if isinstance(message, str) and message.split():
        verb, *args = message.split()
        return verb, [_argument(a) for a in args]
    return "", []


def _argument(word: str) -> Any:
    """A word of a text message: an int if it is a number Python converts; any other word,
    one with more digits than Python's limit on integer digits too, stays a str, for the
    game to judge like any word that is not a number."""
    if _INTEGER.fullmatch(word):
        try:
            return int(word)
        except ValueError:
            pass
    return word
