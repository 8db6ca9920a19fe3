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

    Optional parts, which a bot defines only if it needs them:

    - ``clocks(clocks: BotClocks) -> None``: the limits its replies are judged by
      (:class:`~arena_kernel.bot_clocks.BotClocks`), for a bot that plays by the clock.
      Called before :meth:`start`: by the ``inproc`` transport with its game's clocks (on
      the wall clock, which judges a bot in process), by :func:`~arena_kernel.bots.serve.main`
      with those the arena put in the program's environment (not at all when there are
      none: a program started by hand).
    - ``identify(identifier: str) -> None``: for a bot whose protocol needs the identifier
      the arena gave it (Speed Clue's ``<identifier> alive``); the ``inproc`` transport
      calls it before :meth:`start`, as a program would read it from its command line.
    - ``threaded = True``: its :meth:`on_message` may think for a long while (a search).
      The ``inproc`` transport then calls it in a thread of the bot's own, one message
      after another, so that the arena's event loop runs the other games meanwhile; that
      pays off when the thinking releases the GIL (compiled code), and the bot must not
      share unguarded state with other bots.
    """

    def start(self) -> list[Any]:
        """Messages to send as soon as the connection is up (a greeting); usually ``[]``."""
        ...

    def on_message(self, message: Any) -> list[Any]:
        """Replies to one message from the referee, in order; ``[]`` for none."""
        ...
