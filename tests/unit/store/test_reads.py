"""The store's bulk reads for listings and exports: the same games as reading them one by
one, selected and ordered as asked, whatever order they were stored in."""

from __future__ import annotations

from pathlib import Path

from arena_kernel.model import Event, Fault, FaultKind, GameRecord, Outcome, ScheduledGame
from arena_kernel.store import Store


def store_games(store: Store) -> tuple[int, int]:
    """Two runs; run 1's games stored out of schedule order, some with faults."""
    first = store.open_run("k1", "one", "nim", {"bots": [{"name": "a"}]}, 6)
    second = store.open_run("k2", "two", "nim", {"bots": []}, 2)
    for index in (4, 0, 5, 2, 1, 3):
        seating = ("a", "b") if index % 2 else ("c", "a")
        faults = [Fault(FaultKind.TIMEOUT, "slow", seat=1, at=0.5)] if index in (2, 5) else []
        if index == 5:
            faults.append(Fault(FaultKind.EXIT, "gone", seat=None, at=0.7))
        store.save_game(
            first.run_id,
            GameRecord(
                ScheduledGame(index, 100 + index, seating),
                Outcome.win(0, 2, f"game {index}"),
                faults=faults,
                events=[Event(0.0, "send", 0, "move")],
                stderr_logs={0: f"logs/{index}.stderr"},
                sandbox="none",
            ),
        )
    store.save_game(
        second.run_id,
        GameRecord(ScheduledGame(0, 1, ("d", "b")), Outcome.by_scores([1.5, 2.0], "points")),
    )
    return first.run_id, second.run_id


def test_games_reads_what_game_reads(tmp_path: Path) -> None:
    with Store(tmp_path / "a.sqlite") as store:
        first, second = store_games(store)
        everything = store.games()
        assert [(g.run_id, g.index) for g in everything] == [
            *((first, i) for i in range(6)),
            (second, 0),
        ]
        assert everything == [store.game(g.game_id) for g in everything]
        assert [g.index for g in store.games(first, faulted=True)] == [2, 5]
        assert [g.index for g in store.games(first, bot="b")] == [1, 3, 5]
        assert [g.run_id for g in store.games(bot="b")] == [first] * 3 + [second]
        assert [g.index for g in store.games(first, bot="b", limit=2)] == [1, 3]
        assert [(g.run_id, g.index) for g in store.games(limit=2)] == [(first, 0), (first, 1)]
        assert store.games(second, faulted=True) == []
        assert store.games(bot="nobody") == []
        assert store.seated_bots(first) == ["a", "b", "c"]


def test_run_records_say_when_a_run_finished(tmp_path: Path) -> None:
    with Store(tmp_path / "a.sqlite") as store:
        first, second = store_games(store)
        store.finish_run(first)
        one, two = store.run_records()
        assert one.info == store.run(first) and one.info.done_games == 6
        assert one.finished is not None and one.finished >= one.created
        assert two.info == store.run(second) and two.finished is None


def test_results_read_what_the_seats_and_faults_say(tmp_path: Path) -> None:
    """The result kept whole in each game's row (what standings read) agrees with its seats
    and faults, a disqualification's later voiding included."""
    with Store(tmp_path / "a.sqlite") as store:
        first, second = store_games(store)
        out = Outcome([2, 1], "b is out", disqualified={0})
        store.save_game(first, GameRecord(ScheduledGame(6, 7, ("c", "b")), out))
        for run in (first, second):
            results = store.results(run)
            assert [r.game_id for r in results] == [g.game_id for g in store.games(run)]
            for result, game in zip(results, store.games(run), strict=True):
                firsts: list[str | None] = [None] * len(game.seating)
                for fault in game.faults:
                    if fault.seat is not None and firsts[fault.seat] is None:
                        firsts[fault.seat] = str(fault.kind)
                assert (result.seating, result.ranks, result.scores) == (
                    game.seating,
                    game.ranks,
                    game.scores,
                )
                assert (result.void, result.disqualified, result.reason, result.sandbox) == (
                    game.void,
                    game.disqualified,
                    game.reason,
                    game.sandbox,
                )
                assert result.first_faults == tuple(firsts)
        # c was disqualified in game 6: its earlier games are void now, b's others are not.
        assert [r.index for r in store.results(first) if r.void] == [0, 2, 4, 6]
        assert store.results(second)[0].scores == (1.5, 2.0)
