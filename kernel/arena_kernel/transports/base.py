"""The transport interface: opening one :class:`Connection` per bot."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from arena_kernel.bot_clocks import BotClocks
from arena_kernel.codecs.base import Codec
from arena_kernel.options import Configurable
from arena_kernel.resource_limits import ResourceLimits

if TYPE_CHECKING:
    from arena_kernel.processes.cpu_meter import CpuMeter
    from arena_kernel.sandbox.bwrap import Sandbox

OnData = Callable[[bytes], None]
OnClosed = Callable[[str], None]


@dataclass(frozen=True)
class BotProgram:
    """What to run for one bot: a command, an in-process object factory, or neither
    (``connect``: a bot started by someone else that connects to the arena by itself).

    ``port`` and ``peer`` bind a ``connect`` bot's seat to the connections that arrive on a
    port of its own, or from one address (see docs/tcp.md)."""

    name: str
    argv: tuple[str, ...] | None = None
    inproc: Callable[[], Any] | None = None
    connect: bool = False
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    port: int | None = None
    peer: str | None = None
    warm: str | None = None
    """For one of arena's own Python bots run as a program (``python -P -m warm ...``): the
    module, which a transport may import once and fork ready bots from
    (:mod:`arena_kernel.transports.warm_start`). Never set for a match file's ``cmd``."""


@dataclass(frozen=True)
class Launch:
    """Everything a transport needs to bring up one bot for one seat.

    ``identifier`` is unique within the run; it fills the ``{identifier}`` argv
    placeholder (with ``{host}`` and ``{port}`` for network transports) and names the
    stderr log ``log_dir/<identifier>.stderr``. ``sandbox``: how to confine the bot's
    program (None: it runs with the arena's rights). ``cpu_clock``: the referee charges the
    bot's replies their CPU time, so the connection needs a :attr:`Connection.cpu_meter`.
    ``clocks``: what the bot is told of its game's clocks (a program in its environment, a
    bot in process by its ``clocks()``: see :mod:`arena_kernel.bot_clocks`); None: nothing.
    """

    program: BotProgram
    codec: Codec
    identifier: str
    limits: ResourceLimits
    log_dir: Path
    startup: float
    kill_grace: float
    sandbox: Sandbox | None = None
    cpu_clock: bool = False
    clocks: BotClocks | None = None


class Connection(ABC):
    """A byte pipe to one running bot, and the process behind it if the arena started one.

    The referee calls :meth:`start` once with its callbacks; ``on_closed(reason)`` is called
    exactly once, as soon as the bot can no longer answer: its output closed, its process
    exited (even if a child still holds the pipe open), or its socket dropped.
    """

    pid: int | None = None
    started: float | None = None
    """When the bot was started or connected (``time.monotonic()``): the bot's start-up
    clock runs from here to its first reply. ``None``: from when the referee took it."""
    cpu_meter: CpuMeter | None = None
    """The CPU time of the bot's processes, for a CPU-time clock (see
    :attr:`Launch.cpu_clock`); None: the arena did not start the bot, or was not asked to,
    and its replies are timed by the wall clock."""

    @property
    def out_of_memory(self) -> bool:
        """Whether the bot's process exited after the out-of-memory killer ended one of its
        processes for passing its memory cap: its close is then a ``memory`` fault, not an
        ``exit``. Asked as ``on_closed`` is called."""
        return False

    @abstractmethod
    def start(self, on_data: OnData, on_closed: OnClosed) -> None:
        """Begin delivering received bytes."""

    @abstractmethod
    def write(self, data: bytes) -> None:
        """Queue ``data`` for the bot; never blocks, never raises once the bot is gone."""

    def hand_over(self) -> None:
        """Give ``on_data`` now what the bot has answered already and the connection would
        give it on a later turn of the event loop (an in-process bot answers inside
        :meth:`write`). The referee calls it once it has written a request and is about to
        wait for the reply, never inside a write: it reads the reply as it would read a
        pipe that already held it, and saves the turn of the loop that would bring it.
        Nothing by default: a pipe's bytes come from the event loop."""
        return None

    @abstractmethod
    async def close(self) -> None:
        """End the bot: close its input, SIGTERM its whole process group, SIGKILL after the
        grace period, reap it. Idempotent. After it returns no process of the bot is left."""


class Transport(Configurable, ABC):
    """Opens connections. One instance per run and per transport name; subclasses set
    ``name`` and may declare :attr:`options`, which the match file's
    ``[transport_options.<name>]`` table sets."""

    kind = "transport"
    summary: ClassVar[str] = ""

    async def prepare(self) -> None:
        """Acquire and check what every connection will need (a listening socket), before
        the first game; raise :class:`~arena_kernel.errors.SetupError` when that fails, so that a
        broken set-up stops the run before any game is played. Not called when every bot of
        the transport runs in a sandbox with a network of its own (see docs/sandbox.md)."""

    @abstractmethod
    async def connect(self, launch: Launch) -> Connection:
        """Start (or wait for) the bot of ``launch`` within ``launch.startup`` seconds.

        Failure raises :class:`ConnectError` with a precise description; the referee turns
        it into a ``connect`` fault for that seat.
        """

    async def aclose(self) -> None:
        """Release shared resources (a listening socket) at the end of the run."""


class ConnectError(Exception):
    """A bot could not be started or did not connect in time."""


PLACEHOLDERS = ("{identifier}", "{host}", "{port}")


def uses_placeholders(argv: tuple[str, ...]) -> bool:
    """Whether any argument names a placeholder (then the command says where they go)."""
    return any(key in arg for arg in argv for key in PLACEHOLDERS)


def expand_argv(argv: tuple[str, ...], **values: object) -> list[str]:
    """Fill ``{identifier}``, ``{host}``, ``{port}`` placeholders in a bot's argv.

    Only the named placeholders are replaced, so that braces elsewhere in an argument
    (a JSON literal, a shell snippet) are left as they are.
    """
    out = []
    for arg in argv:
        for key, value in values.items():
            arg = arg.replace("{" + key + "}", str(value))
        out.append(arg)
    return out
