"""A game's ``bot_args``: appended to a ``cmd`` bot's command that names no placeholder, as
the game's original server launched its bots (Speed Clue: ``<identifier> <port>``)."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from plugin_modules import games_plugin

from arena_kernel.codecs.line import LineCodec
from arena_kernel.executors.lineup import Lineup
from arena_kernel.games.base import BuiltinBot, Game, Outcome
from arena_kernel.match.resolved import ResolvedMatch, resolve_bots
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.referee.clocks import Clocks
from arena_kernel.registries.manager import get_plugin_manager, load_registries
from arena_kernel.runner.api import run_match
from arena_kernel.store import Store


class PlainBot:
    def start(self) -> list[str]:
        return []

    def on_message(self, message: str) -> list[str]:
        return [message]


class Contest(Game):
    """Never played: only its class attributes matter to the lineup."""

    name = "contest"
    bot_args = ("{identifier}", "{port}")
    bots = {"plain": BuiltinBot("echoes", "contest.plain", ("--fast",), inproc=PlainBot)}

    async def play(self, table, seed, session):
        raise AssertionError("never played")


class NoArgs(Contest):
    name = "noargs"
    bot_args = ()


def lineup(game: Game, *bots: BotSpec) -> Lineup:
    spec = MatchSpec(path=Path("m.toml"), game=game.name, bots=bots, seats=(2,))
    registries = load_registries(get_plugin_manager(entry_points=False))
    resolved = resolve_bots(spec, type(game), registries)
    return Lineup(ResolvedMatch(spec, game, LineCodec(), Clocks(), resolved))


@pytest.mark.parametrize(
    ("cmd", "argv"),
    [
        (("./bot",), ("./bot", "{identifier}", "{port}")),
        (("java", "-jar", "bot.jar"), ("java", "-jar", "bot.jar", "{identifier}", "{port}")),
        # A command that names any placeholder says where they go: left as written.
        (("./bot", "{identifier}"), ("./bot", "{identifier}")),
        (("./bot", "--to={host}:{port}"), ("./bot", "--to={host}:{port}")),
        (("./bot", "--me", "id-{identifier}"), ("./bot", "--me", "id-{identifier}")),
        # Braces that are no placeholder do not count.
        (("./bot", '{"depth": 3}'), ("./bot", '{"depth": 3}', "{identifier}", "{port}")),
    ],
)
def test_a_cmd_bot_gets_the_games_bot_args_unless_it_names_a_placeholder(cmd, argv) -> None:
    bot = BotSpec("mine", cmd=cmd)
    assert lineup(Contest(), bot).program(bot).argv == argv


def test_a_game_without_bot_args_leaves_commands_alone() -> None:
    bot = BotSpec("mine", cmd=("./bot",))
    assert lineup(NoArgs(), bot).program(bot).argv == ("./bot",)


def test_built_in_and_connecting_bots_get_no_bot_args() -> None:
    program_bot = BotSpec("prog", builtin="plain", args=("--seed", "4"))
    inproc_bot = BotSpec("obj", builtin="plain", inproc=True)
    outside_bot = BotSpec("outside", connect=True)
    lined = lineup(Contest(), program_bot, inproc_bot, outside_bot)

    program = lined.program(program_bot)
    assert program.argv == (sys.executable, "-P", "-m", "contest.plain", "--fast", "--seed", "4")
    inproc = lined.program(inproc_bot)
    assert inproc.argv is None and inproc.inproc is PlainBot
    outside = lined.program(outside_bot)
    assert outside.argv is None and outside.connect


# Answers ``who`` with its command-line arguments, as JSON.
ECHO_ARGV = """
import json, sys
print("started", file=sys.stderr, flush=True)  # so that it has a stderr log
for line in sys.stdin:
    print(json.dumps(sys.argv[1:]), flush=True)
"""


class WhoAmI(Game):
    """Asks every seat ``who`` and keeps the answers in the outcome's details."""

    name = "whoami"
    bot_args = ("{identifier}",)

    async def play(self, table, seed, session):
        replies = await table.ask_many({0: "who", 1: "who"})
        heard = [json.loads(replies[seat].message) for seat in (0, 1)]
        return Outcome.draw(2, "asked", details={"heard": heard})


def test_a_bot_started_from_a_plain_command_receives_its_identifier(
    write_match, tmp_path: Path
) -> None:
    script = tmp_path / "echo_argv.py"
    script.write_text(textwrap.dedent(ECHO_ARGV))
    plain = [sys.executable, str(script)]
    placed = [sys.executable, str(script), "as", "{identifier}", "written"]
    path = write_match(
        f"""
        game = "whoami"
        games = 2
        [[bots]]
        name = "plain"
        cmd = {json.dumps(plain)}
        [[bots]]
        name = "placed"
        cmd = {json.dumps(placed)}
        """
    )
    summary = run_match(path, [games_plugin(WhoAmI)])
    assert summary.played == 2 and not summary.errors
    with Store(summary.run.database) as store:
        games = [(g.seating, store.game(g.game_id)) for g in store.results(summary.run.run_id)]
    for seating, detail in games:
        for seat, name in enumerate(seating):
            # The identifier the bot was launched with also names its stderr log.
            identifier = Path(detail.stderr_logs[seat]).name.removesuffix(".stderr")
            assert identifier == f"{seat}-{name}"
            answer = detail.details["heard"][seat]
            if name == "plain":
                assert answer == [identifier], "the identifier came as the appended argument"
            else:
                assert answer == ["as", identifier, "written"], "a placeholder command is kept"
