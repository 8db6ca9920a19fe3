"""A test game that writes a lot to its bots: ``plugins = ["chatter_game"]`` (with
tests/support on ``PYTHONPATH``).

Each round every seat gets one notice of ``size`` bytes, then each seat still in is asked
``move`` and must answer ``ok``. A seat that does not is out, but still gets the notices,
as a real game keeps telling a silent seat what happens; at the end, every seat that went
out is asked once more, so that what became of its bot is on record. A bot that reads
keeps up; one that never reads has everything written to it pile up, in the arena's
memory unless the arena bounds it.
"""

from __future__ import annotations

from arena_kernel.games.base import Game, Option, Outcome
from arena_kernel.markers import hookimpl
from arena_kernel.referee.table import Table


class Chatter(Game[None]):
    name = "chatter"
    summary = "writes big notices to every seat between requests (a test game)"
    seats = (2,)
    options = {
        "rounds": Option(10, "rounds of one notice to every seat and one request", minimum=1),
        "size": Option(1 << 20, "bytes per notice, newline included", minimum=2),
    }

    async def play(self, table: Table, seed: int, session: None) -> Outcome:
        notice = "n" * (self.config["size"] - 1)
        out: list[int] = []
        for _ in range(self.config["rounds"]):
            table.broadcast(notice)
            for seat in range(len(table)):
                if seat not in out:
                    reply = await table.ask(seat, "move")
                    if not reply.ok or reply.message != "ok":
                        out.append(seat)
        for seat in out:
            await table.ask(seat, "move")
        ranks = [2 if seat in out else 1 for seat in range(len(table))]
        return Outcome(ranks, f"seats out: {out}" if out else "every seat kept up")


@hookimpl
def arena_register_games(register):
    register(Chatter)
