"""The report's Speed Clue renderer: the steps, the deduction grid at chosen steps, and the
ending, for a game written move by move through the rules engine (every deduction worked
out by hand), for games played through the referee (clean ones, and games that a bot's
fault cut short or voided), and for logs spoilt every way (never an exception)."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena_kernel.plugin import Event, Replay, Step
from arena_kernel.testkit import Store, check_drawing, checked_steps, load_replay, run_match
from arena_speedclue import wire
from arena_speedclue.cards import CARDS, INDEX, NAMES, Triple
from arena_speedclue.render import SpeedClueRenderer
from arena_speedclue.rules import State

FAST = "[clock]\nreply = 1.0\nstartup = 3.0\n"


def seeded_bot(kind: str, seed: int) -> list[str]:
    """A built-in bot as its own program with a fixed seed: a run of seeded bots and a
    seeded match is the same every time."""
    return [sys.executable, "-m", f"arena_speedclue.bots.{kind}", "--seed", str(seed)]


def replays(summary) -> list[Replay]:
    """Every stored game of the run, as the report reads it."""
    with Store(summary.run.database) as store:
        ids = [game.game_id for game in store.results(summary.run.run_id)]
        return [load_replay(store, game_id) for game_id in ids]


def render(replay: Replay) -> list[Step]:
    """The steps, held to the report's contract (they cover the log in order, JSON pictures)."""
    return checked_steps(SpeedClueRenderer(), replay)


def sent(replay: Replay, start: int = 0, stop: int | None = None) -> list[Event]:
    return [e for e in replay.events[start:stop] if e.kind == "send"]


def accusations_made(replay: Replay) -> int:
    """Answers to ``accuse`` that were accusations (not ``-``), read straight off the log."""
    asked: dict[int | None, str] = {}
    count = 0
    for event in replay.events:
        if event.kind == "send":
            asked[event.seat] = event.text
        elif event.kind == "recv" and asked.get(event.seat) == "accuse":
            count += event.text.split()[0].lower() == "accuse"
            asked[event.seat] = ""
    return count


def mark(step: Step, owner: int, card: str) -> str:
    """The grid's mark for ``owner`` (a seat, or the number of players: the case file)."""
    return step.picture["known"][owner][INDEX[card]]


def check_grid_is_true(replay: Replay, steps: Sequence[Step]) -> None:
    """Every mark the grid shows is true of the deal, and none is ever taken back."""
    hands = replay.details["hands"]
    solution = replay.details["solution"]
    n = len(hands)
    owners = [set(hand) for hand in hands] + [set(solution)]
    previous = None
    for step in steps:
        picture = step.picture
        known = picture["known"]
        assert len(known) == n + 1
        for owner, row in enumerate(known):
            for card, sign in zip(CARDS, row, strict=True):
                if sign == "+":
                    assert card in owners[owner], (step.label, owner, card)
                elif sign == "-":
                    assert card not in owners[owner], (step.label, owner, card)
        if previous is not None:
            for before, now in zip(previous, known, strict=True):
                for was, sign in zip(before, now, strict=True):
                    assert was not in "+-" or sign == was, step.label
        previous = known
        holder = picture["holder"]
        for card in CARDS:
            seat = holder[INDEX[card]]
            assert seat is None if card in solution else card in hands[seat]


# -- a game written move by move ---------------------------------------------------------

SEATING = ("ann", "bob", "cid")
SOLUTION: Triple = ("Gr", "Ca", "Ba")
HANDS = (
    ("Mu", "Pe", "Kn", "Pi", "Bi", "Co"),
    ("Pl", "Sc", "Re", "Ro", "Di", "Ha"),
    ("Wh", "Wr", "Ki", "Li", "Lo", "St"),
)
# In turn order: the suggestion, the card the disprover picks when it holds several, and
# the accusation after it (None: "-"). Each suggestion's disprover holds one of its cards
# (the others are the suggester's own), so every card shown is one nobody had shown yet,
# until bob and cid have shown their whole hands and ann four of hers; ann never shows
# Kn or Bi. cid accuses wrongly in round 4 and is out; bob's last suggestion (his own Pl
# with Ca and Ba) is disproved by nobody, and he accuses right.
TURNS: list[tuple[Triple, str | None, Triple | None]] = [
    (("Pl", "Kn", "Bi"), None, None),  # bob shows Pl
    (("Wh", "Re", "Di"), None, None),  # cid shows Wh
    (("Mu", "Wr", "Ki"), None, None),  # ann shows Mu
    (("Sc", "Kn", "Bi"), None, None),  # Sc
    (("Pl", "Wr", "Di"), None, None),  # Wr
    (("Pe", "Wr", "Ki"), None, None),  # Pe: the fifth suspect placed
    (("Mu", "Re", "Bi"), None, None),  # Re
    (("Pl", "Re", "Ki"), None, None),  # Ki
    (("Wh", "Pi", "Co"), "Pi", None),  # ann holds Pi and Co, and picks Pi
    (("Mu", "Ro", "Bi"), None, None),  # Ro
    (("Pl", "Re", "Li"), None, None),  # Li
    (("Wh", "Wr", "Co"), None, ("Gr", "Kn", "Bi")),  # Co; cid accuses wrongly, is out
    (("Mu", "Kn", "Di"), None, None),  # Di
    (("Pl", "Re", "Lo"), None, None),  # out, cid still shows: Lo
    (("Mu", "Kn", "Ha"), None, None),  # Ha: bob's sixth card
    (("Pl", "Re", "St"), None, None),  # St: cid's sixth card
    (("Pe", "Pi", "Ha"), None, None),  # Ha again
    (("Pl", "Ca", "Ba"), None, SOLUTION),  # nobody can disprove; bob accuses right
]


def scripted_game(options: dict[str, object] | None = None) -> Replay:
    """:data:`TURNS` played through the rules engine, logged message for message as the
    referee logs a game: the handshake notes, ``reset``, and per turn ``suggest``,
    ``disprove`` when the disprover has a choice, the ``suggestion`` broadcast (the card in
    the suggester's and the disprover's copies), ``accuse`` and the ``accusation`` one."""
    state = State(SOLUTION, HANDS)
    n = len(HANDS)
    events: list[Event] = []

    def log(kind: str, seat: int | None, text: str) -> None:
        events.append(
            Event(len(events) / 1000, kind, seat, text, 0.001 if kind == "recv" else None)
        )

    def everyone(text: str | None = None, texts: Sequence[str] = ()) -> None:
        for seat in range(n):
            log("send", seat, texts[seat] if texts else str(text))
        for seat in range(n):
            log("recv", seat, "ok")

    for seat, name in enumerate(SEATING):
        log("note", None, f"handshake: {name} (identifier {seat + 1}-{name}) said ok")
    everyone(texts=[wire.reset(n, seat, HANDS[seat]) for seat in range(n)])
    for triple, choice, accusation in TURNS:
        active = state.active
        log("send", active, "suggest")
        log("recv", active, "suggest " + " ".join(triple))
        disproof = state.suggest(active, *triple)
        card = disproof.card
        if disproof.needs_choice:
            assert disproof.disprover is not None and choice is not None
            log("send", disproof.disprover, wire.disprove(active, triple))
            log("recv", disproof.disprover, f"show {choice}")
            card = state.show(disproof.disprover, choice)
        told = (active, disproof.disprover)
        everyone(
            texts=[
                wire.suggestion(active, triple, disproof.disprover, card if s in told else None)
                for s in range(n)
            ]
        )
        log("send", active, "accuse")
        if accusation is None:
            log("recv", active, "-")
            state.decline(active)
        else:
            log("recv", active, "accuse " + " ".join(accusation))
            everyone(wire.accusation(active, accusation, state.accuse(active, *accusation)))
    assert state.over and state.winner == 1
    return Replay(
        game_id=1,
        game="speedclue",
        options=options or {},
        seating=SEATING,
        ranks=(2, 1, 2),
        scores=None,
        reason="bob accused Gr Ca Ba correctly",
        void=False,
        disqualified=frozenset(),
        details={"solution": list(SOLUTION), "hands": [list(hand) for hand in HANDS]},
        extra={},
        faults=(),
        events=tuple(events),
    )


def test_a_game_written_move_by_move_shows_what_was_shown_and_what_follows_from_it():
    replay = scripted_game()
    steps = render(replay)
    check_grid_is_true(replay, steps)
    case = len(SEATING)  # the case file's row of the grid
    assert [s.label for s in steps[:3]] == ["deal", "1. ann: Pl Kn Bi", "2. bob: Wh Re Di"]
    assert len(steps) == 1 + len(TURNS) + 2, "the deal, each suggestion, two accusations"
    assert steps[0].caption == "3 players; cards dealt: ann 6, bob 6, cid 6."
    assert set("".join(steps[0].picture["known"])) == {"."}, "nothing revealed yet"

    # Who showed what to whom, one suggestion at a time.
    first = steps[1]
    assert first.caption == (
        "ann suggests Plum, Knife, Billiard Room; bob shows Plum to ann; ann does not accuse."
    )
    assert first.picture["shown"] == [["Pl", 1, 0]] and first.picture["passed"] == []
    assert mark(first, 1, "Pl") == "+" and mark(first, 0, "Pl") == "-"
    assert [s.picture["shown"][-1] for s in steps[2:4]] == [["Wh", 2, 1], ["Mu", 0, 2]]
    choice = steps[9]
    assert choice.picture["card"] == "Pi" and "ann shows Lead Pipe to cid" in choice.caption
    shown = {card for card, _by, _to in steps[-1].picture["shown"]}
    assert shown == set(HANDS[1] + HANDS[2]) | {"Mu", "Pe", "Pi", "Co"}

    # Five suspects shown: the sixth is the case file's, though no message names it.
    before, placed = steps[5], steps[6]
    assert mark(before, case, "Gr") == "." and mark(placed, case, "Gr") == "+"
    assert all(mark(placed, seat, "Gr") == "-" for seat in range(3))

    # A wrong accusation the referee let through (the suicidal-accusation rule is on):
    # not the case file, and its accuser holds none of its cards.
    wrong = steps[13]
    assert wrong.label == "12. cid accuses Gr Kn Bi"
    assert wrong.caption == "cid accuses Green, Knife, Billiard Room: wrong, cid is out."
    assert wrong.picture["correct"] is False and wrong.picture["out"] == [[2, "accused wrongly"]]
    assert [mark(steps[12], 2, c) for c in ("Kn", "Bi")] == [".", "."]
    assert [mark(wrong, 2, c) for c in ("Kn", "Bi")] == ["-", "-"]
    lenient = render(scripted_game({"suicidal_accusation": False}))
    assert [mark(lenient[13], 2, c) for c in ("Kn", "Bi")] == [".", "."]
    out_of_turn = steps[15]  # cid is out but still holds its cards, and shows Lo
    assert out_of_turn.picture["disprover"] == 2 and out_of_turn.picture["card"] == "Lo"
    assert out_of_turn.picture["active"] == 1

    # Six cards shown by bob: the rest of his column is known empty, by counting.
    complete = steps[16]
    assert complete.picture["shown"][-1] == ["Ha", 1, 0]
    assert "-" not in {mark(steps[15], 1, c) for c in ("Kn", "Bi", "Ca")}
    assert {c: mark(complete, 1, c) for c in CARDS if c not in HANDS[1]} == dict.fromkeys(
        (c for c in CARDS if c not in HANDS[1]), "-"
    )

    # Nobody can disprove bob's Plum, Candlestick, Ballroom: with bob's and cid's hands
    # known, Ca and Ba go to the case file, so ann's last two cards are Kn and Bi, which
    # she never showed.
    last_suggestion, end = steps[-2], steps[-1]
    assert "nobody can disprove it" in last_suggestion.caption
    assert last_suggestion.picture["disprover"] is None
    assert last_suggestion.picture["passed"] == [2, 0]
    assert [mark(steps[-3], 0, c) for c in ("Kn", "Bi")] == [".", "."]
    assert [mark(last_suggestion, 0, c) for c in ("Kn", "Bi")] == ["+", "+"]
    assert [mark(last_suggestion, case, c) for c in SOLUTION] == ["+", "+", "+"]
    assert all(row.count("+") == 6 for row in last_suggestion.picture["known"][:3])
    assert "solution" not in last_suggestion.picture, "the case file is named at the end"

    assert end.label == "18. bob accuses Gr Ca Ba"
    assert end.caption == (
        "bob accuses Green, Candlestick, Ballroom: right. Game over: bob wins (bob accused "
        "Gr Ca Ba correctly). The case file: Green, Candlestick, Ballroom."
    )
    assert end.picture["winners"] == [1] and end.picture["solution"] == list(SOLUTION)
    assert end.picture["correct"] is True


# -- games played through the referee ----------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_clean_games_have_a_step_per_suggestion_and_accusation(clue_match, players):
    bots = {f"bot{i}": ("deducer" if i % 2 == 0 else "random") for i in range(players)}
    path = clue_match(bots, f"seats = {players}\ngames = {2 * players}")
    path.write_text(path.read_text().replace('builtin = "', 'inproc = true\nbuiltin = "'))
    summary = run_match(path)
    assert summary.played == 2 * players and not summary.errors
    for replay in replays(summary):
        steps = render(replay)
        suggests = [e for e in sent(replay) if e.text == "suggest"]
        assert len(steps) == 1 + len(suggests) + accusations_made(replay)
        assert steps[0].label == "deal" and "cards dealt" in steps[0].caption
        check_grid_is_true(replay, steps)
        for step in steps[1:]:
            picture = step.picture
            active = picture["active"]
            if "suggestion" not in picture:
                continue
            broadcasts = [
                e.text.split()
                for e in sent(replay, *step.events)
                if e.text.startswith("suggestion ")
            ]
            assert len(broadcasts) == players and picture["confirmed"]
            words = broadcasts[0]
            assert picture["suggestion"] == words[2:5] and int(words[1]) == active
            disprover = picture["disprover"]
            assert words[5] == ("-" if disprover is None else str(disprover))
            for seat in picture["passed"]:
                assert all(picture["known"][seat][INDEX[c]] == "-" for c in words[2:5])
            shown = [w[6] for w in broadcasts if len(w) == 7]
            if disprover is not None:
                assert picture["card"] == shown[0]
                assert picture["known"][disprover][INDEX[shown[0]]] == "+"
                assert picture["shown"][-1] == [shown[0], disprover, active]
                assert f"{replay.seating[disprover]} shows" in step.caption
            else:
                assert "nobody can disprove it" in step.caption
            assert "solution" not in picture or step is steps[-1]
        (winner,) = replay.winners()
        last = steps[-1]
        assert f"{winner} wins" in last.caption
        assert last.picture["winners"] == [replay.seating.index(winner)]
        assert last.picture["solution"] == replay.details["solution"]
        if "accused" in replay.reason:
            assert last.picture["correct"] is True
            assert last.picture["accusation"] == replay.details["solution"]
            # The right accusation names three cards; the case file holds one card of
            # each kind, so the grid strikes every other card from it.
            envelope = last.picture["known"][players]
            assert envelope == "".join("+" if c in last.picture["solution"] else "-" for c in CARDS)


def test_a_bad_suggestion_and_a_bad_show_under_forfeit(clue_match, node_bot, rule_breaker):
    bots = {
        "garbage": node_bot("--misbehave", "garbage"),
        "breaker": rule_breaker("--bad-show"),
        "deducer": seeded_bot("deducer", 1),
        "random": seeded_bot("random", 2),
    }
    text = f"games = 8\nconcurrency = 1\nseed = 3\n{FAST}[game_options]\nviolations = 'forfeit'\n"
    summary = run_match(clue_match(bots, text))
    assert summary.played == 8 and not summary.errors
    seen = set()
    for replay in replays(summary):
        steps = render(replay)
        winner = replay.winners()[0]
        assert f"{winner} wins" in steps[-1].caption
        for fault in replay.faults:
            name = replay.seating[fault.seat]
            index = next(
                i for i, e in enumerate(replay.events) if e.kind == "fault" and e.seat == fault.seat
            )
            (step,) = [s for s in steps if s.events[0] <= index < s.events[1]]
            assert [fault.seat, f"illegal: {fault.detail}"] in step.picture["faults"]
            assert f"{name} faulted" in step.caption and "forfeits the game" in step.caption
            later = steps[steps.index(step) :]
            assert all([fault.seat, "forfeited"] in s.picture["out"] for s in later)
            assert not any(s.picture.get("active") == fault.seat for s in later[1:])
            seen.add(name)
            if name == "garbage":
                assert step.label.endswith("garbage: no suggestion")
                assert "suggestion" not in step.picture
            else:
                # The referee shows a card for the breaker, and everyone is told.
                assert step.picture["disprover"] == fault.seat and step.picture["card"]
                assert "the referee shows" in step.caption
    assert seen == {"garbage", "breaker"}


def test_a_disqualified_bot_leaves_a_void_game_ending_on_its_fault(clue_match, rule_breaker):
    """The breaker's fault ends its game at once, void; its games played before are voided
    with it, and those after are stored unplayed: every one says why it does not count."""
    bots = {
        "breaker": rule_breaker("--bad-show"),
        "deducer": seeded_bot("deducer", 1),
        "random": seeded_bot("random", 2),
    }
    extra = f"games = 6\nconcurrency = 1\nseed = 7\n{FAST}"
    summary = run_match(clue_match(bots, extra))
    assert summary.played == 6 and not summary.errors
    kinds = []
    for replay in replays(summary):
        steps = render(replay)
        last = steps[-1]
        assert last.picture["winners"] == [] and "void" in last.caption
        if replay.faults:
            kinds.append("fault")
            (fault,) = replay.faults
            assert replay.seating[fault.seat] == "breaker"
            assert last.events[1] == len(replay.events)
            assert last.picture["faults"] == [[fault.seat, f"illegal: {fault.detail}"]]
            assert "breaker faulted" in last.caption and "is disqualified" in last.caption
            assert "is not one of the suggested cards" in last.caption
            assert last.caption.endswith(
                f"Game over, void: disqualified breaker ({fault.detail}). The case file: "
                + ", ".join(NAMES[card] for card in replay.details["solution"])
                + "."
            )
            assert last.picture["solution"] == replay.details["solution"]
        elif not replay.events:
            kinds.append("unplayed")
            (only,) = steps
            assert only.caption.endswith("Game over, void: not played: breaker disqualified.")
        else:
            kinds.append("voided")
            (first,) = replay.winners()  # by its ranks, which the run keeps
            assert (
                f"Game over: {first} wins ({replay.reason}), but the game is void" in last.caption
            )
            assert "disqualified from the run in another game" in last.caption
    # Every bot is seeded, so the run is the same each time: the breaker's first chance
    # to show a card it lacks comes in its third game.
    assert kinds == ["voided", "voided", "fault", "unplayed", "unplayed", "unplayed"]


def test_a_wrong_accusation_puts_its_player_out(clue_match, node_bot):
    bots = {
        "wrong": node_bot("--misbehave", "suicidal"),
        "deducer": seeded_bot("deducer", 1),
        "random": seeded_bot("random", 2),
    }
    text = (
        f"games = 6\nconcurrency = 1\nseed = 3\n{FAST}[game_options]\nsuicidal_accusation = false\n"
    )
    summary = run_match(clue_match(bots, text))
    assert summary.played == 6 and not summary.errors
    wrong = []
    for replay in replays(summary):
        steps = render(replay)
        # With the rule off, a wrong accusation may name the accuser's own cards: the grid
        # must not take it for a sign that the accuser lacks them.
        check_grid_is_true(replay, steps)
        for number, step in enumerate(steps):
            if step.picture.get("correct") is False:
                seat = step.picture["active"]
                wrong.append(replay.seating[seat])
                assert f"wrong, {replay.seating[seat]} is out" in step.caption
                assert " accuses " in step.label
                assert all([seat, "accused wrongly"] in s.picture["out"] for s in steps[number:])
                assert not any(s.picture.get("active") == seat for s in steps[number + 1 :])
        assert replay.winners()[0] in steps[-1].caption
    assert wrong and set(wrong) == {"wrong"}


# -- any log at all ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> list[Replay]:
    """Two four-player games of the built-in bots, and the game written move by move."""
    folder = tmp_path_factory.mktemp("stored")
    bots = "".join(
        f'[[bots]]\nname = "{name}"\ninproc = true\nbuiltin = "{kind}"\n'
        for name, kind in [("a", "deducer"), ("b", "random"), ("c", "random"), ("d", "deducer")]
    )
    match = folder / "match.toml"
    match.write_text(
        f'game = "speedclue"\ngames = 2\nseats = 4\ndatabase = "{folder}/a.sqlite"\n'
        f'logs = "{folder}/logs"\n{bots}'
    )
    return [*replays(run_match(match)), scripted_game()]


WORDS = [
    *CARDS,
    *(card.upper() for card in CARDS[:4]),
    "reset", "suggest", "suggestion", "disprove", "show", "accuse", "accusation", "ok",
    "-", "+", "0", "1", "2", "3", "5", "-1", "99", "Zz", "", "\x00", "\u00e9",
]  # fmt: skip
texts = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join),
    st.text(max_size=30),
    st.sampled_from(["suggestion 0 Gr Kn Ha 9 Gr", "accusation 1 Gr Kn Ha +", "reset 3 0 Zz"]),
)
spoil = st.one_of(
    st.tuples(st.just("text"), texts),
    st.tuples(st.just("seat"), st.sampled_from([None, -1, 0, 1, 2, 7])),
    st.tuples(st.just("kind"), st.sampled_from(["send", "recv", "late", "fault", "note", "?"])),
    st.tuples(st.just("drop"), st.none()),
    st.tuples(st.just("copy"), st.integers(0, 10**6)),
)
details = st.sampled_from(
    [
        {},
        {"hands": "x", "solution": [1, 2]},
        {"hands": [["Gr"], ["Zz"], None], "solution": ["Gr", "Gr", "Gr"]},
        {"hands": [[], [], [], []], "solution": ["Ha", "Kn", "Gr"]},
        None,
    ]
)
options = st.sampled_from(
    [{}, {"violations": "forfeit"}, {"suicidal_accusation": False}, {"violations": 3}]
)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_spoilt_log_still_renders_and_names_the_ending(stored, data):
    """Logs cut, shuffled, with messages rewritten into other ones or into noise, seats and
    kinds changed, records garbled, seatings of the wrong size: the steps still cover the
    log, their pictures are JSON, and the last one says how the game ended."""
    replay = data.draw(st.sampled_from(stored))
    events = list(replay.events)
    if data.draw(st.booleans()):
        events = events[: data.draw(st.integers(0, len(events)))]
    if data.draw(st.booleans()):
        events = data.draw(st.permutations(events))
    for _ in range(data.draw(st.integers(0, 12))):
        if not events:
            break
        at = data.draw(st.integers(0, len(events) - 1))
        how, value = data.draw(spoil)
        if how == "drop":
            del events[at]
        elif how == "copy":
            events.insert(at, events[value % len(events)])
        else:
            events[at] = dataclasses.replace(events[at], **{how: value})
    players = data.draw(st.integers(1, 8))
    seating = (*replay.seating, "x", "y", "z", "w", "v")[:players]
    recorded = data.draw(details)
    spoilt = dataclasses.replace(
        replay,
        events=tuple(events),
        seating=seating,
        ranks=tuple(data.draw(st.lists(st.integers(1, 3), min_size=players, max_size=players))),
        void=data.draw(st.booleans()),
        details=replay.details if recorded is None else recorded,
        options=data.draw(options),
    )
    steps = render(spoilt)
    last = steps[-1]
    assert "Game over" in last.caption
    assert set(last.picture["winners"]) <= set(range(players))
    assert not spoilt.void or last.picture["winners"] == []
    for step in steps:
        assert len(step.picture["known"]) == players + 1
        assert len(step.picture["holder"]) == len(CARDS)


def test_a_game_with_no_message_is_its_deal_and_its_end(stored):
    (only,) = render(dataclasses.replace(stored[0], events=(), details={}))
    assert only.label == "deal" and "Game over" in only.caption


# -- the drawing ---------------------------------------------------------------------------


def test_the_plugin_registers_the_renderer(arena_register):
    assert arena_register().renderers.cls("speedclue") is SpeedClueRenderer


def test_the_drawing_script_gets_the_card_table_and_loads(arena_node):
    renderer = SpeedClueRenderer()
    script = renderer.script()
    assert "/* cards.py */" not in script
    assert all(f'["{card}", ' in script for card in CARDS)
    check_drawing(renderer, arena_node)
