"""Per-bot figures of a run: the store's SQL aggregation against the same figures counted
one game at a time in Python, on a real run whose bots time out and answer late, and the
nearest-rank percentile on reply times chosen for it."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest

from arena_kernel.model import Event, Fault, FaultKind, GameRecord, Outcome, ScheduledGame
from arena_kernel.report.stats import BotStats, bot_faults, bot_stats, fault_kinds
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store
from arena_kernel.testkit import write_report


def counted_by_hand(store: Store, run_id: int) -> dict[str, BotStats]:
    """The figures, game by game, from the store's public reads."""
    games: Counter[str] = Counter()
    faults: dict[str, Counter[str]] = {}
    times: dict[str, list[float]] = {}
    late: Counter[str] = Counter()
    for result in store.results(run_id):
        detail = store.game(result.game_id)
        games.update(set(detail.seating))
        for fault in detail.faults:
            if fault.seat is not None:
                faults.setdefault(detail.seating[fault.seat], Counter())[str(fault.kind)] += 1
        for event in store.events(result.game_id):
            if event.seat is None:
                continue
            bot = detail.seating[event.seat]
            if event.kind == "recv" and event.elapsed is not None:
                times.setdefault(bot, []).append(event.elapsed)
            late[bot] += event.kind == "late"
    out = {}
    for bot, count in games.items():
        replies = sorted(times.get(bot, []))
        kinds = faults.get(bot, Counter())
        out[bot] = BotStats(
            bot,
            count,
            dict(sorted(kinds.items(), key=lambda item: (-item[1], item[0]))),
            len(replies),
            math.fsum(replies) / len(replies) if replies else None,
            replies[math.ceil(0.95 * len(replies)) - 1] if replies else None,
            replies[-1] if replies else None,
            late=late[bot],
        )
    return out


def test_a_run_with_a_bot_that_times_out_and_answers_late(
    write_match, scripted_bot, no_leftover_processes
) -> None:
    # Three seats: the latecomer misses its second deadline (1 s) by half a second and is
    # out of the game, which goes on between the two others for seconds (a pile of 48, a
    # quarter of a second per move of "steady"), so its answer arrives, late, meanwhile.
    latecomer = scripted_bot(
        [{"reply": "take 1"}, {"sleep": 1.5, "reply": "take 1"}, {"silent": True}], only="move"
    )
    steady = scripted_bot([{"sleep": 0.25, "reply": "take 1"}], only="move")
    path = write_match(
        f"""
        game = "nim"
        seats = 3
        concurrency = 3
        [clock]
        reply = 1
        grace = 0.05
        startup = 8
        [game_options]
        pile = 48
        [[bots]]
        name = "steady"
        cmd = {json.dumps(steady)}
        [[bots]]
        name = "latecomer"
        cmd = {json.dumps(latecomer)}
        [[bots]]
        name = "good"
        builtin = "optimal"
        inproc = true
        """
    )
    summary = run_match(path)
    no_leftover_processes()
    assert summary.errors == [] and summary.played == 3

    with Store(summary.run.database) as store:
        stats = bot_stats(store, summary.run.run_id)
        expected = counted_by_hand(store, summary.run.run_id)
        faults_only = bot_faults(store, summary.run.run_id)

    # What arena run and arena standings print: the same faults, without the reply times.
    assert faults_only == [(s.bot, s.faults) for s in stats if s.faults]

    assert [s.bot for s in stats] == ["steady", "latecomer", "good"]
    assert {s.bot: s for s in stats} == expected
    by_bot = {s.bot: s for s in stats}
    late = by_bot["latecomer"]
    assert late.games == 3 and late.timeouts == 3 and late.faults == {"timeout": 3}
    assert late.late == 3, "each game's late answer is logged as late"
    assert late.replies == 3, "its first answer of each game, in time"
    for bot in ("steady", "good"):
        assert by_bot[bot].faults == {} and by_bot[bot].late == 0 and by_bot[bot].timeouts == 0
        assert by_bot[bot].replies > 10
    # Every answer of steady takes its quarter of a second, at the least.
    steady_stats = by_bot["steady"]
    assert steady_stats.reply_mean is not None and steady_stats.reply_p95 is not None
    assert 0.25 <= steady_stats.reply_mean <= steady_stats.reply_p95 <= steady_stats.reply_max
    assert fault_kinds(late.faults) == "timeout 3"


def stored_replies(
    store: Store, run_id: int, index: int, seating: tuple[str, ...], times, cpu=False
):
    """A game whose seat 0 answers with each of ``times`` (``cpu``: having run half of
    each) and seat 1 faults once."""
    events = []
    for t in times:
        events.append(Event(0.0, "send", 0, "move"))
        events.append(Event(0.0, "recv", 0, "take 1", elapsed=t, cpu=t / 2 if cpu else None))
    events.append(Event(0.0, "recv", 1, "unasked"))  # no elapsed: not a reply
    events.append(Event(0.0, "late", 1, "take 1", elapsed=9.0))
    events.append(Event(0.0, "note", None, "over"))
    store.save_game(
        run_id,
        GameRecord(
            game=ScheduledGame(index, 1, seating),
            outcome=Outcome.win(0, 2, "took the last stone"),
            faults=[
                Fault(FaultKind.ILLEGAL, "took 4", seat=1),
                Fault(FaultKind.TIMEOUT, "no reply", seat=1),
                Fault(FaultKind.ILLEGAL, "took 5", seat=1),
                Fault(FaultKind.EXIT, "the referee's own", seat=None),
            ],
            events=events,
        ),
    )


@pytest.mark.parametrize(
    ("replies", "p95"),
    [(20, 19), (21, 20), (1, 1), (100, 95), (101, 96)],
    ids=["20", "21", "1", "100", "101"],
)
def test_p95_is_the_nearest_rank(tmp_path: Path, replies: int, p95: int) -> None:
    # 1, 2, ... ms, stored out of order over two games.
    times = [n / 1000 for n in range(replies, 0, -1)]
    with Store(tmp_path / "arena.sqlite") as store:
        run = store.open_run("k", "r", "nim", {"bots": [{"name": "a"}, {"name": "b"}]}, 2)
        half = len(times) // 2
        stored_replies(store, run.run_id, 0, ("a", "b"), times[:half], cpu=True)
        stored_replies(store, run.run_id, 1, ("a", "b"), times[half:], cpu=True)
        stats = {s.bot: s for s in bot_stats(store, run.run_id)}
    a = stats["a"]
    assert a.replies == replies and a.reply_p95 == p95 / 1000
    assert a.reply_max == replies / 1000
    assert a.reply_mean == pytest.approx((replies + 1) / 2 / 1000)
    assert a.cpu_replies == replies and a.cpu_p95 == p95 / 2000
    assert a.cpu_max == replies / 2000 and a.cpu_share == pytest.approx(0.5)
    assert a.cpu_mean == pytest.approx(a.reply_mean / 2) == a.idle_mean
    b = stats["b"]
    assert b.replies == 0 and b.reply_mean is b.reply_p95 is b.reply_max is None
    assert b.late == 2 and b.faults == {"illegal": 4, "timeout": 2} and b.timeouts == 2
    assert b.cpu_replies == 0 and b.cpu_mean is b.cpu_share is b.idle_mean is None


def test_cpu_figures_are_over_the_replies_whose_cpu_time_was_measured(tmp_path: Path) -> None:
    """Known times, stored in a real file: (wall, CPU) of 0.4 s and 0.1 s, 0.2 and 0.2,
    1.0 and 0.5, 0.3 and 0.3; a reply unmeasured, a late one, a bot on a wall clock."""

    def replies(seat: int, *pairs: tuple[float, float | None]) -> list[Event]:
        return [
            event
            for wall, cpu in pairs
            for event in (
                Event(0.0, "send", seat, "move"),
                Event(wall, "recv", seat, "take 1", elapsed=wall, cpu=cpu),
            )
        ]

    games = [
        [*replies(0, (0.4, 0.1), (0.2, 0.2), (0.1, None)), *replies(1, (0.7, None))],
        [*replies(0, (1.0, 0.5), (0.3, 0.3)), Event(2.0, "late", 0, "take 1", 1.9, 1.8)],
    ]
    with Store(tmp_path / "arena.sqlite") as store:
        run = store.open_run("k", "r", "nim", {"bots": [{"name": "a"}, {"name": "b"}]}, 2)
        for index, events in enumerate(games):
            wall_cap = Fault(FaultKind.WALL_CAP, "no reply within 10 s", seat=1)
            record = GameRecord(
                ScheduledGame(index, 1, ("a", "b")),
                Outcome.win(0, 2, "r"),
                faults=[wall_cap] if index else [],
                events=events,
            )
            store.save_game(run.run_id, record)
        a, b = bot_stats(store, run.run_id)
    assert (a.replies, a.late, a.cpu_replies) == (5, 1, 4)
    assert (a.cpu_p95, a.cpu_max) == (0.5, 0.5)
    assert a.cpu_mean == pytest.approx(1.1 / 4)
    assert a.cpu_share == pytest.approx(1.1 / 1.9)
    assert a.idle_mean == pytest.approx((0.3 + 0.0 + 0.5 + 0.0) / 4)
    assert (b.replies, b.cpu_replies, b.cpu_mean, b.cpu_p95, b.cpu_max) == (1, 0, None, None, None)
    assert b.cpu_share is b.idle_mean is None
    assert b.faults == {"wall-cap": 1} and b.timeouts == 0 and fault_kinds(b.faults) == "wall-cap 1"


def test_order_is_the_match_files_then_other_seated_bots(tmp_path: Path) -> None:
    with Store(tmp_path / "arena.sqlite") as store:
        spec = {"bots": [{"name": "idle"}, {"name": "b"}, {"name": "a"}]}
        run = store.open_run("k", "r", "nim", spec, 3)
        other = store.open_run("k2", "r2", "nim", spec, 1)
        stored_replies(store, run.run_id, 0, ("a", "renamed"), [0.1])
        stored_replies(store, run.run_id, 1, ("b", "gone"), [0.2])
        stored_replies(store, other.run_id, 0, ("a", "b"), [5.0])
        stats = bot_stats(store, run.run_id)
    assert [s.bot for s in stats] == ["idle", "b", "a", "renamed", "gone"]
    idle = stats[0]
    assert idle == BotStats("idle", 0, {}, 0, None, None, None, late=0)
    assert stats[2].games == 1 and stats[2].reply_max == 0.1, "the other run's game is not counted"


def test_a_run_on_a_cpu_time_clock_tells_a_busy_bot_from_a_sleeping_one(
    write_match, scripted_bot, tmp_path, no_leftover_processes
) -> None:
    """Played for real: ``burner`` spends 0.1 s of CPU time on each move, ``sleeper``
    sleeps 0.2 s; the store measures both, and the run page shows their CPU figures."""
    burner = scripted_bot([{"burn": 0.1, "reply": "take 1"}], only="move")
    sleeper = scripted_bot([{"sleep": 0.2, "reply": "take 1"}], only="move")
    path = write_match(
        f"""
        game = "nim"
        [clock]
        mode = "cpu"
        reply = 2
        [game_options]
        pile = 8
        [[bots]]
        name = "burner"
        cmd = {json.dumps(burner)}
        [[bots]]
        name = "sleeper"
        cmd = {json.dumps(sleeper)}
        """
    )
    summary = run_match(path)
    no_leftover_processes()
    assert summary.errors == [] and summary.played == 2
    with Store(summary.run.database) as store:
        burner_stats, sleeper_stats = bot_stats(store, summary.run.run_id)
    for stats in (burner_stats, sleeper_stats):
        assert stats.replies > 0 and stats.cpu_replies == stats.replies
    # What a loaded machine (tests run side by side) cannot change: the CPU time burnt,
    # the time slept, and so which of the two ran for more of its reply time.
    burnt, slept = burner_stats, sleeper_stats
    assert burnt.cpu_mean is not None and slept.cpu_mean is not None
    assert burnt.cpu_mean >= 0.09 and slept.cpu_mean < burnt.cpu_mean / 2
    assert slept.idle_mean is not None and slept.idle_mean >= 0.15
    assert burnt.cpu_share is not None and slept.cpu_share is not None
    assert burnt.cpu_share > slept.cpu_share
    page = write_report(summary.run.database, tmp_path / "site").read_text()
    assert "CPU mean ms" in page and "<dd>CPU time: " in page
