"""The S-expression bots: the strategies' decisions as one play per ``(move state)``,
the plan kept across a turn's messages, legality checks, answers to attacks, and one real
bot program over stdin/stdout. Messages are written as on the wire and decoded."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena_dominion_sexpr.bot import SexprPlayer, StateView
from arena_dominion_sexpr.bots import bigmoney, militia, mine, smithy
from arena_dominion_sexpr.bots import random as random_bot
from arena_dominion_sexpr.game import DominionSexpr, Referee
from arena_dominion_sexpr.players import MineBigMoney
from arena_dominion_sexpr.wire import state as state_of
from arena_dominion_text.cards import GOLD, MINE, PROVINCE, SILVER, SMITHY, card
from arena_dominion_text.players import BigMoney, Play, Strategy, View
from arena_kernel.plugin import SexprCodec, Symbol

PLUGIN_ROOT = Path(__file__).resolve().parents[2]
CODEC = SexprCodec()
V1_PILES = {"copper": 46, "silver": 40, "gold": 30, "estate": 8, "duchy": 8, "province": 8}
KINGDOM = [
    "cellar",
    "market",
    "militia",
    "mine",
    "moat",
    "remodel",
    "smithy",
    "village",
    "woodcutter",
    "workshop",
]


def supply(kingdom: tuple[str, ...] = ("mine",), **piles: int) -> str:
    """Every copy of every pile, as the course server listed them."""
    sizes = {**V1_PILES, **dict.fromkeys(kingdom, 10), **piles}
    return " ".join(" ".join([card] * n) for card, n in sizes.items())


def state(
    hand: str,
    *,
    actions: int = 1,
    buys: int = 1,
    coins: int = 0,
    deck: str = "copper copper copper copper estate",
    plays: str = "",
    discards: str = "",
    piles: str | None = None,
) -> str:
    return (
        f"((players me you) (supply {piles if piles is not None else supply()}) (trash)"
        f" (actions {actions}) (buys {buys}) (coins {coins}) (deck {deck}) (hand {hand})"
        f" (plays {plays}) (discards {discards}))"
    )


def wire(text: str) -> Any:
    """One message decoded as the referee's codec would."""
    [(message, _raw)] = CODEC.decoder().feed(text.encode())
    return message


def say(bot: SexprPlayer, text: str) -> list[str]:
    """The bot's replies to ``text``, as the text it puts on the wire."""
    return [CODEC.encode(reply).decode().strip() for reply in bot.on_message(wire(text))]


def move(bot: SexprPlayer, hand: str, **kwargs: Any) -> str:
    [reply] = say(bot, f"(move {state(hand, **kwargs)})")
    return reply


def test_the_state_becomes_the_strategys_view() -> None:
    view = StateView(
        wire(state("gold copper estate", coins=2, plays="market", discards="silver", deck="copper"))
    )
    assert view.money == 2 + 3 + 1
    assert view.owned[GOLD] == 1 and view.owned[SILVER] == 1 and view.owned[MINE] == 0
    assert view.supply[GOLD] == 30 and view.supply[MINE] == 10 and view.supply[SMITHY] == 0
    assert view.players == ["me", "you"]


def test_a_money_turn_adds_each_treasure_then_buys_then_cleans() -> None:
    bot = bigmoney.make()
    assert bot.start() == []
    assert move(bot, "gold silver copper estate estate") == "(add gold)"
    assert move(bot, "silver copper estate estate", actions=0, coins=3, plays="gold") == (
        "(add silver)"
    )
    assert move(bot, "copper estate estate", actions=0, coins=5, plays="gold silver") == (
        "(add copper)"
    )
    assert move(bot, "estate estate", actions=0, coins=6, plays="gold silver copper") == (
        "(buy gold)"
    )
    after_buy = move(bot, "estate estate", actions=0, buys=0, plays="gold silver copper")
    assert after_buy == "(clean estate)"


@pytest.mark.parametrize(
    ("hand", "reply"),
    [
        ("gold gold gold estate estate", "(add gold)"),
        ("copper copper estate estate estate", "(clean copper)"),  # $2 buys nothing
        ("", "(clean)"),
    ],
)
def test_first_play_of_a_turn(hand: str, reply: str) -> None:
    assert move(bigmoney.make(), hand) == reply


def test_the_buy_plan_is_made_once_per_turn_and_remade_next_turn() -> None:
    class Fickle(Strategy):
        """Wants Silver on its first plan of a turn, Gold if asked again."""

        plans = 0

        def buys(self, view: View) -> list[int]:
            self.plans += 1
            return [SILVER] if self.plans % 2 else [GOLD]

    strategy = Fickle(random.Random(0))
    bot = SexprPlayer(strategy)
    assert move(bot, "gold gold estate") == "(add gold)"
    assert move(bot, "gold estate", actions=0, coins=3, plays="gold") == "(add gold)"
    assert move(bot, "estate", actions=0, coins=6, plays="gold gold") == "(buy silver)"
    assert move(bot, "estate", actions=0, buys=0, coins=3, plays="gold gold") == "(clean estate)"
    assert strategy.plans == 1
    assert move(bot, "gold gold estate") == "(add gold)"
    assert strategy.plans == 2


def test_two_buys_are_two_plays() -> None:
    class TwoSilvers(BigMoney):
        def buys(self, view: View) -> list[int]:
            return [SILVER, SILVER]

    bot = SexprPlayer(TwoSilvers(random.Random(0)))
    assert move(bot, "estate", actions=0, buys=2, coins=6, plays="woodcutter gold") == (
        "(buy silver)"
    )
    assert move(bot, "estate", actions=0, buys=1, coins=3, plays="woodcutter gold") == (
        "(buy silver)"
    )
    assert move(bot, "estate", actions=0, buys=0, coins=0, plays="woodcutter gold") == (
        "(clean estate)"
    )


def test_an_unaffordable_or_sold_out_buy_is_not_sent() -> None:
    class Greedy(BigMoney):
        def buys(self, view: View) -> list[int]:
            return [PROVINCE]

    bot = SexprPlayer(Greedy(random.Random(0)))
    assert move(bot, "estate", actions=0, coins=5, plays="gold silver") == "(clean estate)"
    no_gold = supply(gold=0)
    assert move(bigmoney.make(), "estate", actions=0, coins=6, piles=no_gold) == ("(buy silver)")


def test_mine_upgrades_silver_to_gold_first_then_copper_to_silver() -> None:
    assert move(mine.make(), "mine silver copper estate estate") == "(act mine silver gold)"
    assert move(mine.make(), "mine copper copper estate estate") == "(act mine copper silver)"
    assert move(mine.make(), "mine estate estate estate duchy") == "(clean mine)"
    # Gold sold out: the Silver stays, a Copper becomes a Silver.
    no_gold = supply(gold=0)
    assert move(mine.make(), "mine silver copper estate", piles=no_gold) == (
        "(act mine copper silver)"
    )


def test_after_mine_the_gained_treasure_is_added_and_spent() -> None:
    bot = mine.make()
    assert move(bot, "mine silver copper copper estate") == "(act mine silver gold)"
    hand = "copper copper estate gold"
    assert move(bot, hand, actions=0, plays="mine") == "(add copper)"


def test_the_mine_bot_buys_one_mine_at_five() -> None:
    assert move(mine.make(), "estate", actions=0, coins=5, plays="silver silver copper") == (
        "(buy mine)"
    )
    owns_one = move(
        mine.make(), "estate", actions=0, coins=5, plays="silver silver copper", discards="mine"
    )
    assert owns_one == "(buy silver)"
    assert move(mine.make(), "estate", actions=0, coins=6, plays="gold gold") == "(buy gold)"
    assert MineBigMoney.name == "mine"


def test_smithy_is_played_then_the_drawn_treasures_added() -> None:
    piles = supply(tuple(KINGDOM))
    bot = smithy.make()
    assert move(bot, "smithy copper copper estate estate", piles=piles) == "(act smithy)"
    drawn = "copper copper estate estate gold silver copper"
    assert move(bot, drawn, actions=0, plays="smithy", piles=piles) == "(add copper)"


def test_militia_is_played() -> None:
    piles = supply(tuple(KINGDOM))
    assert move(militia.make(), "militia copper estate estate estate", piles=piles) == (
        "(act militia)"
    )


def test_an_illegal_action_is_replaced_by_buying() -> None:
    class BadMine(BigMoney):
        def action(self, view: View) -> Play | None:
            return (MINE, (SILVER,), PROVINCE) if view.actions else None

    bot = SexprPlayer(BadMine(random.Random(0)))
    assert move(bot, "mine silver silver estate estate") == "(add silver)"
    assert move(bigmoney.make(), "smithy copper", actions=0) == "(clean smithy)"


@pytest.mark.parametrize(
    ("hand", "reply"),
    [
        ("moat copper copper estate estate", "(moat)"),
        ("gold silver copper estate duchy", "(discard estate duchy)"),
        ("gold silver copper estate duchy province", "(discard estate duchy province)"),
        ("copper estate estate", "(discard)"),
    ],
)
def test_attacked_reveals_a_moat_or_discards_down_to_three(hand: str, reply: str) -> None:
    bot = bigmoney.make()
    assert say(bot, f"(attacked (act militia) you {state(hand, actions=0)})") == [reply]


def test_broadcasts_and_unknown_messages_get_no_reply() -> None:
    bot = militia.make()
    assert say(bot, "(moved you (buy gold))") == []
    assert say(bot, "(defended me (moat))") == []
    assert say(bot, "(hello)") == []


def test_an_unreadable_state_still_ends_the_turn() -> None:
    bot = bigmoney.make()
    assert say(bot, "(move ((hand copper dragon) (actions 1)))") == ["(clean copper)"]


def test_the_random_bot_only_makes_legal_plays_and_repeats_with_a_seed() -> None:
    piles = supply(tuple(KINGDOM))
    hands = ["cellar copper estate mine silver", "remodel workshop copper gold", "village moat"]
    answers = [[move(random_bot.make(5), h, piles=piles) for h in hands] for _ in range(2)]
    assert answers[0] == answers[1]
    # Each reply of a whole turn is applied by the referee to the very state it answered.
    config = DominionSexpr.validate_options({"version": 3})
    kinds: set[str] = set()
    for seed in range(8):
        for hand in hands:
            m = Referee([None, None], seed=seed, config=config)
            game = m.game
            seat = game.current
            game.hands[seat][:] = [card(c) for c in hand.split()]
            bot = random_bot.make(seed)
            while game.current == seat and not game.over:
                [reply] = bot.on_message(
                    wire(CODEC.encode([Symbol("move"), state_of(game, seat)]).decode())
                )
                play = wire(CODEC.encode(reply).decode())
                kinds.add(str(play[0]))
                m.apply(seat, play)  # BadPlay here is an illegal play
                for victim in list(game.pending):
                    game.discard_down(victim, game.random_discards(victim))
    assert kinds == {"act", "add", "buy", "clean"}


def program(bot: str, *args: str, messages: list[str]) -> list[str]:
    """What the built-in bot program ``bot`` (with ``args``) writes for ``messages``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PLUGIN_ROOT), env.get("PYTHONPATH", "")])
    proc = subprocess.run(
        [sys.executable, "-P", "-m", f"arena_dominion_sexpr.bots.{bot}", *args],
        input="".join(m + "\n" for m in messages),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=True,
    )
    return proc.stdout.splitlines()


def test_every_module_plays_the_strategy_of_its_name() -> None:
    for module, name in (
        (bigmoney, "bigmoney"),
        (mine, "mine"),
        (smithy, "smithy"),
        (militia, "militia"),
        (random_bot, "random"),
    ):
        assert module.make().name == name


def test_the_bot_program_speaks_over_stdin_and_stdout() -> None:
    messages = [
        "(moved you (buy silver))",
        f"(move {state('gold silver copper estate estate')})",
        f"(move {state('silver copper estate estate', actions=0, coins=3, plays='gold')})",
    ]
    assert program("bigmoney", messages=messages) == ["(add gold)", "(add silver)"]


def test_run_gives_the_random_program_its_seed() -> None:
    piles = supply(tuple(KINGDOM))
    hands = ["cellar copper estate mine silver", "remodel workshop copper gold", "village moat"]
    messages = [f"(move {state(hand, piles=piles)})" for hand in hands]
    seeded = program("random", "--seed", "5", messages=messages)
    assert seeded == program("random", "--seed", "5", messages=messages)
    in_process = random_bot.make(5)
    assert seeded == [reply for m in messages for reply in say(in_process, m)]
