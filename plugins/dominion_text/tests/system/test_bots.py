"""The text-protocol bots: handshake, the strategies' decisions as reply lines, the state a
bot rebuilds from notices, and one real bot program over stdin/stdout."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from arena_dominion_text.bot import TextPlayer
from arena_dominion_text.bots import bigmoney, bmu, militia, smithy
from arena_dominion_text.bots import random as random_bot
from arena_dominion_text.cards import (
    CELLAR,
    COPPER,
    ESTATE,
    GOLD,
    IS_ACTION,
    IS_TREASURE,
    NAMES,
    SILVER,
    card,
)
from arena_dominion_text.players import BigMoney, BigMoneyUltimate

PLUGIN_ROOT = Path(__file__).resolve().parents[2]
KINGDOM_LINE = (
    "game kingdom-cards cellar market militia mine moat remodel smithy village woodcutter workshop"
)
FULL_SUPPLY = (
    "supply curse 10 copper 46 silver 40 gold 30 estate 8 duchy 8 province 8 cellar 10 "
    "market 10 militia 10 mine 10 moat 10 remodel 10 smithy 10 village 10 woodcutter 10 "
    "workshop 10"
)


def turn(hand: str, actions: int = 1, buys: int = 1, extra: int = 0) -> str:
    return f"play-request play-turn actions {actions} buys {buys} extra-money {extra} hand {hand}"


def started(bot: TextPlayer, seat: str = "player1") -> TextPlayer:
    """The bot after the opening messages a referee sends."""
    for line in (f"player {seat} name", f"player {seat} version 1", KINGDOM_LINE, FULL_SUPPLY):
        bot.on_message(line)
    return bot


def test_handshake_names_the_bot_and_echoes_the_version():
    bot = bigmoney.make()
    assert bot.start() == []
    assert bot.on_message("player player3 name") == ["player player3 bigmoney"]
    assert bot.on_message("player player3 version 1") == ["player player3 version 1"]
    assert bot.on_message(KINGDOM_LINE) == []
    assert bot.on_message(FULL_SUPPLY) == []


def test_an_unsupported_version_gets_the_supported_one_not_silence():
    bot = bigmoney.make()
    bot.on_message("player player1 name")
    assert bot.on_message("player player1 version 2") == ["player player1 version 1"]


def test_every_module_names_its_strategy():
    for module, bot_name in (
        (bigmoney, "bigmoney"),
        (bmu, "bmu"),
        (smithy, "smithy"),
        (militia, "militia"),
        (random_bot, "random"),
    ):
        assert module.make().on_message("player player2 name") == [f"player player2 {bot_name}"]


@pytest.mark.parametrize(
    ("hand", "extra", "reply"),
    [
        ("copper copper copper estate estate", 0, "play-reply buy silver"),
        ("copper copper estate estate estate", 0, "play-reply pass"),
        ("copper copper copper copper copper", 1, "play-reply buy gold"),
        ("gold silver copper estate estate", 0, "play-reply buy gold"),
        ("gold gold silver estate estate", 0, "play-reply buy province"),
        ("gold silver silver estate estate", 1, "play-reply buy province"),
        ("estate estate estate estate estate", 3, "play-reply buy silver"),
    ],
)
def test_big_money_buys_by_coins_in_hand_plus_extra_money(hand, extra, reply):
    assert started(bigmoney.make()).on_message(turn(hand, extra=extra)) == [reply]


def test_extra_buys_repeat_the_priorities_with_the_money_left():
    bot = started(bigmoney.make())
    assert bot.on_message(turn("gold gold gold silver estate", buys=2)) == [
        "play-reply buy province silver"
    ]


def test_smithy_is_played_when_held_with_an_action_left():
    bot = started(smithy.make())
    assert bot.on_message(turn("smithy copper copper estate copper")) == [
        "play-reply action smithy"
    ]
    # After the Smithy no action is left: the same hand goes on to buying.
    hand = "smithy copper copper estate copper silver copper"
    assert bot.on_message(turn(hand, actions=0)) == ["play-reply buy gold"]


def test_militia_is_played_and_its_attack_discards_junk_first():
    bot = started(militia.make(), "player2")
    assert bot.on_message(turn("militia copper copper estate copper")) == [
        "play-reply action militia"
    ]
    reply = bot.on_message("play-request attack discard 2 hand gold estate copper duchy silver")
    assert reply == ["play-reply discard estate duchy"]
    reply = bot.on_message("play-request attack discard 2 hand gold copper silver copper militia")
    assert reply == ["play-reply discard copper copper"]


def test_a_moat_in_hand_is_revealed_against_militia():
    bot = started(bigmoney.make(), "player2")
    reply = bot.on_message("play-request attack discard 2 hand copper moat estate copper silver")
    assert reply == ["play-reply reaction moat"]


def test_owned_counts_follow_the_bots_own_gained_and_trashed_lines():
    bot = started(bmu.make(), "player2")
    assert bot.owned[COPPER] == 7
    assert bot.owned[ESTATE] == 3
    for line in (
        "player2 gained silver gold silver",
        "player1 gained gold gold gold",
        "player2 played smithy copper",
        "player2 trashed copper estate",
        "player1 trashed silver",
        "player2 top-discard silver",
    ):
        assert bot.on_message(line) == []
    assert bot.owned[SILVER] == 2
    assert bot.owned[GOLD] == 1
    assert bot.owned[COPPER] == 6
    assert bot.owned[ESTATE] == 2
    assert sum(bot.owned) == 11


def test_owned_money_decides_when_bmu_greens():
    bot = started(bmu.make())
    hand = "gold gold silver estate estate"
    # 7 Coppers: $7 of money in the deck, far below BMU's $18 for a Province.
    assert bot.on_message(turn(hand)) == ["play-reply buy gold"]
    bot.on_message("player1 gained gold gold gold silver silver")  # $20 > $18
    assert bot.on_message(turn(hand)) == ["play-reply buy province"]


def test_supply_lines_steer_buys_away_from_empty_piles():
    bot = started(bigmoney.make())
    bot.on_message(FULL_SUPPLY.replace("gold 30", "gold 0"))
    assert bot.on_message(turn("gold silver copper estate estate")) == ["play-reply buy silver"]


def test_a_new_game_starts_from_the_opening_deck():
    bot = started(bigmoney.make())
    bot.on_message("player1 gained gold")
    started(bot, "player2")
    assert bot.owned[GOLD] == 0
    assert bot.seat == "player2"


def test_an_unreadable_request_still_gets_an_answer():
    bot = started(bigmoney.make())
    assert bot.on_message(turn("copper dragon")) == ["play-reply pass"]
    assert bot.on_message("play-request play-turn hand copper") == ["play-reply pass"]
    assert bot.on_message("player1 gained dragon") == []
    assert bot.on_message("") == []


def _check_reply(reply: str, hand: list[str], discard: int | None) -> None:
    """A well-formed reply: only names of cards, the played or discarded ones from the hand."""
    words = reply.split()
    assert words[0] == "play-reply"
    assert all(w in NAMES for w in words[3 if words[1] == "action" else 2 :])
    if discard is not None:
        if words[1:] == ["reaction", "moat"]:
            assert "moat" in hand
            return
        assert words[1] == "discard"
        assert len(words) - 2 == discard
        left = list(hand)
        for w in words[2:]:
            left.remove(w)
        return
    kind = words[1]
    assert kind in ("pass", "buy", "action")
    if kind == "pass":
        assert len(words) == 2
    elif kind == "action":
        played = words[2]
        assert IS_ACTION[card(played)]
        left = list(hand)
        left.remove(played)
        args = words[3:]
        if played == "cellar":
            for w in args:
                left.remove(w)
        elif played in ("mine", "remodel"):
            assert len(args) <= 2
            if args:
                assert args[0] in left
                if played == "mine":
                    assert all(IS_TREASURE[card(w)] for w in args)
        elif played == "workshop":
            assert len(args) <= 1
        else:
            assert args == []
    else:
        assert len(words) >= 3


def test_the_random_bot_always_replies_well_formed_lines():
    rng = random.Random(7)
    bot = started(random_bot.make(seed=11))
    for _ in range(2000):
        hand = [rng.choice(NAMES) for _ in range(rng.randint(0, 9))]
        if rng.random() < 0.2 and len(hand) > 3:
            discard = len(hand) - 3
            line = f"play-request attack discard {discard} hand {' '.join(hand)}"
        else:
            discard = None
            line = turn(" ".join(hand), rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 4))
        replies = bot.on_message(line.rstrip())
        assert len(replies) == 1
        _check_reply(replies[0], hand, discard)


def test_the_random_bot_repeats_itself_with_a_seed():
    lines = [turn("cellar copper estate mine silver"), turn("remodel workshop copper gold")]
    answers = [[random_bot.make(5).on_message(line) for line in lines] for _ in range(2)]
    assert answers[0] == answers[1]


def program(bot: str, *args: str, lines: list[str]) -> list[str]:
    """What the built-in bot program ``bot`` (with ``args``) writes for ``lines``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PLUGIN_ROOT), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-P", "-m", f"arena_dominion_text.bots.{bot}", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=True,
    )
    return proc.stdout.splitlines()


def test_the_bot_program_speaks_over_stdin_and_stdout():
    lines = [
        "player player1 name",
        "player player1 version 1",
        KINGDOM_LINE,
        FULL_SUPPLY,
        turn("gold silver copper estate estate"),
    ]
    assert program("bigmoney", lines=lines) == [
        "player player1 bigmoney",
        "player player1 version 1",
        "play-reply buy gold",
    ]


def test_run_gives_the_program_its_seed_and_the_suicide_check():
    """``run`` builds the strategy from the command line: ``--seed`` repeats the random
    bot's game, and ``--suicide-check`` makes BMU pass up the Province that would lose."""
    lines = ["player player1 name", "player player1 version 1", KINGDOM_LINE, FULL_SUPPLY]
    lines += [turn("cellar copper estate mine silver"), turn("remodel workshop copper gold")]
    seeded = program("random", "--seed", "5", lines=lines)
    assert seeded == program("random", "--seed", "5", lines=lines)
    assert seeded[:2] == ["player player1 random", "player player1 version 1"]
    in_process = random_bot.make(5)
    assert seeded == [reply for line in lines for reply in in_process.on_message(line)]
    late = [*endgame_lines("player1", 0, f"player2 {FOUR_PROVINCES} duchy duchy"), RICH_HAND]
    assert program("bmu", "--suicide-check", lines=late)[-1] == "play-reply buy duchy"
    assert program("bmu", lines=late)[-1] == "play-reply buy province"


def test_a_cellar_discarding_nothing_is_not_sent() -> None:
    """The line protocol penalises it; the official rules allow it (engine tests)."""

    class EmptyCellar(BigMoney):
        def action(self, view):
            return (CELLAR, (), None) if CELLAR in view.hand else None

    bot = TextPlayer(EmptyCellar(random.Random(1)))
    bot.on_message("player player1 name")
    hand = "cellar copper copper copper estate"
    replies = bot.on_message(f"play-request play-turn actions 1 buys 1 extra-money 0 hand {hand}")
    assert replies == ["play-reply buy silver"]


def endgame_lines(seat: str, turns_before_mine: int, opponent: str) -> list[str]:
    """The lines a bot at ``seat`` of two gets late in a game: after ``turns_before_mine``
    other turns its own first turn, then rounds in which it gained 4 Golds (money 19 >
    BMU's 18), 3 Provinces and 2 Duchies (27 VP with its Estates) and the opponent what
    ``opponent`` says; one Province is left, worth 6 more."""
    return [
        f"player {seat} name",
        f"player {seat} version 1",
        KINGDOM_LINE,
        *[FULL_SUPPLY] * turns_before_mine,
        FULL_SUPPLY,
        turn("copper copper copper copper estate"),  # its first turn
        f"{seat} gained gold gold gold gold province province province duchy duchy",
        opponent,
        FULL_SUPPLY.replace("province 8", "province 1"),
    ]


def endgame(bot: TextPlayer, seat: str, turns_before_mine: int, opponent: str) -> TextPlayer:
    """``bot`` after :func:`endgame_lines`."""
    for line in endgame_lines(seat, turns_before_mine, opponent):
        bot.on_message(line)
    return bot


RICH_HAND = turn("gold gold silver copper estate")  # $10
FOUR_PROVINCES = "gained province province province province"  # 3 + 24 = 27 VP


@pytest.mark.parametrize(
    ("seat", "before", "opponent", "reply"),
    [
        # The opponent moved first, so the bot's turn evens the turns: 33 to 33 is a tie.
        ("player2", 1, f"player1 {FOUR_PROVINCES} duchy duchy", "province"),
        ("player2", 1, f"player1 {FOUR_PROVINCES} duchy duchy duchy", "duchy"),  # 33 < 36
        # The bot moved first: 33 to 33 loses on turns, 33 to 30 wins.
        ("player1", 0, f"player2 {FOUR_PROVINCES} duchy duchy", "duchy"),
        ("player1", 0, f"player2 {FOUR_PROVINCES} duchy", "province"),
    ],
)
def test_the_suicide_check_reads_the_score_and_turn_order_from_the_lines(
    seat, before, opponent, reply
):
    checked = endgame(TextPlayer(BigMoneyUltimate(suicide_check=True)), seat, before, opponent)
    assert checked.on_message(RICH_HAND) == [f"play-reply buy {reply}"]
    unchecked = endgame(bmu.make(), seat, before, opponent)
    assert unchecked.on_message(RICH_HAND) == ["play-reply buy province"]
