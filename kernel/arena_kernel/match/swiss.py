"""Swiss pairing: who plays whom in each round of a Swiss tournament.

A Swiss tournament plays few rounds and, in each, pairs bots of equal or near score, so that
the leaders meet each other early and the table separates the field without every bot
playing every other. This module is the pairing only: pure and deterministic (no RNG, no
clock, no I/O), so that a re-run or a resumed run computes exactly the same rounds from the
same stored games. It reads the games of earlier rounds (:class:`SwissGame`) and returns the
next round (:class:`SwissRound`); the runner plays it and stores the games.

Points and the table
    :func:`game_points` gives each bot of a game a share of the points by its place;
    :func:`standings` sums them with 1 point per bye and sorts by score, then by a
    Buchholz tie-break, then by seed (the order of ``bots``).

Two seats (the Dutch system, simplified)
    Bots are ordered by the table. The first unpaired bot is paired inside its score group
    top half against bottom half (1 v N/2+1 in a group of N); a bot left alone in its group
    floats down to the nearest lower group. Seat 0 ("white") goes to the bot due it: the
    lower colour difference, else alternation from the last colour (see ``_seat_two``).
    A backtracking search over that order enforces, in this priority:

    1. no pairing repeated from an earlier round, and the colour rule: a bot whose colour
       difference (games as seat 0 minus games as seat 1) is above 0 must take seat 1, one
       below 0 seat 0, so that every difference stays in [-1, 1];
    2. if no such pairing exists: the colour rule only, repeats allowed (partners met
       fewest times first). The colour rule alone is always satisfiable while every
       difference is in [-1, 1] (the differences of the field sum to 0, so the bots that
       must take seat 0 and those that must take seat 1 can always be matched with each
       other or with bots at 0), which makes it effectively a hard rule;
    3. anything (only reached from a history this module did not produce).

    The search keeps a node budget (``_NODE_BUDGET`` per level) so that a pathological
    field cannot hang a run: when it runs out, the next level is tried. Fields up to a few
    dozen bots never come near it; larger fields find a pairing in the first descent.

    An odd field gives one bye, always to a bot with the fewest byes so far (so nobody has
    a second bye while another has none), the lowest-ranked such bot whose bye leaves a
    pairing of the highest level possible.

More seats (k >= 3)
    ``n mod k`` bots sit out, the lowest-ranked among those with the fewest byes. The rest,
    in table order, are cut into groups of k neighbours, a backtracking search avoiding a
    group of exactly the same bots as an earlier game while it can (else plain consecutive
    groups). Seats are given greedily so that seat use spreads: seat 0 to the bot of the
    group that sat there least, then seat 1 likewise among the rest, and so on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

__all__ = ["SwissGame", "SwissRound", "game_points", "pair_round", "standings"]

# Search nodes (partners tried) per relaxation level. A field that needs more than this to
# prove that no better pairing exists is paired at the next level instead of hanging.
_NODE_BUDGET = 50_000


@dataclass(frozen=True)
class SwissGame:
    """One stored game of an earlier round, as the pairing reads it.

    ``seating`` is the bot per seat (for 2 seats, seat 0 is the first player, "white");
    ``ranks`` the place per seat, 1 best, equal ranks tie. A ``void`` game (aborted,
    annulled) still counts as a meeting, a seat taken and a round played, so that the
    pairing does not repeat it and does not give a bye for it, but it gives no points.
    """

    round: int
    seating: tuple[str, ...]
    ranks: tuple[int, ...]
    void: bool = False


@dataclass(frozen=True)
class SwissRound:
    """One round: the games (bots in seat order, best board first) and the bots that sit
    out and get a bye (1 point in :func:`standings`)."""

    groups: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def _points(seating: Sequence[str], ranks: Sequence[int]) -> dict[str, Fraction]:
    """Exact points per bot (see :func:`game_points`); fractions so that sums compare
    exactly when the table sorts (1/3 + 2/3 must tie with 1)."""
    k = len(seating)
    if k != len(ranks):
        raise ValueError(f"{k} seats but {len(ranks)} ranks")
    if k < 2:
        raise ValueError("a game needs at least 2 seats")
    if len(set(seating)) != k:
        raise ValueError(f"a bot sits twice in {tuple(seating)}")
    points: dict[str, Fraction] = {}
    for bot, rank in zip(seating, ranks, strict=True):
        better = sum(1 for r in ranks if r < rank)
        tied = sum(1 for r in ranks if r == rank)
        # The tied bots share places better+1 .. better+tied, place p being worth
        # (k - p) / (k - 1): their points are the mean over those places.
        total = sum(k - p for p in range(better + 1, better + tied + 1))
        points[bot] = Fraction(total, tied * (k - 1))
    return points


def game_points(seating: Sequence[str], ranks: Sequence[int]) -> dict[str, float]:
    """The points of each bot in one game: place p (1-based) of k is worth
    ``(k - p) / (k - 1)``, so the winner gets 1, the last 0 and the places between are
    evenly spaced (4 seats: 1, 2/3, 1/3, 0); bots that tie share the mean of the places
    they cover (2 seats: win 1, draw 0.5 each, loss 0; 4 seats ranked 1, 1, 3, 4: 5/6, 5/6,
    1/3, 0). A game always hands out k/2 points in total, so a bot's score does not depend
    on how its ties were broken. The place of a bot is 1 + the number of strictly better
    ranks, so ranks 1, 1, 2 and 1, 1, 3 mean the same.

    Raises ValueError when seating and ranks differ in length, a bot sits twice, or there
    are fewer than 2 seats.
    """
    return {bot: float(p) for bot, p in _points(seating, ranks).items()}


@dataclass
class _History:
    """What the pairing needs from the games of the rounds before ``upto``."""

    bots: Sequence[str]
    upto: int
    score: dict[str, Fraction] = field(default_factory=dict)
    buchholz: dict[str, Fraction] = field(default_factory=dict)
    byes: Counter[str] = field(default_factory=Counter)
    meetings: Counter[frozenset[str]] = field(default_factory=Counter)
    groups: Counter[frozenset[str]] = field(default_factory=Counter)
    colour_diff: Counter[str] = field(default_factory=Counter)
    # Per bot, its seats in 2-seat games, by round (to alternate colours).
    colours: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    seat_use: dict[str, Counter[int]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)


def _history(bots: Sequence[str], games: Sequence[SwissGame], upto: int) -> _History:
    if len(set(bots)) != len(bots):
        raise ValueError("a bot is listed twice")
    known = set(bots)
    h = _History(bots=bots, upto=upto)
    h.score = {b: Fraction(0) for b in bots}
    h.colours = {b: [] for b in bots}
    h.seat_use = {b: Counter() for b in bots}
    opponents: dict[str, list[str]] = {b: [] for b in bots}
    played: dict[int, set[str]] = {r: set() for r in range(upto)}
    for game in games:
        if not 0 <= game.round < upto:
            continue
        played[game.round].update(game.seating)
        h.groups[frozenset(game.seating)] += 1
        for a, b in combinations(game.seating, 2):
            h.meetings[frozenset((a, b))] += 1
        for seat, bot in enumerate(game.seating):
            if bot in known:
                h.seat_use[bot][seat] += 1
        if len(game.seating) == 2:
            white, black = game.seating
            h.colour_diff[white] += 1
            h.colour_diff[black] -= 1
            for seat, bot in enumerate(game.seating):
                if bot in known:
                    h.colours[bot].append((game.round, seat))
        if game.void:
            continue
        for bot, pts in _points(game.seating, game.ranks).items():
            if bot in known:
                h.score[bot] += pts
                opponents[bot].extend(o for o in game.seating if o != bot and o in known)
    for bot in bots:
        h.byes[bot] = sum(1 for r in range(upto) if bot not in played[r])
        h.score[bot] += h.byes[bot]
        h.colours[bot].sort()
    h.buchholz = {b: sum((h.score[o] for o in opponents[b]), Fraction(0)) for b in bots}
    seed = {b: i for i, b in enumerate(bots)}
    h.order = sorted(bots, key=lambda b: (-h.score[b], -h.buchholz[b], seed[b]))
    return h


def standings(
    bots: Sequence[str], games: Sequence[SwissGame], rounds_played: int
) -> list[tuple[str, float]]:
    """The Swiss table after ``rounds_played`` rounds: ``(bot, score)`` best first.

    The score is the bot's :func:`game_points` over its games of rounds
    ``0 .. rounds_played - 1`` (void games give none) plus 1 per bye, a bye being a round
    in which the bot played no game at all: a bye is worth a win, as in chess Swiss
    events, so that sitting out never costs a bot its place. Games of later rounds and
    bots not in ``bots`` are ignored.

    Equal scores are ordered by Buchholz: the sum of the scores of the opponents the bot
    met in its non-void games (each game's other bots, once per game), since the same
    score against stronger opposition is worth more; then by seed, the bot's position in
    ``bots``, so that the table is a total order and the pairing deterministic.
    """
    h = _history(bots, games, rounds_played)
    return [(b, float(h.score[b])) for b in h.order]


class _OutOfBudget(Exception):
    """The search tried ``_NODE_BUDGET`` partners at one level without an answer."""


def _pair_search(
    n: int,
    allowed: list[list[bool]],
    score_group: list[int],
    extra_key: Callable[[int, int], tuple[int, ...]],
    sign: list[int] | None,
    budget: list[int],
) -> list[tuple[int, int]] | None:
    """A perfect matching of bots ``0 .. n-1`` (in table order) using only ``allowed``
    pairs, or None if there is none. Partners are tried in Dutch order (after
    ``extra_key``), so the first matching found is the preferred one.

    Pruning: a bot left with no allowed unpaired partner ends the branch (a degree count
    kept per bot), and with ``sign`` (the colour rule) so does a remainder with more bots
    that must take one colour than bots that can take the other.
    """
    paired = [False] * n
    deg = [sum(1 for j in range(n) if j != i and allowed[i][j]) for i in range(n)]
    if n and min(deg) == 0:
        return None
    counts = Counter(sign) if sign is not None else Counter[int]()
    pairs: list[tuple[int, int]] = []

    def order(i: int, cands: list[int]) -> list[int]:
        # Dutch: inside the score group of i (the unpaired bots of its group, i first),
        # the partner half the group further down; other groups after, nearest first.
        same = [k for k in range(i, n) if not paired[k] and score_group[k] == score_group[i]]
        pos = {k: p for p, k in enumerate(same)}
        half = len(same) // 2

        def key(j: int) -> tuple[int, ...]:
            if j in pos:
                return (*extra_key(i, j), 0, abs(pos[j] - half), int(pos[j] < half), j)
            return (*extra_key(i, j), score_group[j] - score_group[i], 0, 0, j)

        return sorted(cands, key=key)

    def colour_dead() -> bool:
        if sign is None:
            return False
        plus, minus, zero = counts[1], counts[-1], counts[0]
        return plus > minus + zero or minus > plus + zero

    def rec(start: int) -> bool:
        i = start
        while i < n and paired[i]:
            i += 1
        if i == n:
            return True
        cands = [j for j in range(i + 1, n) if not paired[j] and allowed[i][j]]
        for j in order(i, cands):
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfBudget
            paired[i] = paired[j] = True
            if sign is not None:
                counts[sign[i]] -= 1
                counts[sign[j]] -= 1
            touched: list[tuple[int, int]] = []
            dead = colour_dead()
            for k in range(n):
                if not paired[k]:
                    dec = int(allowed[i][k]) + int(allowed[j][k])
                    if dec:
                        deg[k] -= dec
                        touched.append((k, dec))
                        if deg[k] == 0:
                            dead = True
            pairs.append((i, j))
            if not dead and rec(i + 1):
                return True
            pairs.pop()
            for k, dec in touched:
                deg[k] += dec
            if sign is not None:
                counts[sign[i]] += 1
                counts[sign[j]] += 1
            paired[i] = paired[j] = False
        return False

    return pairs if rec(0) else None


def _colour_sign(diff: int) -> int:
    """1: must take seat 1 (black); -1: must take seat 0; 0: either."""
    return (diff > 0) - (diff < 0)


def _seat_two(h: _History, a: str, b: str, board: int) -> tuple[str, str]:
    """The pair in seat order, the bot due white first: the one with the lower colour
    difference; if equal, the one that had black when their colour histories (most recent
    first) last differed; if the histories are the same, the higher-ranked bot alternates
    from its last colour. Bots with no colours yet (round 0) alternate by board, the
    higher-ranked bot taking white on boards 1, 3, 5... and black on 2, 4, 6..., as in the
    Dutch system: giving every top-half bot white would leave the winners of round 0 all
    due black in round 1, unable to meet each other under the colour rule."""
    da, db = h.colour_diff[a], h.colour_diff[b]
    if da != db:
        return (a, b) if da < db else (b, a)
    for (_, ca), (_, cb) in zip(reversed(h.colours[a]), reversed(h.colours[b]), strict=False):
        if ca != cb:
            return (a, b) if ca == 1 else (b, a)
    rank = {bot: i for i, bot in enumerate(h.order)}
    high, low = (a, b) if rank[a] < rank[b] else (b, a)
    high_white = h.colours[high][-1][1] == 1 if h.colours[high] else board % 2 == 0
    return (high, low) if high_white else (low, high)


def _pair_two(h: _History) -> SwissRound:
    order = h.order
    if len(order) % 2:
        fewest = min(h.byes[b] for b in order)
        bye_candidates: list[str | None] = [b for b in reversed(order) if h.byes[b] == fewest]
    else:
        bye_candidates = [None]
    # (no repeats, colour rule) per level, strictest first.
    for no_repeat, colour in ((True, True), (False, True), (False, False)):
        budget = [_NODE_BUDGET]
        for bye in bye_candidates:
            active = [b for b in order if b != bye]
            n = len(active)
            diff = [h.colour_diff[b] for b in active]
            meet = [[h.meetings[frozenset((a, b))] for b in active] for a in active]
            signs = [_colour_sign(d) for d in diff]
            allowed = [
                [
                    i != j
                    and not (no_repeat and meet[i][j])
                    and not (colour and signs[i] * signs[j] == 1)
                    for j in range(n)
                ]
                for i in range(n)
            ]
            # Score group per bot: 0 for the leaders, +1 at each lower score.
            groups = [0] * n
            for i in range(1, n):
                lower = h.score[active[i]] != h.score[active[i - 1]]
                groups[i] = groups[i - 1] + lower

            def extra(
                i: int, j: int, m: list[list[int]] = meet, s: list[int] = signs
            ) -> tuple[int, ...]:
                return (int(s[i] * s[j] == 1), m[i][j])

            try:
                found = _pair_search(n, allowed, groups, extra, signs if colour else None, budget)
            except _OutOfBudget:
                break
            if found is not None:
                return SwissRound(
                    groups=tuple(
                        _seat_two(h, active[i], active[j], board)
                        for board, (i, j) in enumerate(found)
                    ),
                    byes=() if bye is None else (bye,),
                )
    raise AssertionError("unreachable: the last level allows every pairing")


def _seat_many(h: _History, group: Sequence[str]) -> tuple[str, ...]:
    """Seat order of a group: seat 0 to the bot that sat there least (ties: higher
    ranked, i.e. ``group``'s order), then seat 1 likewise among the rest, and so on."""
    rest = list(group)
    seated: list[str] = []
    for seat in range(len(group)):
        bot = min(rest, key=lambda b: h.seat_use[b][seat])
        rest.remove(bot)
        seated.append(bot)
    return tuple(seated)


def _group_search(
    active: list[str], k: int, seen: Counter[frozenset[str]], budget: list[int]
) -> list[tuple[str, ...]] | None:
    """Groups of k covering ``active`` (table order), none equal to an earlier game's
    group, nearest neighbours first (combinations in lexicographic order), or None."""
    taken = [False] * len(active)
    out: list[tuple[str, ...]] = []

    def rec() -> bool:
        free = [i for i, t in enumerate(taken) if not t]
        if not free:
            return True
        first, rest = free[0], free[1:]
        combos: Iterator[tuple[int, ...]] = combinations(rest, k - 1)
        for combo in combos:
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfBudget
            group = tuple(active[i] for i in (first, *combo))
            if seen[frozenset(group)]:
                continue
            for i in (first, *combo):
                taken[i] = True
            out.append(group)
            if rec():
                return True
            out.pop()
            for i in (first, *combo):
                taken[i] = False
        return False

    return out if rec() else None


def _pair_many(h: _History, k: int) -> SwissRound:
    rank = {b: i for i, b in enumerate(h.order)}
    sitting_out = len(h.order) % k
    byes = sorted(h.order, key=lambda b: (h.byes[b], -rank[b]))[:sitting_out]
    active = [b for b in h.order if b not in byes]
    try:
        found = _group_search(active, k, h.groups, [_NODE_BUDGET])
    except _OutOfBudget:
        found = None
    if found is None:
        found = [tuple(active[i : i + k]) for i in range(0, len(active), k)]
    return SwissRound(
        groups=tuple(_seat_many(h, g) for g in found),
        byes=tuple(sorted(byes, key=rank.__getitem__)),
    )


def pair_round(
    bots: Sequence[str], games: Sequence[SwissGame], round_number: int, seats: int
) -> SwissRound:
    """The pairing of round ``round_number`` (0-based) from the games of the rounds
    before it (later games are ignored), with ``seats`` bots per game.

    ``bots`` is the seeding: round 0 pairs by it (2 seats: 1 v N/2+1, 2 v N/2+2, ..., the
    higher seed white on boards 1, 3, ... and black on 2, 4, ...; more seats: consecutive
    groups), later rounds by :func:`standings`. The rules and their
    priorities are in the module docstring. Every bot is in exactly one group or bye.

    Raises ValueError unless ``2 <= seats <= len(bots)``, for a negative round or for a
    bot listed twice.
    """
    if not 2 <= seats <= len(bots):
        raise ValueError(f"seats must be 2..{len(bots)} (the number of bots), not {seats}")
    if round_number < 0:
        raise ValueError(f"round_number must be >= 0, not {round_number}")
    h = _history(bots, games, round_number)
    return _pair_two(h) if seats == 2 else _pair_many(h, seats)
