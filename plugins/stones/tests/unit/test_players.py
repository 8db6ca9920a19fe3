"""The strategies, on positions alone: legal moves, the position left as given, the seed
repeating a game, the greedy and the searching player's judgement, the searcher's budget."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from arena_kernel.plugin import BotClocks
from arena_stones.bot import StonesBot
from arena_stones.players import (
    DEFAULT_LIMIT,
    STARTUP_MARGIN,
    WALL_CAP_SHARE,
    GreedyPlayer,
    Player,
    PythonSearchPlayer,
    RandomPlayer,
    SearchPlayer,
    thinking_time,
)
from arena_stones.rules import (
    ANY_MOVE,
    ATTACK,
    ATTACK_ONLY,
    BLACK,
    STRENGTHEN,
    WHITE,
    C,
    Position,
    encode,
    from_xy,
)
from arena_stones.search import DECIDED, WIN, Searcher
from arena_stones.simulate import duel

FACTORIES = {
    "random": lambda: RandomPlayer(1),
    "greedy": lambda: GreedyPlayer(1),
    "search": lambda: SearchPlayer(0.05),
    "search-py": lambda: PythonSearchPlayer(0.03),
}


def state(position: Position) -> tuple:
    return (position.cells, position.player, position.phase, position.counts, position.hash)


@pytest.mark.parametrize("name", FACTORIES)
def test_a_player_chooses_a_legal_move_and_leaves_the_position_as_given(name):
    player: Player = FACTORIES[name]()
    rng = random.Random(3)
    position = Position.initial("random", rng)
    for _ in range(6):
        before = state(position)
        move = player.choose(position)
        assert state(position) == before
        assert move in position.legal_moves()
        position.apply(move)
        if position.winner():
            break


@pytest.mark.parametrize("kind", [RandomPlayer, GreedyPlayer])
def test_a_seed_repeats_the_choices(kind):
    def game(seed: int) -> list:
        player, position, moves = kind(seed), Position.initial(), []
        while not position.winner() and len(moves) < 40:
            moves.append(player.choose(position))
            position.apply(moves[-1])
        return moves

    assert game(4) == game(4)
    assert any(game(s) != game(4) for s in range(5, 10)), "another seed plays another game"


@pytest.mark.parametrize("name", ["greedy", "search", "search-py"])
def test_player_takes_the_last_tzaar_and_does_not_bury_its_last_tott(name, endgame, with_stacks):
    position = with_stacks(endgame, WHITE, ATTACK_ONLY)
    player: Player = FACTORIES[name]()
    move = player.choose(position.copy())
    assert move[0] == ATTACK and move[2] == from_xy((4, 3))
    # At a second request without that capture, stacking B1 onto A1 would lose at once.
    stacks = {k: v for k, v in endgame.items() if k != (4, 3)}
    stacks[(6, 8)] = encode(BLACK, C, 1)
    position = with_stacks(stacks, WHITE, ANY_MOVE)
    suicide = (STRENGTHEN, from_xy((1, 0)), from_xy((0, 0)))
    assert suicide in position.legal_moves()
    assert player.choose(position.copy()) != suicide


def test_python_search_budget_leaves_room_for_start_up_on_the_opening_move():
    player = PythonSearchPlayer(1.0)
    started = time.perf_counter()
    player.choose(Position.initial())
    assert time.perf_counter() - started < 1.0 - STARTUP_MARGIN + 0.1


def test_python_search_spends_its_budget_on_the_clock_it_is_given():
    # A clock that stands still never runs out, even on no budget at all: the search goes
    # to its depth limit. One that leaps past the deadline at its second reading stops the
    # first iteration, whatever the wall clock says.
    still = Searcher(lambda: 0.0)
    still.best_move(Position.initial(), 0.0, max_depth=3)
    assert still.depth == 3
    readings = itertools.count()
    leaping = Searcher(lambda: 100.0 * next(readings))
    leaping.best_move(Position.initial(), 1.0, max_depth=3)
    assert leaping.depth == 1
    assert PythonSearchPlayer(1.0, cpu=True).searcher.clock is time.thread_time
    assert PythonSearchPlayer(1.0).searcher.clock is time.perf_counter


def test_thinking_time_keeps_a_wide_margin_of_every_reply_limit():
    for limit in (0.05, 0.2, 1.0, 3.0, 10.0):
        seconds = thinking_time(limit)
        assert 0 < seconds <= 0.6 * limit
        # A first request that may have waited for the program to start gets less.
        assert 0 < thinking_time(limit, waited=limit / 2) < seconds
        # On the CPU-time clock the wait for a core costs nothing: it thinks longer, still
        # short of the limit.
        assert seconds < thinking_time(limit, cpu=True) <= 0.9 * limit
    # One that started about as long as a start-up clock allows answers nearly at once.
    assert 0 < thinking_time(1.0, waited=5.0) <= 0.01


class Recording:
    """A compiled searcher that records the thinking time of each call."""

    def __init__(self, searcher) -> None:
        self.searcher = searcher
        self.seconds: list[float] = []
        self.clocks: list[tuple[bool, float]] = []
        """Whether each call thought by the CPU time, and its wall-clock stop."""

    def think(self, *args, **kwargs):
        self.seconds.append(args[4])
        self.clocks.append((kwargs.get("cpu", False), kwargs.get("wall", args[4])))
        return self.searcher.think(*args, **kwargs)


def test_search_takes_the_start_up_wait_off_its_first_reply_only():
    player = SearchPlayer(1.0, waited=0.6)
    player.compiled = recording = Recording(player.compiled)
    position = Position.initial()
    for _ in range(2):
        position.apply(player.choose(position))
    assert recording.seconds == [thinking_time(1.0, waited=0.6), thinking_time(1.0)]


def recorded_moves(player: SearchPlayer, moves: int = 1) -> Recording:
    player.compiled = recording = Recording(player.compiled)
    position = Position.initial()
    for _ in range(moves):
        position.apply(player.choose(position))
    return recording


def test_search_answers_within_the_matchs_reply_limit_unless_told_its_own(compiled):
    told = BotClocks(reply=0.3, first_reply=5.0)
    untold = recorded_moves(SearchPlayer())
    assert untold.seconds == [thinking_time(DEFAULT_LIMIT)]
    player = SearchPlayer()
    player.clocks(told)
    assert recorded_moves(player).seconds == [thinking_time(0.3)]
    own = SearchPlayer(0.8)
    own.clocks(told)
    assert recorded_moves(own).seconds == [thinking_time(0.8)]


def test_search_thinks_by_its_cpu_time_on_the_cpu_clock_and_stops_well_before_the_cap(compiled):
    player = SearchPlayer()
    player.clocks(BotClocks(reply=0.2, first_reply=5.0, mode="cpu", wall_cap=10.0))
    recording = recorded_moves(player)
    assert recording.seconds == [thinking_time(0.2, cpu=True)]
    assert recording.clocks == [(True, 0.2 * 10.0 * WALL_CAP_SHARE)]
    on_the_wall = SearchPlayer()
    on_the_wall.clocks(BotClocks(reply=0.2, first_reply=5.0))
    assert recorded_moves(on_the_wall).clocks == [(False, thinking_time(0.2))]


class CompiledToDepth(Player):
    """The compiled search to a fixed depth, no clock: the same game on any machine."""

    def __init__(self, compiled, depth: int) -> None:
        self.searcher, self.depth = compiled.Searcher(), depth

    def choose(self, position: Position):
        p = position
        return self.searcher.think(
            p.cells, p.player, p.phase, p.single, 3600.0, 3600.0, self.depth
        )[0]


class PythonToDepth(Player):
    def __init__(self, depth: int) -> None:
        self.searcher, self.depth = Searcher(), depth

    def choose(self, position: Position):
        return self.searcher.best_move(position, 3600.0, self.depth)


def test_the_compiled_search_beats_the_python_search_a_few_requests_deeper(compiled):
    # One random set-up, played with both colours: the compiled search reaches some three
    # requests deeper than the Python search in the same time.
    wins = 0
    for game in range(2):
        color = WHITE if game % 2 == 0 else BLACK
        mine, theirs = StonesBot(CompiledToDepth(compiled, 5)), StonesBot(PythonToDepth(2))
        white, black = (mine, theirs) if color == WHITE else (theirs, mine)
        end = duel(white, black, Position.initial("random", random.Random(game // 2)))
        wins += end.winner() == color
    assert wins == 2


def test_the_compiled_search_sees_a_type_lost_past_its_depth(compiled):
    # Positions at a second request where every move lets the opponent take one of our
    # types: the Python search proves the loss two requests deep; the compiled one, one
    # request deep, sees the capture in its quiescence search.
    proven = 0
    for seed in range(40):
        rng = random.Random(seed)
        position = Position.initial("random", random.Random(seed))
        while not position.winner() and proven < 3:
            base = 0 if position.player == WHITE else 4
            scarce = min(position.counts[base + kind] for kind in (1, 2, 3)) <= 2
            if position.allowed() == ANY_MOVE and not position.single and scarce:
                reference = Searcher()
                reference.best_move(position, 3600.0, 2)
                if reference.value <= -DECIDED:
                    p = position
                    value = compiled.Searcher().think(
                        p.cells, p.player, p.phase, p.single, 3600.0, 3600.0, 1
                    )[2]
                    assert value <= -DECIDED, seed
                    proven += 1
                    break
            position.apply(rng.choice(position.legal_moves()))
    assert proven == 3


def thinned_and_full_width(compiled, position: Position, depth: int) -> tuple[tuple, tuple]:
    p = position
    args = (p.cells, p.player, p.phase, p.single, 3600.0, 3600.0, depth)
    return compiled.Searcher().think(*args), compiled.Searcher().think(*args, full_width=True)


def test_the_search_thins_its_tree_away_from_the_principal_variation(compiled):
    thinned, full = thinned_and_full_width(compiled, Position.initial(), 6)
    assert thinned[3] * 3 < full[3]
    assert thinned[1] == full[1] == 6


def test_thinning_hides_no_win_the_full_width_search_finds(compiled):
    # Positions of random games where a side is close to losing a type: the thinned search
    # must find every win the full-width one finds five requests deep, those that take
    # more than a turn to force included.
    wins = forced_later = 0
    for seed in range(6):
        rng = random.Random(seed)
        position = Position.initial("random", random.Random(seed))
        while not position.winner():
            theirs = 4 if position.player == WHITE else 0
            if not position.single and min(position.counts[theirs + k] for k in (1, 2, 3)) <= 3:
                thinned, full = thinned_and_full_width(compiled, position, 5)
                if full[2] >= DECIDED:
                    assert thinned[2] >= DECIDED, (seed, position.cells)
                    wins += 1
                    forced_later += full[2] <= WIN - 3
            position.apply(rng.choice(position.legal_moves()))
    assert wins >= 20 and forced_later >= 5
