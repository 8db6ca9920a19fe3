"""Run a :class:`~arena_kernel.bots.logic.BotLogic` as a real program, over stdin/stdout or TCP.

Built-in bots are written once; ``python -m arena_<game>.bots.<name>`` calls :func:`main`
so that the process speaks the real protocol, byte for byte what the in-process version
produces. Plain blocking I/O: a bot process serves exactly one referee.
"""

from __future__ import annotations

import argparse
import inspect
import os
import socket
import sys
from collections.abc import Callable, Sequence

from arena_kernel.bot_clocks import BotClocks
from arena_kernel.bots.logic import BotLogic
from arena_kernel.codecs.base import Codec, Decoded
from arena_kernel.model import Fault


def serve(
    bot: BotLogic, codec: Codec, read: Callable[[], bytes], write: Callable[[bytes], None]
) -> None:
    """Answer messages until the referee closes the stream."""
    decoder = codec.decoder()
    try:
        greetings = bot.start()
    except Exception as exc:
        raise SystemExit(f"bot: cannot start ({type(exc).__name__}: {exc})") from None
    for message in greetings:
        write(codec.encode(message))
    while chunk := read():
        _answer(bot, codec, decoder.feed(chunk), write)
    _answer(bot, codec, decoder.close(), write)


def _answer(
    bot: BotLogic, codec: Codec, items: list[Decoded], write: Callable[[bytes], None]
) -> None:
    for message, raw in items:
        if isinstance(message, Fault):
            raise SystemExit(f"bot: unreadable message from the referee ({message}): {raw[:80]!r}")
        try:
            replies = bot.on_message(message)
        except Exception as exc:
            # A message the bot cannot handle ends it with one line on stderr, which the
            # arena keeps; the referee sees the exit.
            detail = f"{type(exc).__name__}: {exc}"
            raise SystemExit(f"bot: cannot answer {str(message)[:80]!r} ({detail})") from None
        for reply in replies:
            write(codec.encode(reply))


def serve_stdio(bot: BotLogic, codec: Codec) -> None:
    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(1, view) :]

    serve(bot, codec, lambda: os.read(0, 65536), write)


def serve_tcp(bot: BotLogic, codec: Codec, host: str, port: int) -> None:
    with socket.create_connection((host, port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        serve(bot, codec, lambda: sock.recv(65536), sock.sendall)


def main(
    bot: BotLogic | Callable[..., BotLogic],
    codec: Codec,
    argv: Sequence[str] | None = None,
    *,
    configure: Callable[[argparse.ArgumentParser], object] | None = None,
    seeded: bool = False,
    address: Callable[[argparse.Namespace], tuple[str, int]] | None = None,
) -> None:
    """The command line of a bot program: serve ``bot`` over stdin/stdout, or over TCP with
    ``--tcp HOST PORT``, speaking ``codec`` (the game's codec: ``JsonlCodec()``...).

    ``bot`` is the bot itself (``main(MyBot(), LineCodec())``), or a factory called once the
    command line is parsed: with no argument, or with the parsed ``argparse.Namespace``
    when it has a required parameter
    (``main(lambda args: MyBot(args.seed), codec, seeded=True)``).
    ``argv``: the arguments to parse (default: ``sys.argv[1:]``).
    ``seeded`` offers ``--seed N`` (``args.seed``, None without it) for bots whose choices
    are random; ``configure`` adds the bot's own options to the parser (what it returns is
    ignored: ``lambda p: p.add_argument(...)`` will do).
    ``address``: the bot always connects over TCP, to the address its own options name
    (a game whose original server passed it differently, e.g. Speed Clue's
    ``<identifier> <port>``); ``--tcp`` is then not offered.
    A bot that defines ``clocks(clocks)`` is handed the clocks the arena put in the
    program's environment (:mod:`arena_kernel.bot_clocks`) before it starts; not called
    when there are none.
    A bot that cannot be built, or a message it cannot answer, ends the program with one
    line on stderr (which the arena keeps in the bot's log), never a traceback.
    """
    parser = argparse.ArgumentParser(description=(sys.modules["__main__"].__doc__ or "").strip())
    if address is None:
        parser.add_argument("--tcp", nargs=2, metavar=("HOST", "PORT"), help="connect to the arena")
    if seeded:
        parser.add_argument("--seed", type=int, default=None, help="seed of the random choices")
    if configure is not None:
        configure(parser)
    args = parser.parse_args(argv)
    logic = _build(bot, args)
    _tell_clocks(logic)
    where: tuple[str, int] | None = None
    if address is not None:
        where = address(args)
    elif args.tcp:
        host, port = args.tcp
        if not port.isdigit():
            parser.error(f"--tcp: the port must be a number, not {port!r}")
        where = (host, int(port))
    try:
        if where:
            serve_tcp(logic, codec, *where)
        else:
            serve_stdio(logic, codec)
    except (BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        pass
    except OSError as exc:
        raise SystemExit(f"bot: cannot reach the arena at {where}: {exc.strerror or exc}") from None


def _tell_clocks(logic: BotLogic) -> None:
    """Hand a bot that asks for them (its ``clocks()``) the clocks the arena put in the
    program's environment, if it put any."""
    clocks = getattr(logic, "clocks", None)
    told = BotClocks.from_environment(os.environ)
    if clocks is None or told is None:
        return
    try:
        clocks(told)
    except Exception as exc:
        raise SystemExit(f"bot: cannot take its clocks ({type(exc).__name__}: {exc})") from None


def _build(bot: BotLogic | Callable[..., BotLogic], args: argparse.Namespace) -> BotLogic:
    """The bot :func:`main` serves: ``bot`` itself, or what its factory makes."""
    if not isinstance(bot, type) and isinstance(bot, BotLogic):
        return bot
    if not callable(bot):
        raise SystemExit(f"bot: main() needs a bot or a factory of bots, not {bot!r}")
    try:
        takes_args = any(
            p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            for p in inspect.signature(bot).parameters.values()
        )
    except (TypeError, ValueError):  # a callable without a signature: the documented call
        takes_args = True
    try:
        made = bot(args) if takes_args else bot()
    except Exception as exc:
        raise SystemExit(f"bot: cannot build the bot ({type(exc).__name__}: {exc})") from None
    if isinstance(made, type) or not isinstance(made, BotLogic):
        raise SystemExit(
            f"bot: {getattr(bot, '__name__', bot)!s} made {made!r}, not a bot "
            "(an object with start() and on_message(message))"
        )
    return made
