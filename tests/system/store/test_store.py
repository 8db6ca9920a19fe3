"""The SQLite results store: round trips, resuming, refusing foreign files, crash safety."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from damage import zero_the_tables

from arena_kernel.errors import ArenaError, SetupError
from arena_kernel.games.base import Outcome
from arena_kernel.model import Event, Fault, FaultKind, GameRecord, ScheduledGame
from arena_kernel.store import SCHEMA_VERSION, GameDetail, Store, StoredGame, sandbox_counts
from arena_kernel.store.lock import exclusive_run, lock_path


def record(index: int, outcome: Outcome | None = None, events: int = 0) -> GameRecord:
    return GameRecord(
        game=ScheduledGame(index=index, seed=1000 + index, seating=("alice", "bob")),
        outcome=outcome or Outcome.win(index % 2, 2, "checkmate"),
        events=[Event(0.001 * n, "send", n % 2, f"move {n}") for n in range(events)],
    )


@pytest.fixture
def store(tmp_path: Path):
    with Store(tmp_path / "arena.sqlite") as store:
        yield store


def test_game_round_trip(store: Store) -> None:
    run = store.open_run("k1", "league", "nim", {"seats": 2, "bots": ["alice"]}, 4)
    events = [
        Event(0.0, "note", None, "game starts"),
        Event(0.1, "send", 0, "your move"),
        Event(0.35, "recv", 0, "take 3", elapsed=0.25),
        Event(2.5, "fault", 1, "timeout: no reply in 1 s"),
    ]
    faults = [
        Fault(FaultKind.TIMEOUT, "no reply in 1 s", seat=1, at=2.5),
        Fault(FaultKind.ILLEGAL, "took 4 stones", seat=None, at=3.0),
    ]
    rec = GameRecord(
        game=ScheduledGame(index=2, seed=77, seating=("carol", "dave"), session=5),
        outcome=Outcome.by_scores(
            [3.0, 1.5], "by points", details={"moves": [1, 2]}, disqualified=frozenset({1})
        ),
        faults=faults,
        events=events,
        started_at=1700000000.5,
        duration=2.75,
        stderr_logs={0: "logs/carol.stderr"},
        extra={"note": "x"},
        sandbox="bwrap",
    )
    game_id = store.save_game(run.run_id, rec)
    assert isinstance(game_id, int)

    assert store.game(game_id) == GameDetail(
        game_id=game_id,
        index=2,
        seating=("carol", "dave"),
        ranks=(1, 2),
        scores=(3.0, 1.5),
        void=True,  # a disqualified bot's games, this one included, stop counting
        disqualified=frozenset({1}),
        reason="by points",
        run_id=run.run_id,
        seed=77,
        session=5,
        started_at=1700000000.5,
        duration=2.75,
        details={"moves": [1, 2]},
        extra={"note": "x"},
        faults=tuple(faults),
        stderr_logs={0: "logs/carol.stderr"},
        first_faults=(None, "timeout"),
        sandbox="bwrap",
    )
    assert store.events(game_id) == events
    assert store.spec(run.run_id) == {"seats": 2, "bots": ["alice"]}


def test_results_in_schedule_order_without_scores_and_with_void(store: Store) -> None:
    run = store.open_run("k", "n", "nim", {}, 3)
    store.save_game(run.run_id, record(2, Outcome.draw(2, "agreed", void=True)))
    store.save_game(run.run_id, record(0))
    results = store.results(run.run_id)
    assert [(g.index, g.ranks, g.void, g.reason) for g in results] == [
        (0, (1, 2), False, "checkmate"),
        (2, (1, 1), True, "agreed"),
    ]
    assert all(isinstance(g, StoredGame) and g.scores is None for g in results)
    assert results[0].seating == ("alice", "bob")
    assert results[0].disqualified == frozenset()


def test_each_games_sandbox_is_counted_in_the_order_the_modes_first_appear(
    store: Store,
) -> None:
    run = store.open_run("k", "n", "nim", {}, 5)
    for index, sandbox in [(3, "bwrap"), (0, "none"), (1, None), (2, "bwrap"), (4, "none")]:
        game = record(index)
        game.sandbox = sandbox
        store.save_game(run.run_id, game)
    results = store.results(run.run_id)
    assert [g.sandbox for g in results] == ["none", None, "bwrap", "bwrap", "none"]
    assert sandbox_counts(results) == {"none": 2, "unknown": 1, "bwrap": 2}
    assert list(sandbox_counts(results)) == ["none", "unknown", "bwrap"]
    assert store.game(results[1].game_id).sandbox is None


def test_duplicate_game_index_is_stored_once(store: Store) -> None:
    run = store.open_run("k", "n", "nim", {}, 2)
    first = store.save_game(run.run_id, record(0, Outcome.win(0, 2, "first"), events=3))
    again = store.save_game(run.run_id, record(0, Outcome.win(1, 2, "second"), events=5))
    assert again is None
    assert [g.reason for g in store.results(run.run_id)] == ["first"]
    assert first is not None and len(store.events(first)) == 3
    assert store.run(run.run_id).done_games == 1


def test_resume_sees_finished_games(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "arena.sqlite"
    with Store(path) as store:
        run = store.open_run("key-a", "league", "nim", {}, 5)
        assert run.done_games == 0 and run.total_games == 5 and run.database == str(path)
        for index in (0, 3):
            store.save_game(run.run_id, record(index))
    with Store(path) as store:
        again = store.open_run("key-a", "renamed", "nim", {}, 5)
        assert again.run_id == run.run_id
        assert again.done_games == 2
        assert store.stored_indexes(run.run_id) == [range(0, 1), range(3, 4)]
        other = store.open_run("key-b", "league", "nim", {}, 1)
        assert other.run_id != run.run_id and store.stored_indexes(other.run_id) == []


def test_run_lookup(store: Store) -> None:
    assert store.latest_run() is None and store.runs() == []
    first = store.open_run("aaaa", "one", "nim", {}, 1)
    second = store.open_run("bbbb", "two", "rps", {}, 2)
    assert store.runs() == [first, second]
    assert store.latest_run() == second
    assert store.run(first.run_id) == store.run("aaaa") == store.run(str(first.run_id)) == first
    with pytest.raises(ArenaError, match='no run "cccc"'):
        store.run("cccc")
    with pytest.raises(ArenaError, match="no game 99"):
        store.game(99)
    with pytest.raises(ArenaError, match="no game 99"):
        store.events(99)


def test_finish_run_is_recorded(store: Store, tmp_path: Path) -> None:
    run = store.open_run("k", "n", "nim", {}, 1)
    store.finish_run(run.run_id)
    with sqlite3.connect(tmp_path / "arena.sqlite") as raw:
        (finished,) = raw.execute("SELECT finished FROM runs").fetchone()
    assert finished == pytest.approx(time.time(), abs=60)


def test_outcome_must_match_seating(store: Store) -> None:
    run = store.open_run("k", "n", "nim", {}, 1)
    with pytest.raises(ValueError, match="2 seats"):
        store.save_game(run.run_id, record(0, Outcome([1, 2, 3], "too many")))
    assert store.stored_indexes(run.run_id) == []


def test_saving_from_another_thread(store: Store) -> None:
    run = store.open_run("k", "n", "nim", {}, 1)
    worker = threading.Thread(target=store.save_game, args=(run.run_id, record(0)))
    worker.start()
    worker.join()
    assert store.stored_indexes(run.run_id) == [range(0, 1)]


def test_database_uses_wal_and_is_marked(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert raw.execute("PRAGMA application_id").fetchone()[0] != 0


def test_not_sqlite_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("these are my notes, not a database\n" * 200)
    with pytest.raises(ArenaError, match=r"notes\.sqlite is not an arena database"):
        Store(path)
    assert path.read_text().startswith("these are my notes")


def test_foreign_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE contacts (name TEXT)")
    with pytest.raises(ArenaError, match=r"other\.db is not an arena database"):
        Store(path)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ArenaError, match="upgrade arena"):
        Store(path)


def test_directory_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="cannot open database"):
        Store(tmp_path)


KILLED_WRITER = textwrap.dedent(
    """
    import os, sys
    from arena_kernel.games.base import Outcome
    from arena_kernel.model import Event, GameRecord, ScheduledGame
    from arena_kernel.store import Store

    class DiesHalfWay(list):
        # The store reads the events in the open transaction: die in the middle of it.
        def __iter__(self):
            for n, event in enumerate(super().__iter__()):
                if n == 500:
                    os.kill(os.getpid(), 9)
                yield event

    store = Store(sys.argv[1])
    run = store.open_run("key", "crash", "nim", {}, 5)
    for index in range(5):
        events = [Event(float(n), "note", None, f"{index}/{n}") for n in range(1000)]
        if index == 3:
            events = DiesHalfWay(events)
        record = GameRecord(ScheduledGame(index, index, ("a", "b")), Outcome.win(0, 2, "r"))
        record.events = events
        store.save_game(run.run_id, record)
    """
)


def test_killed_writer_leaves_only_whole_games(tmp_path: Path) -> None:
    path = tmp_path / "arena.sqlite"
    proc = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], timeout=60)
    assert proc.returncode == -9

    with Store(path) as store:
        run = store.open_run("key", "crash", "nim", {}, 5)
        assert store.stored_indexes(run.run_id) == [range(0, 3)]
        for game in store.results(run.run_id):
            assert len(store.events(game.game_id)) == 1000
        with sqlite3.connect(path) as raw:
            assert raw.execute("SELECT count(*) FROM seats").fetchone()[0] == 6
            assert raw.execute("SELECT count(*) FROM event_logs").fetchone()[0] == 3
        for index in (3, 4):
            assert store.save_game(run.run_id, record(index, events=10)) is not None
        assert store.run("key").done_games == 5


def test_ten_thousand_events_come_back_whole_and_in_order(store: Store) -> None:
    """How fast they are stored is measured by benchmarks/store_speed.py."""
    run = store.open_run("k", "n", "nim", {}, 3)
    for index in range(3):
        rec = record(index, events=10_000)
        game_id = store.save_game(run.run_id, rec)
        assert game_id is not None and store.events(game_id) == rec.events


def test_disqualification_voids_every_game_of_that_bot_at_once(store: Store) -> None:
    run = store.open_run("dq", "league", "nim", {}, 4)
    store.save_game(run.run_id, record(0))
    other = GameRecord(
        game=ScheduledGame(index=1, seed=5, seating=("carol", "dave")),
        outcome=Outcome.win(0, 2, "fine"),
    )
    store.save_game(run.run_id, other)
    out = record(2, Outcome.win(0, 2, "bob broke the rules", disqualified=frozenset({1})))
    store.save_game(run.run_id, out)
    voided = {g.index: g.void for g in store.results(run.run_id)}
    assert voided == {0: True, 1: False, 2: True}
    assert store.disqualified(run.run_id) == {"bob"}


def test_results_say_each_seats_first_fault(store: Store) -> None:
    run = store.open_run("k", "n", "nim", {}, 2)
    faulted = record(0)
    faulted.faults = [
        Fault(FaultKind.CONNECT, "never connected", seat=1, at=0.1),
        Fault(FaultKind.TIMEOUT, "then timed out too", seat=1, at=0.2),
        Fault(FaultKind.ILLEGAL, "nobody's", seat=None, at=0.3),
    ]
    store.save_game(run.run_id, faulted)
    store.save_game(run.run_id, record(1))
    assert [g.first_faults for g in store.results(run.run_id)] == [
        (None, "connect"),
        (None, None),
    ]


def played(
    index: int, seating: tuple[str, ...], sandbox: str | None, void: bool = False
) -> GameRecord:
    """A game of ``seating`` that ran under ``sandbox``."""
    return GameRecord(
        game=ScheduledGame(index=index, seed=index, seating=seating),
        outcome=Outcome.win(0, len(seating), "won", void=void),
        sandbox=sandbox,
    )


def test_the_games_that_ran_started_bots_under_another_sandbox_are_counted(
    store: Store,
) -> None:
    """``alice`` and ``bob`` are started by the arena, ``inproc`` is not: a game of
    ``inproc`` alone ran under none whatever the run's sandbox; void games and games of
    no recorded sandbox do not count either."""
    run = store.open_run("k", "n", "nim", {}, 6)
    for game in (
        played(0, ("alice", "bob"), "bwrap"),
        played(1, ("alice", "inproc"), "none"),
        played(2, ("inproc", "inproc"), "none"),
        played(3, ("bob", "alice"), "none", void=True),
        played(4, ("bob", "inproc"), None),
        played(5, ("inproc", "bob"), "none"),
    ):
        store.save_game(run.run_id, game)
    started = ["alice", "bob"]
    assert store.sandboxes_besides(run.run_id, "bwrap", started) == {"none": 2}
    assert store.sandboxes_besides(run.run_id, "none", started) == {"bwrap": 1}
    assert store.sandboxes_besides(run.run_id, "none", ["inproc"]) == {}


def test_a_bots_start_up_faults_are_those_of_games_it_answered_nothing_in(
    store: Store,
) -> None:
    run = store.open_run("k", "n", "nim", {}, 4)
    reply = Event(0.1, "recv", 1, "take 1", elapsed=0.1)
    games = [
        # bob crashed at start, then answered in a game and crashed after; alice never
        # came up in two games (a timeout, then an exit; then no connection).
        ([Fault(FaultKind.EXIT, "exited with status 1", 1, 0.1)], [], ("alice", "bob")),
        ([Fault(FaultKind.EXIT, "exited with status 2", 1, 0.5)], [reply], ("alice", "bob")),
        (
            [
                Fault(FaultKind.TIMEOUT, "no reply within 10 s", 0, 10.0),
                Fault(FaultKind.EXIT, "exited with status 3", 0, 10.1),
            ],
            [],
            ("alice", "carol"),
        ),
        ([Fault(FaultKind.CONNECT, "never connected", 0, 0.2)], [reply], ("alice", "carol")),
    ]
    for index, (faults, events, seating) in enumerate(games):
        game = played(index, seating, "none")
        game.faults, game.events = faults, events
        store.save_game(run.run_id, game)
    found = store.startup_faults(run.run_id, ["exit", "connect", "timeout"])
    assert [(f.bot, f.games, f.game_id, str(f.fault)) for f in found] == [
        ("bob", 1, 1, "exit: exited with status 1"),
        ("alice", 2, 3, "timeout: no reply within 10 s"),
    ]
    assert [(f.bot, f.game_id, f.fault.detail) for f in store.startup_faults(1, ["exit"])] == [
        ("bob", 1, "exited with status 1"),
        ("alice", 3, "exited with status 3"),
    ]


def test_a_damaged_file_is_one_clear_error_for_reads_writes_and_the_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "arena.sqlite"
    with Store(path) as store:
        run = store.open_run("k", "n", "nim", {}, 40)
        for index in range(40):
            store.save_game(run.run_id, record(index, events=50))
        store.check_intact()
    zero_the_tables(path)
    with Store(path) as store:
        damaged = r"arena\.sqlite is damaged \(.*\); restore a copy"
        with pytest.raises(ArenaError, match=damaged) as checked:
            store.check_intact()
        assert "\n" not in str(checked.value)
        with pytest.raises(ArenaError, match=damaged):
            store.results(1)
        with pytest.raises(ArenaError, match=damaged):
            store.save_game(1, record(41))


def test_a_second_holder_of_the_run_lock_is_refused_until_the_first_lets_go(
    tmp_path: Path,
) -> None:
    database = tmp_path / "arena.sqlite"
    refused = pytest.raises(SetupError, match=r"in use by another arena run \(pid 1, the first")
    with exclusive_run(database, "pid 1, the first run"), refused, exclusive_run(database, "2"):
        pytest.fail("two holders at once")
    with exclusive_run(database, "pid 3"):
        assert lock_path(database).read_text() == "pid 3"


def test_the_run_lock_dies_with_its_process(tmp_path: Path) -> None:
    database = tmp_path / "arena.sqlite"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, pathlib\n"
            "from arena_kernel.store.lock import exclusive_run\n"
            "with exclusive_run(pathlib.Path(sys.argv[1]), 'the holder'):\n"
            "    print('held', flush=True)\n"
            "    sys.stdin.read()\n",
            str(database),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline() == b"held\n"
        with pytest.raises(SetupError, match="the holder"), exclusive_run(database, "me"):
            pass
    finally:
        holder.kill()
        holder.wait()
        holder.stdin.close()
        holder.stdout.close()
    with exclusive_run(database, "me"):
        pass


def _sqlite_steps(store: Store, action: Callable[[], object]) -> int:
    """How many hundreds of SQLite virtual machine instructions ``action`` ran: work
    counted, not timed, so that it holds on a loaded machine."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    store._db.set_progress_handler(count, 100)
    try:
        action()
    finally:
        store._db.set_progress_handler(None, 0)
    return steps


@pytest.mark.parametrize("others", [10, 1000])
def test_a_disqualification_costs_the_same_beside_any_number_of_games(
    store: Store, others: int
) -> None:
    """The disqualified bot's games and the run's disqualified bots are found by index,
    not by reading every seat of the run."""
    run = store.open_run("dq", "league", "nim", {}, others + 2)
    for index in range(others):
        game = ScheduledGame(index=index, seed=index, seating=("carol", "dave"))
        store.save_game(run.run_id, GameRecord(game, Outcome.win(0, 2, "fine")))
    store.save_game(run.run_id, record(others))
    out = record(others + 1, Outcome.win(0, 2, "bob cheated", disqualified=frozenset({1})))
    # Reading the seats of a thousand games takes a hundred (hundred instructions) each.
    assert _sqlite_steps(store, lambda: store.save_game(run.run_id, out)) < 20
    assert _sqlite_steps(store, lambda: store.disqualified(run.run_id)) < 20
    assert store.disqualified(run.run_id) == {"bob"}
