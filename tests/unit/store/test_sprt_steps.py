"""The steps of a run's SPRT in the store: each stored with the game that completes its
pair, read back in order; none for a game the run already holds; and all of them gone
with the games of a bot put out of the run."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.model import GameRecord, Outcome, ScheduledGame
from arena_kernel.scoring.sprt_run import SprtStep
from arena_kernel.store import Store


def game(index: int, out: tuple[int, ...] = ()) -> GameRecord:
    outcome = Outcome.win(0, 2, "r")
    if out:
        outcome = Outcome((2, 1), "out", disqualified=frozenset(out))
    return GameRecord(ScheduledGame(index, 7, ("a", "b")), outcome)


def test_steps_are_stored_with_their_games_and_go_with_a_bot_put_out(tmp_path: Path) -> None:
    first, second = SprtStep(1, 0, 2.0, 0.419, "H1"), SprtStep(2, 1, 0.0, -0.315)
    with Store(tmp_path / "arena.sqlite") as store:
        run = store.open_run("key", "sprt", "nim", {}, 8).run_id
        store.save_game(run, game(0))
        store.save_game(run, game(1), first)
        store.save_game(run, game(2))
        store.save_game(run, game(3), second)
        assert store.sprt_steps(run) == [first, second]
        assert store.save_game(run, game(3), SprtStep(3, 1, 2.0, 1.0)) is None
        assert store.sprt_steps(run) == [first, second], "a game stored already adds nothing"

        store.save_game(run, game(4, out=(0,)))
        assert store.sprt_steps(run) == [], "the test counted games that no longer count"
