"""The referee against real processes over real TCP: whole games with the built-in bots
as programs (and in process), what every seat is told, and when, checked message by
message; a Node.js bot written from the spec alone and a Python bot that breaks the game's
rules. Every misbehaviour meets the match file's violation policy, and the run always
completes."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena_kernel.testkit import Store, game_seed, run_match, stored_games
from arena_speedclue.rules import State, hand_size


def transcript_checks(result, detail, events) -> None:
    """Every rule about who is told what, checked against one stored game's transcript."""
    n = len(result.seating)
    details = detail.details
    hands = details["hands"]
    sent = [e for e in events if e.kind == "send"]
    resets = [e for e in sent if e.text.startswith("reset ")]
    assert sorted(e.seat for e in resets) == list(range(n))
    for event in resets:
        words = event.text.split()
        assert words[:3] == ["reset", str(n), str(event.seat)]
        assert words[3:] == hands[event.seat]
        assert len(words[3:]) == hand_size(event.seat, n)
    broadcasts = [e for e in sent if e.text.startswith("suggestion ")]
    assert broadcasts and len(broadcasts) % n == 0
    for start in range(0, len(broadcasts), n):
        group = broadcasts[start : start + n]
        assert [e.seat for e in group] == list(range(n)), "to every seat, in seat order"
        words = [e.text.split() for e in group]
        assert len({tuple(w[:6]) for w in words}) == 1, "everyone sees the same suggestion"
        active, disprover = int(words[0][1]), words[0][5]
        for event, w in zip(group, words, strict=True):
            told = disprover != "-" and event.seat in (active, int(disprover))
            assert len(w) == (7 if told else 6), event.text
            if told:
                assert w[6] in w[2:5] and w[6] in hands[int(disprover)]
    winners = [seat for seat, rank in enumerate(result.ranks) if rank == 1]
    assert len(winners) == 1 and details["winner"] == winners[0]
    accusations = [e for e in sent if e.text.startswith("accusation ")]
    if "accused" in result.reason:
        assert accusations[-n].text.split()[1:] == [str(winners[0]), *details["solution"], "+"]


@pytest.mark.parametrize("players", [3, 6])
def test_built_in_programs_play_whole_sessions_over_tcp(clue_match, players):
    bots = {f"bot{i}": ("deducer" if i % 2 == 0 else "random") for i in range(players)}
    path = clue_match(bots, f"seats = {players}\ngames = {2 * players}\nconcurrency = 1")
    summary = run_match(path)
    assert summary.played == 2 * players and not summary.errors
    games = stored_games(summary)
    for result, detail, events in games:
        assert not detail.faults and not result.void
        transcript_checks(result, detail, events)
    log = path.parent / "logs" / f"run-{summary.run.run_id}" / "session-0" / "session.log"
    lines = log.read_text().splitlines()
    # One process per bot for the whole session: one greeting, one farewell each.
    assert sum(line.endswith(" alive") for line in lines) == players
    assert sum(line.endswith(": done") for line in lines) == players
    assert sum(line.endswith(": dead") for line in lines) == players


def test_in_process_bots_are_told_their_identifier_and_play_clean_games(clue_match):
    path = clue_match({"a": "deducer", "b": "random", "c": "random"}, "games = 6")
    path.write_text(path.read_text().replace('builtin = "', 'inproc = true\nbuiltin = "'))
    summary = run_match(path)
    assert summary.played == 6 and not summary.errors
    for result, detail, events in stored_games(summary):
        assert not detail.faults and not result.void
        transcript_checks(result, detail, events)


def test_the_contest_format_plays_every_group_size_in_every_seat_order(clue_match):
    bots = {"deducer": "deducer", "r1": "random", "r2": "random", "r3": "random"}
    text = 'seats = [3, 4]\nseatings = "permutations"\nconcurrency = 1\nscorers = ["wins"]'
    summary = run_match(clue_match(bots, text))
    # C(4,3) groups * 3! orders + 1 group * 4! orders
    assert summary.played == 4 * 6 + 24 and not summary.errors
    games = stored_games(summary)
    seatings = [r.seating for r, _d, _e in games]
    assert len(set(seatings)) == 48
    assert sorted({len(s) for s in seatings}) == [3, 4]
    for result, detail, events in games:
        assert not detail.faults
        transcript_checks(result, detail, events)
    # The contest's score is wins / games: the wins table's "win %".
    (wins,) = summary.standings
    rows = {row[0]: dict(zip(wins.columns, row, strict=True)) for row in wins.rows}
    assert sum(row["wins"] for row in rows.values()) == 48
    assert rows["deducer"]["games"] == 3 * 6 + 24


FAST = "[clock]\nreply = 2.0\nstartup = 5.0\n"


TERMINATORS = {"lf": "\n", "nul": "\0", "crlf": "\r\n", "none": ""}


@pytest.mark.parametrize("terminator", sorted(TERMINATORS))
def test_replies_with_a_terminator_still_work(clue_match, node_bot, terminator):
    bots = {
        "node": node_bot("--terminator", terminator, "--seed", "5"),
        "deducer": "deducer",
        "random": "random",
    }
    summary = run_match(clue_match(bots, "games = 6\nconcurrency = 1"))
    assert summary.played == 6 and not summary.errors
    for result, detail, events in stored_games(summary):
        assert not detail.faults and not result.void, detail.faults
        node = result.seating.index("node")
        replies = [e.text for e in events if e.kind == "recv" and e.seat == node]
        # The referee read "ok" whatever the ending (the transcript keeps a NUL as sent).
        assert replies[0].rstrip("\r\n\0") == "ok"
        assert replies[0].endswith("\0") == (terminator == "nul")


def replay(database: str, game_id: int) -> str:
    """``arena replay DATABASE GAME_ID`` as a user runs it."""
    command = [sys.executable, "-m", "arena_kernel", "replay", database, str(game_id)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


@pytest.mark.parametrize("case", ["upper", "lower"])
def test_the_alive_handshake_is_read_in_any_case_and_every_replay_shows_it(
    clue_match, node_bot, case
):
    bots = {"Node": node_bot("--alive-case", case), "deducer": "deducer", "random": "random"}
    summary = run_match(clue_match(bots, "games = 3\nconcurrency = 1"))
    assert summary.played == 3 and not summary.errors
    games = stored_games(summary)
    for result, detail, events in games:
        assert not detail.faults and not result.void, detail.faults
        notes = [e.text for e in events if e.kind == "note"]
        said = {}
        for note in notes:
            if match := re.fullmatch(r"handshake: (\S+) \(identifier (\S+)\) said '(.*)'", note):
                name, identifier, line = match.groups()
                said[name] = (identifier, line)
        assert sorted(said) == sorted(result.seating), notes
        identifier, line = said["Node"]
        assert line == getattr(f"{identifier} alive", case)() != f"{identifier} alive"
        for name in ("deducer", "random"):
            assert said[name][1] == f"{said[name][0]} alive"
    transcript = replay(summary.run.database, games[-1][0].game_id)
    assert f"-- referee: handshake: Node (identifier {identifier}) said '{line}'" in transcript


def run_with_bad_bot(clue_match, bad_argv, policy, extra="", rounds=1):
    """Four bots, three seats: games without the bad bot exist, so a disqualification must
    void exactly the bad bot's games."""
    bots = {"bad": bad_argv, "deducer": "deducer", "random-1": "random", "random-2": "random"}
    options = f'[game_options]\nviolations = "{policy}"\n{extra}'
    text = f'concurrency = 1\nrounds = {rounds}\nstartup_failures = "forfeit"\n{FAST}{options}'
    summary = run_match(clue_match(bots, text))
    assert summary.played == 12 * rounds and not summary.errors
    return summary, stored_games(summary)


def check_disqualified(summary, games, kind, words):
    with Store(summary.run.database) as store:
        assert store.disqualified(summary.run.run_id) == {"bad"}
    with_bad = [(r, d) for r, d, _e in games if "bad" in r.seating]
    assert all(r.void for r, _d in with_bad)
    faulted = [d for _r, d in with_bad if d.faults]
    assert len(faulted) == 1, "the first violation ends the bot's run"
    (fault,) = faulted[0].faults
    assert fault.kind == kind and words in fault.detail, fault
    assert all(not r.void for r, _d, _e in games if "bad" not in r.seating)
    wins = summary.standings[0]
    rows = {row[0]: dict(zip(wins.columns, row, strict=True)) for row in wins.rows}
    assert rows["bad"]["games"] == 0 and rows["deducer"]["games"] > 0


MISBEHAVIOUR = {
    # --misbehave KIND: (fault kind, words in the recorded reason)
    "never-connect": ("connect", "did not connect"),
    "wrong-alive": ("illegal", "wrong identifier"),
    "late": ("timeout", "no reply within 2 s"),
    "garbage": ("illegal", "expected 'suggest', got 'banana'"),
    "repeat": ("illegal", "already suggested"),
    "suicidal": ("illegal", "suicidal accusation"),
    "crash": ("exit", "status 3"),
}


HANDSHAKES = {"never-connect": "said nothing", "wrong-alive": "x alive'"}
"""What the replay of the game that disqualified the bot says it said at its handshake."""


@pytest.mark.parametrize("kind", sorted(MISBEHAVIOUR))
def test_a_misbehaving_node_bot_is_disqualified_from_the_run(clue_match, node_bot, kind):
    summary, games = run_with_bad_bot(clue_match, node_bot("--misbehave", kind), "disqualify")
    check_disqualified(summary, games, *MISBEHAVIOUR[kind])
    if kind in HANDSHAKES:
        (events,) = [e for _r, d, e in games if d.faults]
        notes = [e.text for e in events if e.kind == "note" and e.text.startswith("handshake: bad")]
        assert len(notes) == 1 and notes[0].endswith(HANDSHAKES[kind]), notes


FORFEITS = {
    # --misbehave KIND: how many of the bad bot's 9 games it forfeits
    "garbage": 1,  # only its first suggestion is garbage: it plays on in step
    "late": 9,  # a timed-out bot is out of step, so out of its session
    "crash": 9,
    "never-connect": 9,
}


@pytest.mark.parametrize("kind", sorted(FORFEITS))
def test_a_misbehaving_node_bot_forfeits_its_game(clue_match, node_bot, kind):
    fault_kind, words = MISBEHAVIOUR[kind]
    summary, games = run_with_bad_bot(clue_match, node_bot("--misbehave", kind), "forfeit")
    with Store(summary.run.database) as store:
        assert not store.disqualified(summary.run.run_id)
    forfeits = []
    for result, detail, events in games:
        assert not result.void and result.ranks.count(1) == 1
        if "bad" not in result.seating:
            continue
        bad = result.seating.index("bad")
        if not detail.faults:
            assert result.ranks[bad] in (1, 2)
            continue
        forfeits.append(result.index)
        (fault,) = detail.faults
        assert fault.kind == fault_kind and words in fault.detail
        assert result.ranks[bad] == 3 and sorted(result.ranks)[:2] == [1, 2]
        after = [e for e in events if e.seat == bad and e.kind == "send" and e.t > fault.at]
        assert not after, "a passive seat gets no more messages in that game"
    assert len(forfeits) == FORFEITS[kind]
    if FORFEITS[kind] == 9:
        later = [d.faults[0].detail for r, d, _e in games if "bad" in r.seating][1:]
        why = "no alive handshake" if kind == "never-connect" else "out of the session since"
        assert all(why in detail for detail in later)


def test_a_late_reply_is_never_taken_for_the_next_answer(clue_match, node_bot):
    # 120 games last well over the 3 s the bot takes, so its late reply does arrive.
    late_bot = node_bot("--misbehave", "late", "--delay", "3000")
    summary, games = run_with_bad_bot(clue_match, late_bot, "forfeit", rounds=10)
    events = [(r, e) for r, _d, events in games for e in events if "bad" in r.seating]
    late = [e.text for _r, e in events if e.kind == "late"]
    # The late reply lands in whatever game runs when it comes, or between games.
    session = Path(summary.run.database).parent / "logs" / f"run-{summary.run.run_id}" / "session-0"
    late += [
        line.split(": ", 1)[1]
        for line in (session / "session.log").read_text().splitlines()
        if " late " in line
    ]
    assert len(late) == 1 and late[0].startswith("suggest ")
    answers = [e for r, e in events if e.kind == "recv" and e.seat == r.seating.index("bad")]
    assert [e.text for e in answers] == ["ok"], "only the first reset was answered in time"


def test_a_rule_breaking_bot_forfeits_each_game_it_breaks_the_rule_in(clue_match, node_bot):
    _summary, games = run_with_bad_bot(clue_match, node_bot("--misbehave", "repeat"), "forfeit")
    broke = [d.faults for r, d, _e in games if d.faults]
    assert broke and all(f.kind == "illegal" and "already suggested" in f.detail for (f,) in broke)
    played_on = [r for r, d, _e in games if "bad" in r.seating and not d.faults]
    assert len(broke) + len(played_on) == 9


def test_suicidal_accusations_are_just_wrong_when_the_rule_is_off(clue_match, node_bot):
    summary, games = run_with_bad_bot(
        clue_match,
        node_bot("--misbehave", "suicidal"),
        "disqualify",
        "suicidal_accusation = false\n",
    )
    with Store(summary.run.database) as store:
        assert not store.disqualified(summary.run.run_id)
    accused = [
        e.text
        for r, _d, events in games
        for e in events
        if e.kind == "send"
        and e.text.startswith("accusation ")
        and "bad" in r.seating
        and e.text.split()[1] == str(r.seating.index("bad"))
    ]
    assert accused and accused[0].endswith(" -")
    assert all(not d.faults for _r, d, _e in games)


def solution_of(game_index: int, seed: int = 0, players: int = 3) -> str:
    state = State.new(players, random.Random(game_seed(seed, game_index)))
    return " ".join(state.solution)


def test_missed_accusation_is_a_violation_unless_switched_off(clue_match, rule_breaker):
    bots = {"bad": rule_breaker("--solution", solution_of(0)), "d": "deducer", "r": "random"}
    on = run_match(clue_match(bots, "games = 1\n[game_options]\nviolations = 'forfeit'"))
    ((result, detail, _events),) = stored_games(on)
    assert result.seating[0] == "bad" and result.ranks[0] == 3
    assert "missed accusation" in detail.faults[0].detail
    off = clue_match(bots, "games = 1\nname = 'off'\n[game_options]\nmissed_accusation = false")
    off.write_text(off.read_text().replace("arena.sqlite", "off.sqlite"))
    summary = run_match(off)
    ((result, detail, events),) = stored_games(summary)
    assert not detail.faults and result.ranks[0] in (1, 2)
    first = next(e for e in events if e.kind == "recv" and e.seat == 0 and "suggest" in e.text)
    assert first.text == f"suggest {solution_of(0)}"


def test_an_invalid_show_is_a_violation(clue_match, rule_breaker):
    bots = {"bad": rule_breaker("--bad-show"), "d": "deducer", "r": "random"}
    summary = run_match(clue_match(bots, "games = 6\nconcurrency = 1"))
    assert summary.played == 6 and not summary.errors
    voided = [(r, d) for r, d, _e in stored_games(summary) if d.faults]
    assert len(voided) == 1
    result, detail = voided[0]
    assert result.void and "is not one of the suggested cards" in detail.faults[0].detail
