"""The built-in players: legal, never a wrong or rule-breaking accusation, and the deducer's
inferences from failed disproves and others' suggestions."""

from __future__ import annotations

import random

import pytest

from arena_speedclue.cards import CARDS, INDEX
from arena_speedclue.players import Deducer, Knowledge, Player, RandomPlayer
from arena_speedclue.rules import State
from arena_speedclue.simulate import Violation, play_game

SOLUTION = ("Gr", "Ca", "Ba")
HANDS3 = (
    ("Mu", "Kn", "Bi", "Co", "Di", "Ha"),
    ("Pe", "Pi", "Ki", "Li", "Lo", "St"),
    ("Pl", "Sc", "Wh", "Re", "Ro", "Wr"),
)


class Spy(Deducer):
    """A deducer that records every accusation it makes, to check each was right."""

    accusations: list[tuple[tuple[str, str, str], bool]]

    def reset(self, n_players: int, my_index: int, my_cards: object) -> None:  # type: ignore[override]
        super().reset(n_players, my_index, my_cards)  # type: ignore[arg-type]
        self.accusations = []

    def observe_accusation(
        self, player: int, accusation: tuple[str, str, str], correct: bool
    ) -> None:
        if player == self.me:
            self.accusations.append((accusation, correct))
        super().observe_accusation(player, accusation, correct)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_deducers_never_accuse_wrongly_or_break_contest_rules(n: int) -> None:
    rng = random.Random(n)
    for _ in range(25):
        players: list[Player] = [Spy(rng.getrandbits(32)) for _ in range(n)]
        players[rng.randrange(n)] = RandomPlayer(rng.getrandbits(32))
        result = play_game(players, rng)  # contest rules enforced: a Violation would raise
        assert not result.eliminated & {i for i, p in enumerate(players) if isinstance(p, Spy)}
        for player in players:
            if isinstance(player, Spy):
                assert all(correct for _, correct in player.accusations)


def test_random_players_finish_games_within_the_contest_rules() -> None:
    rng = random.Random(5)
    for n in (3, 6):
        for _ in range(20):
            result = play_game([RandomPlayer(rng.getrandbits(32)) for _ in range(n)], rng)
            assert 0 <= result.winner < n


def test_random_player_accuses_after_an_undisproved_suggestion() -> None:
    player = RandomPlayer(1)
    player.reset(3, 0, HANDS3[0])
    player.observe_suggestion(0, ("Gr", "Ca", "Ba"), None, None)
    assert player.accuse() == ("Gr", "Ca", "Ba")


def test_random_player_never_repeats_a_suggestion() -> None:
    player = RandomPlayer(3)
    player.reset(3, 0, HANDS3[0])
    made = [player.suggest() for _ in range(324)]
    assert len(set(made)) == 324


def test_deducer_solves_an_undisproved_suggestion_with_own_cards() -> None:
    # Nobody else holds Gr, Kn or Ba; Kn is ours, so Gr and Ba are in the envelope.
    deducer = Deducer(0)
    deducer.reset(3, 0, HANDS3[0])
    deducer.observe_suggestion(0, ("Gr", "Kn", "Ba"), None, None)
    assert deducer.accuse() is None
    for weapon, owner in (("Pi", 1), ("Re", 2), ("Ro", 2), ("Wr", 2)):
        deducer.observe_suggestion(0, ("Mu", weapon, "Bi"), owner, weapon)
        deducer.accuse()
    assert deducer.accuse() == ("Gr", "Ca", "Ba")


def test_deducer_learns_from_failed_disproves_of_others() -> None:
    # Player 1 suggests; player 2 cannot disprove, player 0 (us) can. Player 2 holds none.
    deducer = Deducer(0)
    deducer.reset(3, 0, HANDS3[0])
    deducer.observe_suggestion(1, ("Gr", "Pi", "Ki"), None, None)
    kb = deducer.kb
    kb.probe()
    for card in ("Gr", "Pi", "Ki"):
        assert not kb.masks[INDEX[card]] & (1 << 2)
        assert not kb.masks[INDEX[card]] & (1 << 0)


def test_deducer_resolves_an_at_least_one_clause() -> None:
    # Player 2 showed player 1 one of Pl, Ca, Ba. Once Ca and Ba are known elsewhere, Pl is 2's.
    deducer = Deducer(0)
    deducer.reset(3, 0, HANDS3[0])
    deducer.observe_suggestion(1, ("Pl", "Ca", "Ba"), 2, None)
    deducer.kb.set_owner("Ca", 3)  # the envelope
    deducer.kb.set_owner("Ba", 1)
    deducer.dirty = True
    deducer.accuse()
    assert deducer.kb.masks[INDEX["Pl"]] == 1 << 2


def test_deducer_asks_about_the_likeliest_envelope_cards() -> None:
    # Player 2 could not disprove Pe Pi Ki: each of them is player 1's or in the envelope,
    # two possible holders where every other unknown card has three.
    deducer = Deducer(0)
    deducer.reset(3, 0, HANDS3[0])
    deducer.observe_suggestion(1, ("Pe", "Pi", "Ki"), None, None)
    assert deducer.suggest() == ("Pe", "Pi", "Ki")


def test_deducer_uses_a_solved_category_as_a_blind() -> None:
    # The room is solved (Ba), so the suggestion names Ba, which nobody can show, and asks
    # only about the suspect and the weapon.
    deducer = Deducer(0)
    deducer.reset(3, 0, HANDS3[0])
    deducer.kb.set_owner("Ba", 3)
    deducer.dirty = True
    suggestions = {deducer.suggest() for _ in range(20)}
    assert {room for _s, _w, room in suggestions} == {"Ba"}
    assert all(s not in HANDS3[0] and w not in HANDS3[0] for s, w, _r in suggestions)
    assert len(suggestions) == 20, "never the same question twice"


def test_knowledge_counts_hand_sizes() -> None:
    # Player 1 may hold only six cards and is dealt six: counting forces all six to them.
    kb = Knowledge(3)
    for card in HANDS3[0]:
        kb.set_owner(card, 0)
    kb.lacks(1, [card for card in CARDS if card not in HANDS3[1]])
    kb.probe()
    for card in HANDS3[1]:
        assert kb.masks[INDEX[card]] == 1 << 1


def test_deducer_accuses_only_the_truth_in_a_fixed_deal() -> None:
    rng = random.Random(11)
    for seed in range(30):
        game = State(SOLUTION, HANDS3)
        players: list[Player] = [Deducer(seed), RandomPlayer(seed), RandomPlayer(seed + 1)]
        result = play_game(players, rng, game=game)
        assert 0 not in result.eliminated
        if result.winner == 0:
            assert result.by_accusation


def test_a_repeating_player_is_caught_as_a_violation() -> None:
    class Stubborn(RandomPlayer):
        def suggest(self) -> tuple[str, str, str]:
            return ("Mu", "Kn", "Bi")

    with pytest.raises(Violation, match="already suggested Mu Kn Bi"):
        play_game(
            [Stubborn(0), RandomPlayer(1), RandomPlayer(2)],
            random.Random(0),
            game=State(SOLUTION, HANDS3),
        )
