"""A validated match file: everything a run needs, with defaults filled in."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from arena_kernel.transports.base import Limits


@dataclass(frozen=True)
class BotSpec:
    """One ``[[bots]]`` entry. Exactly one of ``cmd``, ``builtin`` or ``connect`` is set.

    ``port`` and ``peer`` bind a ``connect`` bot's seat to the connections that arrive on
    a port of its own, or from one address (the tcp transport).
    """

    name: str
    cmd: tuple[str, ...] | None = None
    builtin: str | None = None
    args: tuple[str, ...] = ()
    inproc: bool = False
    connect: bool = False
    transport: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    port: int | None = None
    peer: str | None = None


@dataclass(frozen=True)
class MatchSpec:
    """The match file, validated. ``path`` is where it was read from (for messages).

    ``seats`` holds the seat counts to play, ascending: usually one, several when a run
    plays every group size of a contest format (three to six players, say) in one go.
    """

    path: Path
    game: str
    bots: tuple[BotSpec, ...]
    seats: tuple[int, ...]
    seed: int = 0
    format: Literal["round-robin", "gauntlet"] = "round-robin"
    challenger: str | None = None
    seatings: Literal["rotations", "permutations"] = "rotations"
    rounds: int = 1
    games: int | None = None
    concurrency: int = 1
    database: Path = Path("arena.sqlite")
    logs: Path = Path("arena-logs")
    name: str = "match"
    clock: Mapping[str, float | None] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    max_message: int = 1 << 20
    codec: str | None = None
    transport: str | None = None
    transport_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    scorers: tuple[str, ...] = ("wins",)
    game_options: Mapping[str, Any] = field(default_factory=dict)
    plugins: tuple[str, ...] = ()

    def key(self) -> str:
        """Identifies the run in the database: same key, same schedule, so a re-run resumes.

        Settings that do not change which games are played or how (concurrency, database,
        log folder, scorers, the run's name) are left out, so changing them still resumes.
        """
        payload = {
            "game": self.game,
            "bots": [_bot_identity(b) for b in self.bots],
            "seats": self._seats_key(),
            "seed": self.seed,
            "format": self.format,
            "challenger": self.challenger,
            "seatings": self.seatings,
            "rounds": self.rounds,
            "games": self.games,
            "clock": dict(self.clock),
            "limits": self.limits.__dict__,
            "max_message": self.max_message,
            "codec": self.codec,
            "transport": self.transport,
            "transport_options": {k: dict(v) for k, v in self.transport_options.items()},
            "game_options": dict(self.game_options),
        }
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def _seats_key(self) -> int | list[int]:
        """One count as the plain integer keys were made of before lists were allowed, so
        that the stored runs of single-count files keep their keys and still resume."""
        return self.seats[0] if len(self.seats) == 1 else list(self.seats)


ADDRESSING = ("port", "peer")
"""Bot keys left out of the run's key. They say where a ``connect`` bot's connection comes
from, not what plays or how: a remote bot that moves to another machine or port is still
the same bot, and its run must resume, as a run resumes in another database folder. (They
also keep the keys of runs stored before these keys existed.)"""


def _bot_identity(bot: BotSpec) -> dict[str, Any]:
    data = {key: value for key, value in bot.__dict__.items() if key not in ADDRESSING}
    data["env"] = dict(bot.env)
    return data
