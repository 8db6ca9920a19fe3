"""The built-in bots: legal moves only, over the protocol's messages (strings for enums
too), the game followed from the echoes, the searcher within its budget, and each bot as a
real program."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena_kernel.plugin import BotClocks, BotLogic
from arena_kernel.testkit import run_match, stored_games
from arena_stones.bot import StonesBot
from arena_stones.bots import greedy, search, search_py
from arena_stones.bots import random as random_bot
from arena_stones.rules import (
    ANY_MOVE,
    ATTACK,
    ATTACK_ONLY,
    BLACK,
    PASS,
    WHITE,
    C,
    Position,
    encode,
    move_to_xy,
)
from arena_stones.simulate import duel
from arena_stones.wire import Encoder, parse_move

PLUGIN_ROOT = Path(__file__).resolve().parents[2]


def request(position: Position, strings: bool = False) -> dict:
    return Encoder(contest=strings).request(position.matrix(), position.allowed())


def middle_game(seed: int = 5, plies: int = 12) -> Position:
    """A busy position: a few turns of random play, stopped at a second request."""
    position = Position.initial()
    rng = random.Random(seed)
    for _ in range(plies):
        position.apply(rng.choice(position.legal_moves()))
    assert position.winner() == 0 and position.allowed() == ANY_MOVE
    return position


FACTORIES = {
    "random": lambda: random_bot.make(1),
    "greedy": lambda: greedy.make(1),
    "search": lambda: search.make(0.05),
    "search-py": lambda: search_py.make(0.03),
}


@pytest.mark.parametrize("name", FACTORIES)
def test_bot_plays_whole_games_against_random_with_legal_moves_only(name):
    # duel() judges every reply like the referee and raises on an illegal one.
    for seed, setup in ((1, "fixed"), (2, "random")):
        bot, opponent = FACTORIES[name](), random_bot.make(seed)
        start = Position.initial(setup, random.Random(seed))
        white, black = (bot, opponent) if seed % 2 else (opponent, bot)
        end = duel(white, black, start)
        assert end.winner() in (WHITE, BLACK) and end.reason()


@pytest.mark.parametrize("name", FACTORIES)
def test_bots_are_bot_logic(name):
    bot = FACTORIES[name]()
    assert isinstance(bot, BotLogic) and bot.start() == []


def test_greedy_and_search_beat_random():
    wins = 0
    for seed in range(4):
        bot = greedy.make(seed)
        white, black = (bot, random_bot.make(seed)) if seed % 2 else (random_bot.make(seed), bot)
        wins += duel(white, black).winner() == (WHITE if seed % 2 else BLACK)
    assert wins >= 3
    end = duel(search.make(0.05), random_bot.make(9))
    assert end.winner() == WHITE


def test_enums_as_strings_are_understood_and_integers_sent():
    bot = greedy.make(0)
    position = Position.initial()
    assert bot.on_message({"Color": "1"}) == []
    (reply,) = bot.on_message(request(position, strings=True))
    assert isinstance(reply["Type"], int) and reply["Type"] == ATTACK
    assert position.judge(*parse_move(reply)) is None
    echo = {"Player": "1", "Move": reply, "Winner": "0"}
    assert bot.on_message(echo) == []
    assert bot.on_message("garbage") == [] and bot.on_message({"Other": 1}) == []


def test_colour_is_inferred_from_the_echoes_without_a_color_message():
    # Black's second request: the last echo was black's own attack.
    position = Position.initial()
    position.play(ATTACK, (3, 3), (4, 3))
    position.play(ATTACK, (4, 2), (4, 3))
    bot = random_bot.make(0)
    bot.on_message({"Player": BLACK, "Move": {}, "Winner": 0})
    (reply,) = bot.on_message(request(position))
    assert position.judge(*parse_move(reply)) is None
    # White's next first request: the last echo was black's.
    position.play(PASS, None, None)
    bot = random_bot.make(0)
    bot.on_message({"Player": BLACK, "Move": {}, "Winner": 0})
    (reply,) = bot.on_message(request(position))
    assert position.judge(*parse_move(reply)) is None


def same(position: Position, other: Position) -> bool:
    """Whether two positions are one state of a game, down to the search's hash."""

    def state(p: Position) -> tuple:
        return (p.cells, p.player, p.phase, p.single, p.counts, p.hash, p.decided, p.reason())

    return state(position) == state(other)


class Checked:
    """A bot whose followed position is checked at every request: it must be exactly the
    request's board, and the bot must answer from it (not read the board again), unless it
    had none. ``reads`` counts the requests it had to answer from the board."""

    def __init__(self, bot: StonesBot) -> None:
        self.bot = bot
        self.reads = 0

    def start(self) -> list:
        return []

    def on_message(self, message: dict) -> list:
        followed = self.bot.position
        if "Board" in message:
            if followed is None:
                self.reads += 1
            else:
                allowed = [int(t) for t in message["AllowedMoves"]]
                board = Position.from_matrix(message["Board"]["state"], self.bot.color, allowed)
                assert same(followed, board)
        replies = self.bot.on_message(message)
        if "Board" in message and followed is not None:
            assert self.bot.position is followed
        return replies


@pytest.mark.parametrize("contest", [False, True], ids=["integers", "strings"])
@pytest.mark.parametrize("setup", ["fixed", "random"])
@pytest.mark.parametrize("name", FACTORIES)
def test_bots_follow_the_game_from_the_echoes_and_read_the_board_once(name, setup, contest):
    for seed in (1, 2):
        bot, opponent = Checked(FACTORIES[name]()), Checked(random_bot.make(seed))
        white, black = (bot, opponent) if seed % 2 else (opponent, bot)
        duel(white, black, Position.initial(setup, random.Random(seed)), contest=contest)
        assert white.reads == black.reads == 1


def followed_to_whites_second_turn(bot: StonesBot, seed: int) -> Position:
    """Play White's opening attack and Black's first request with ``bot`` as White; the
    bot follows both by their echoes."""
    position = Position.initial()
    wire = Encoder()
    rng = random.Random(seed)
    bot.on_message(wire.color(WHITE))
    for _ in range(3):
        mover = position.player
        if mover == WHITE:
            (reply,) = bot.on_message(request(position))
            move = parse_move(reply)
        else:
            move = move_to_xy(rng.choice(position.legal_moves()))
        position.play(*move)
        bot.on_message(wire.processed(mover, *move, position.winner()))
    assert position.player == WHITE and position.allowed() == ATTACK_ONLY
    assert bot.position is not None and same(bot.position, position)
    return position


@pytest.mark.parametrize("name", FACTORIES)
def test_a_request_whose_board_is_not_the_followed_one_is_answered_from_its_board(
    name, endgame, with_stacks
):
    # The end game has its few stacks elsewhere: nearly every capture of the followed game
    # is illegal on it, so a bot answering from the followed position would be caught.
    board = with_stacks(endgame, WHITE, ATTACK_ONLY)
    for seed in range(3):
        bot = FACTORIES[name]()
        followed_to_whites_second_turn(bot, seed)
        (reply,) = bot.on_message(request(board, strings=bool(seed % 2)))
        assert board.judge(*parse_move(reply)) is None
        assert bot.position is not None and same(bot.position, board)


@pytest.mark.parametrize(
    "move",
    [
        {"Type": ATTACK, "From": {"X": 0, "Y": 0}, "To": {"X": 8, "Y": 8}},  # not on one line
        {"Type": 7},  # not a move
        None,
    ],
)
def test_an_echo_it_cannot_follow_makes_the_bot_read_the_next_board(move):
    bot = random_bot.make(0)
    position = followed_to_whites_second_turn(bot, 0)
    (reply,) = bot.on_message(request(position))
    position.play(*parse_move(reply))
    # Not the echo of its reply: a move the rules do not allow there, or none at all.
    bot.on_message({"Player": WHITE, "Move": move, "Winner": 0})
    assert bot.position is None
    (reply,) = bot.on_message(request(position))
    assert position.judge(*parse_move(reply)) is None
    assert bot.position is not None and same(bot.position, position)


@pytest.mark.parametrize("enums", ["integers", "strings"])
@pytest.mark.parametrize("setup", ["fixed", "random"])
def test_in_process_bots_read_the_board_once_a_game_through_the_referee(
    stones_match, monkeypatch, setup, enums
):
    reads = []
    read = Position.from_matrix

    def counted(*args, **kwargs):
        reads.append(args)
        return read(*args, **kwargs)

    monkeypatch.setattr(Position, "from_matrix", staticmethod(counted))
    path = stones_match(
        {"random": "random", "greedy": "greedy"},
        f'rounds = 2\n[game_options]\nsetup = "{setup}"\nenums = "{enums}"',
    )
    path.write_text(path.read_text().replace('builtin = "', 'inproc = true\nbuiltin = "'))
    summary = run_match(path)
    assert summary.played == 4 and not summary.errors
    for game, detail, _events in stored_games(summary):
        assert not detail.faults and " wins: " in game.reason, detail.faults
    assert len(reads) == 2 * 4  # each bot's first request of each game


def test_a_request_that_is_no_board_gets_a_pass(capsys):
    bot = random_bot.make(0)
    bot.on_message({"Color": 1})
    (reply,) = bot.on_message({"Board": {"state": [[1]]}, "AllowedMoves": [1]})
    assert reply == {"Type": PASS, "From": None, "To": None}
    assert "cannot read the request" in capsys.readouterr().err


def test_a_lost_position_gets_a_pass_rather_than_no_answer(endgame, with_stacks):
    # White to attack with nothing in reach: lost, but the bot must still answer.
    stacks = {k: v for k, v in endgame.items() if k not in ((4, 2), (4, 3), (8, 7))}
    stacks[(6, 8)] = encode(BLACK, C, 1)
    position = with_stacks(stacks, WHITE, ATTACK_ONLY)
    assert position.legal_moves() == [] and position.winner() == BLACK
    bot = search.make(0.05)
    bot.on_message({"Color": 1})
    assert bot.on_message(request(position)) == [{"Type": PASS, "From": None, "To": None}]


def test_search_answers_well_within_its_reply_limit_on_a_busy_position():
    position = middle_game()
    assert len(position.legal_moves()) > 100
    bot = search.make(0.5)
    bot.on_message({"Color": position.player})
    started = time.perf_counter()
    (reply,) = bot.on_message(request(position))
    elapsed = time.perf_counter() - started
    assert elapsed < 0.5  # its thinking time, and then some margin of the margin
    assert position.judge(*parse_move(reply)) is None


def test_search_looks_a_whole_turn_ahead_on_a_busy_position_in_its_cpu_time():
    # By CPU time, so that how deep it gets does not depend on the machine's load (on the
    # wall clock a starved search stops early).
    position = middle_game()
    bot = search.make()
    bot.player.clocks(BotClocks(reply=0.5, first_reply=0.5, mode="cpu"))
    bot.on_message({"Color": position.player})
    (reply,) = bot.on_message(request(position))
    assert position.judge(*parse_move(reply)) is None
    assert bot.player.depth >= 3


def test_the_python_search_keeps_to_its_budget_on_a_busy_position():
    position = middle_game()
    bot = search_py.make(0.5)
    bot.on_message({"Color": position.player})
    started = time.perf_counter()
    (reply,) = bot.on_message(request(position))
    assert time.perf_counter() - started < 0.5 + 0.1
    assert position.judge(*parse_move(reply)) is None
    assert bot.player.searcher.depth >= 2


def run_bot(module: str, args: list[str], messages: list[dict]) -> str:
    """What a built-in bot program writes to stdout for ``messages`` on its stdin."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PLUGIN_ROOT), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-m", f"arena_stones.bots.{module}", *args],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=True,
    )
    return proc.stdout


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("random", ["--seed", "3"]),
        ("greedy", ["--seed", "3"]),
        ("search", ["--time", "0.2"]),
        ("search_py", ["--time", "0.2"]),
    ],
)
def test_bot_program_answers_requests_over_stdin_and_stdout(module, args):
    position = Position.initial()
    out = run_bot(module, args, [{"Color": "1"}, request(position, strings=True)])
    (line,) = out.splitlines()
    assert position.judge(*parse_move(json.loads(line))) is None


def test_seed_option_repeats_a_bot_process_exactly():
    messages = [{"Color": 1}, request(Position.initial())]

    def reply(seed: int) -> str:
        return run_bot("random", ["--seed", str(seed)], messages)

    first, again = reply(4), reply(4)
    assert first and first == again
    assert {reply(s) for s in range(5, 10)} - {first}, "another seed plays another move"


def search_pair(stones_match, clock: str, extra: str = "", inproc: bool = False) -> Path:
    """Two ``search`` bots given no arguments, on ``clock`` (a ``[clock]`` table's keys)."""
    path = stones_match(
        {"search-a": "search", "search-b": "search"},
        f'{extra}\n[clock]\n{clock}\n[game_options]\nsetup = "random"',
    )
    if inproc:
        path.write_text(path.read_text().replace('builtin = "', 'inproc = true\nbuiltin = "'))
    return path


def replies(summary) -> list:
    """Every reply to a request of every stored game, after checking none was faulted."""
    found = []
    for game, detail, events in stored_games(summary):
        assert not detail.faults and " wins: " in game.reason, detail.faults
        found += [e for e in events if e.kind == "recv" and e.elapsed is not None]
    assert found
    return found


def test_search_as_a_program_answers_within_the_matchs_reply_limit_told_by_the_arena(
    stones_match,
):
    # On the CPU-time clock, which the bot is told too: it thinks by its CPU time, which
    # the machine's load does not stretch, some 0.03 s of its 0.1 s. At its default 1 s
    # it would take up to 0.57 s, and time out.
    path = search_pair(stones_match, 'reply = 0.1\nmode = "cpu"', "games = 2")
    summary = run_match(path)
    assert summary.played == 2 and not summary.errors
    assert max(e.cpu for e in replies(summary)) < 0.1


def test_in_process_searches_of_several_games_at_once_keep_to_their_clocks(stones_match):
    # Four games at once on the event loop: each bot thinks 0.27 s of its 0.5 s, so bots that
    # took turns on the loop (as they did before they thought in threads) would time out.
    path = search_pair(stones_match, "reply = 0.5", "games = 4\nconcurrency = 4", inproc=True)
    summary = run_match(path)
    assert summary.played == 4 and not summary.errors
    assert max(e.elapsed for e in replies(summary)) < 0.5 + 0.1
