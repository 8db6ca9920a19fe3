"""One fault of a bot, as a game records it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena_kernel.model.fault_kinds import FaultKind


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault: its kind, a precise human description, and when (seconds into the game)."""

    kind: FaultKind
    detail: str
    seat: int | None = None
    at: float = 0.0

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"
