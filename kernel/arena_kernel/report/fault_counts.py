"""Each bot's faults as every surface shows them: counted by kind, the most frequent kind
first, the bots in the match file's order. Apart from :mod:`.stats` (which re-exports it),
so that ``arena standings`` reads a run's faults without what the per-bot reply figures
import."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena_kernel.store.runs import RunReads


def bot_faults(store: RunReads, run_id: int) -> list[tuple[str, dict[str, int]]]:
    """The bots of run ``run_id`` that made any fault, each with its faults by kind (most
    frequent first): the match file's bots in its order, then any other by name. What
    :func:`~.stats.bot_stats` says of faults, without reading the reply times: ``arena run`` and
    ``arena standings`` print it at the end of every run, however long."""
    found = store.bot_faults(run_id)
    named = [str(bot["name"]) for bot in store.spec(run_id).get("bots", [])]
    order = [*(bot for bot in named if bot in found), *sorted(set(found) - set(named))]
    return [(bot, by_count(Counter(found[bot]))) for bot in order]


def by_count(kinds: Counter[str] | Iterable[str]) -> dict[str, int]:
    """Fault kinds counted (or a count of them), the most frequent first, ties by name."""
    counts = kinds if isinstance(kinds, Counter) else Counter(kinds)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def fault_kinds(faults: Mapping[str, int]) -> str:
    """``{"timeout": 2, "exit": 1}`` as ``timeout 2, exit 1`` (empty without faults): how
    the tables show a bot's faults by kind."""
    return ", ".join(f"{kind} {count}" for kind, count in faults.items())
