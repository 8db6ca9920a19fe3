"""The in-process bot interface.

A game's built-in bot is written once against decoded messages. The ``inproc`` transport
calls it directly (still encoding and decoding every message through the codec, so that the
bytes are the same as on a pipe), and :mod:`arena_kernel.bots.serve` runs the very same object as
a real program over stdin/stdout or TCP.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class BotLogic(Protocol):
    """A bot as the ``inproc`` transport and :mod:`arena_kernel.bots.serve` drive it.

    A bot whose protocol needs the identifier the arena gave it (Speed Clue's
    ``<identifier> alive``) may also define ``identify(identifier: str) -> None``: the
    ``inproc`` transport calls it before :meth:`start`, as a program would read it from its
    command line.
    """

    def start(self) -> list[Any]:
        """Messages to send as soon as the connection is up (a greeting); usually ``[]``."""
        ...

    def on_message(self, message: Any) -> list[Any]:
        """Replies to one message from the referee, in order; ``[]`` for none."""
        ...
