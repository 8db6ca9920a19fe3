"""Loading and validating match files: every problem is one precise MatchFileError."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from match_fakes import FakeGame, Nim, Rps, Stones, make_registries

from arena_kernel.errors import MatchFileError, PluginError
from arena_kernel.match.file_lines import find_line
from arena_kernel.match.loader import load_match, read_toml, validate
from arena_kernel.match.spec import BotSpec, MatchSpec
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.sandbox.settings import SandboxSettings

Fails = Callable[[str], str]
Load = Callable[[str], MatchSpec]

TWO_BOTS = """
[[bots]]
name = "a"
builtin = "random"

[[bots]]
name = "b"
builtin = "greedy"
"""

FULL = """\
game = "stones"
name = "final"
seed = -42
seats = 3
format = "gauntlet"
challenger = "b"
seatings = "permutations"
games = 12
concurrency = 3
database = "results/db.sqlite"
logs = "/var/tmp/arena-logs"
codec = "json"
transport = "tcp"
scorers = ["wins", "openskill"]
ranking = "openskill"
plugins = ["my_plugin"]
max_message_kb = 64

[clock]
startup = 5
reply = 0.5
grace = 0
game = 0
kill = 1.5
mode = "cpu"
wall_cap = 4

[limits]
memory_mb = 512
cpu_seconds = 10
processes = 0
stderr_kb = 16

[game_options]
size = 12
rule = "misere"

[transport_options.tcp]
port = 9000

[[bots]]
name = "a"
builtin = "random"
inproc = true

[[bots]]
name = "b"
cmd = ["python3", "bot.py", "{identifier}"]
transport = "stdio"
cwd = "bots"

[bots.env]
DEBUG = "1"

[[bots]]
name = "c"
connect = true
"""


def test_full_file_sets_every_field(write, registries) -> None:
    path = write(FULL)
    asked: list[tuple[str, ...]] = []

    def registries_for(plugins: tuple[str, ...]):
        asked.append(plugins)
        return registries

    spec = load_match(path, registries_for)
    assert asked == [("my_plugin",)]
    assert spec == MatchSpec(
        path=path,
        game="stones",
        bots=(
            BotSpec("a", builtin="random", inproc=True),
            BotSpec(
                "b",
                cmd=("python3", "bot.py", "{identifier}"),
                transport="stdio",
                env={"DEBUG": "1"},
                cwd=str(path.parent / "bots"),
            ),
            BotSpec("c", connect=True),
        ),
        seats=(3,),
        seed=-42,
        format="gauntlet",
        challenger="b",
        seatings="permutations",
        rounds=1,
        games=12,
        concurrency=3,
        database=path.parent / "results" / "db.sqlite",
        logs=Path("/var/tmp/arena-logs"),
        name="final",
        clock={
            "startup": 5.0,
            "reply": 0.5,
            "grace": 0.0,
            "game": None,
            "kill": 1.5,
            "mode": "cpu",
            "wall_cap": 4.0,
        },
        limits=ResourceLimits(memory_mb=512, cpu_seconds=10, processes=None, stderr_kb=16),
        max_message=64 * 1024,
        codec="json",
        transport="tcp",
        transport_options={"tcp": {"port": 9000}},
        scorers=("wins", "openskill"),
        ranking="openskill",
        game_options={"size": 12, "komi": 0.5, "rule": "misere", "swap": False},
        plugins=("my_plugin",),
    )


def test_defaults_are_filled_in(load: Load, tmp_path: Path) -> None:
    spec = load('game = "stones"\n' + TWO_BOTS)
    assert spec.name == "match"
    assert spec.seed == 0
    assert spec.seats == (2,)  # the game's smallest
    assert (spec.format, spec.challenger, spec.seatings) == ("round-robin", None, "rotations")
    assert (spec.rounds, spec.games) == (1, None)
    assert spec.concurrency == (os.cpu_count() or 1)
    assert spec.database == tmp_path / "arena.sqlite"
    assert spec.logs == tmp_path / "arena-logs"
    assert (spec.codec, spec.transport) == ("line", "stdio")  # the game's own
    assert spec.scorers == ("wins", "elo")
    # Stones' own clocks, with the kernel's defaults for what it does not set.
    assert spec.clock == {
        "startup": 10.0,
        "reply": 2.0,
        "grace": 0.1,
        "game": 30.0,
        "kill": 0.5,
        "mode": "wall",
        "wall_cap": 10.0,
    }
    assert spec.limits == ResourceLimits()
    assert spec.max_message == 1 << 20
    assert spec.game_options == {"size": 9, "komi": 0.5, "rule": "normal", "swap": False}
    assert spec.plugins == ()
    assert spec.bots == (BotSpec("a", builtin="random"), BotSpec("b", builtin="greedy"))


def test_a_command_runs_in_the_match_files_folder_by_default(load: Load, tmp_path: Path) -> None:
    text = 'game = "stones"\n' + TWO_BOTS + '[[bots]]\nname = "c"\ncmd = ["python3", "bot.py"]\n'
    text += '[[bots]]\nname = "d"\ncmd = ["./d"]\ncwd = "bots"\n'
    bots = load(text).bots
    assert bots[2].cwd == str(tmp_path), "bot.py next to the match file is found"
    assert bots[3].cwd == str(tmp_path / "bots")
    assert bots[0].cwd is None, "a built-in bot needs no folder"


def test_the_run_key_does_not_depend_on_how_the_path_is_written(
    write, registries, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = 'game = "stones"\n' + TWO_BOTS + '[[bots]]\nname = "c"\ncmd = ["python3", "bot.py"]\n'
    absolute = load_match(write(text), lambda plugins: registries)
    monkeypatch.chdir(tmp_path)
    relative = load_match(Path("match.toml"), lambda plugins: registries)
    assert relative.bots[2].cwd == str(tmp_path)
    assert relative.key() == absolute.key()


@pytest.mark.parametrize(
    ("seats", "scorers"), [(1, ("wins",)), (2, ("wins", "elo")), (3, ("wins", "openskill"))]
)
def test_default_scorers_fit_the_seat_count(seats: int, scorers: tuple[str, ...], write) -> None:
    class Any3(FakeGame):
        name = "any3"
        seats = (1, 2, 3)

    text = f'game = "any3"\nseats = {seats}\n' + "".join(
        f'[[bots]]\nname = "b{n}"\ncmd = ["x"]\n' for n in range(3)
    )
    registries = make_registries(Any3)
    assert load_match(write(text), lambda plugins: registries).scorers == scorers
    without = make_registries(Any3, scorers=("wins", "elo"))
    expected = tuple(name for name in scorers if name != "openskill")
    assert load_match(write(text), lambda plugins: without).scorers == expected


def test_gauntlet_challenger_defaults_to_first_bot(load: Load) -> None:
    assert load('game = "stones"\nformat = "gauntlet"\n' + TWO_BOTS).challenger == "a"


def test_games_and_rounds(load: Load) -> None:
    spec = load('game = "stones"\nrounds = 4\n' + TWO_BOTS)
    assert (spec.rounds, spec.games) == (4, None)


def test_unknown_top_level_key(fails: Fails) -> None:
    message = fails('game = "stones"\nsed = 3\n' + TWO_BOTS)
    assert message.startswith('match.toml, line 2: unknown top-level key "sed" (did you mean')
    assert '(did you mean "seed"?)' in message


def test_unknown_key_in_bots_names_the_bot_and_line(fails: Fails) -> None:
    text = 'game = "stones"\n' + TWO_BOTS.replace('builtin = "greedy"', 'comand = ["x"]')
    assert fails(text).startswith(
        'match.toml, line 9: bots[2]: unknown key "comand" (did you mean "cmd"?); allowed: '
    )


def test_wrong_type_says_expected_and_actual(fails: Fails) -> None:
    assert fails('game = "stones"\nseed = "x"\n' + TWO_BOTS) == (
        'match.toml, line 2: seed must be an integer, not a string ("x")'
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("rounds = 1.5", "rounds must be an integer, not a float (1.5)"),
        ("rounds = 0", "rounds must be at least 1, not 0"),
        ("concurrency = true", "concurrency must be an integer, not a boolean (true)"),
        ('scorers = "wins"', 'scorers must be an array of strings, not a string ("wins")'),
        ("scorers = []", "scorers must not be empty"),
        ('scorers = ["wins", "wins"]', "scorers lists a scorer twice"),
        (
            'ranking = "openskil"\nscorers = ["wins", "elo"]',
            'ranking "openskil" is not one of the scorers; scorers: wins, elo',
        ),
        ("ranking = 3", "ranking must be a string, not an integer (3)"),
        ("plugins = [1]", "plugins: item 1 must be a string, not an integer (1)"),
        (
            'format = "roundrobin"',
            'format must be "round-robin", "gauntlet", "swiss", "knockout" or "league", not '
            '"roundrobin" (did you mean "round-robin"?)',
        ),
        ('challenger = "a"', 'challenger is only used with format = "gauntlet"'),
        ("max_message_kb = 0", "max_message_kb must be at least 1, not 0"),
        ('name = " "', "name must not be empty"),
        ("clock = 3", "clock must be a table, not an integer (3)"),
        ("sandbox = 3", "sandbox must be a table, not an integer (3)"),
    ],
)
def test_top_level_value_errors(fails: Fails, line: str, expected: str) -> None:
    assert fails(f'game = "stones"\n{line}\n' + TWO_BOTS) == f"match.toml, line 2: {expected}"


def test_cmd_as_a_string_shows_the_argv_form(fails: Fails) -> None:
    text = 'game = "stones"\n[[bots]]\nname = "a"\ncmd = "python3 bot.py"\n' + TWO_BOTS
    assert fails(text) == (
        "match.toml, line 4: bots[1].cmd must be a list of strings (argv), "
        'e.g. ["python3", "bot.py"]'
    )


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        ('name = "c"', 'line 11: bots[3] ("c"): say how to run it: cmd = ['),
        ('name = "c"\ncmd = []', "line 13: bots[3].cmd must not be empty"),
        ('name = "c"\ncmd = ["x", ""]', "line 13: bots[3].cmd: item 2 must not be empty"),
        ('name = "c"\nconnect = false', 'line 11: bots[3] ("c"): say how to run it'),
        (
            'name = "c"\ncmd = ["x"]\nconnect = true',
            'bots[3] ("c"): give only one of cmd and connect',
        ),
        ('cmd = ["x"]', 'line 11: bots[3]: missing key "name"'),
        (
            'name = "c"\nbuiltin = "randon"',
            'line 13: game "stones" has no built-in bot "randon" (did you mean "random"?); '
            "built-in bots: random, greedy",
        ),
        (
            'name = "c"\nbuiltin = "greedy"\ninproc = true',
            'line 14: bots[3]: built-in bot "greedy" cannot run in-process',
        ),
        (
            'name = "c"\ncmd = ["x"]\ninproc = true',
            "line 14: bots[3].inproc only applies to builtin bots",
        ),
        (
            'name = "c"\nbuiltin = "random"\ninproc = true\ntransport = "tcp"',
            "line 15: bots[3].transport has no effect with inproc = true",
        ),
        (
            'name = "c"\nbuiltin = "random"\ninproc = true\ncwd = "x"',
            "line 15: bots[3].cwd has no effect with inproc = true",
        ),
        (
            'name = "c"\nconnect = true\nenv = {A = "1"}',
            "line 14: bots[3].env has no effect with connect = true",
        ),
        (
            'name = "c"\ncmd = ["x"]\nenv = {A = 1}',
            "line 14: bots[3].env.A must be a string, not an integer (1)",
        ),
        (
            'name = "c"\ncmd = ["x"]\ntransport = "tpc"',
            'line 14: transport "tpc" is not installed (did you mean "tcp"?); '
            "installed: stdio, tcp",
        ),
        ('name = "a"\ncmd = ["x"]', 'line 12: bots[3]: bot name "a" is used twice'),
        (
            'name = "c"\ncmd = ["x"]\nargs = ["-v"]',
            "line 14: bots[3].args only applies to a built-in bot run as a program",
        ),
        (
            'name = "c"\nbuiltin = "random"\ninproc = true\nargs = ["-v"]',
            "line 15: bots[3].args only applies to a built-in bot run as a program",
        ),
    ],
)
def test_bot_errors(fails: Fails, bot: str, expected: str) -> None:
    message = fails(f'game = "stones"\n{TWO_BOTS}\n[[bots]]\n{bot}\n')
    assert message.startswith("match.toml, ")
    assert expected in message


def test_builtin_bots_take_extra_arguments(load: Load) -> None:
    text = 'game = "stones"\n' + TWO_BOTS + '[[bots]]\nname = "c"\nbuiltin = "greedy"\n'
    text += 'args = ["--time", "0.5"]\n'
    assert load(text).bots[2].args == ("--time", "0.5")


def test_connect_bots_may_choose_their_transport(load: Load) -> None:
    text = (
        'game = "stones"\n' + TWO_BOTS + '[[bots]]\nname = "c"\nconnect = true\ntransport = "tcp"\n'
    )
    assert load(text).bots[2] == BotSpec("c", connect=True, transport="tcp")


def test_bots_must_be_an_array_of_tables(fails: Fails) -> None:
    assert fails('game = "stones"\n[bots]\nname = "a"\n') == (
        "match.toml, line 2: bots must be an array of tables ([[bots]]), not a table"
    )


def test_no_bots(fails: Fails) -> None:
    assert "no bots: add at least 2 [[bots]] tables" in fails('game = "stones"\n')


def test_too_few_bots_for_the_seats(fails: Fails) -> None:
    assert fails('game = "stones"\nseats = 3\n' + TWO_BOTS) == (
        "match.toml, line 4: 3 seats need at least 3 bots, but there are 2"
    )


def test_seats_not_supported_by_the_game(fails: Fails) -> None:
    assert fails('game = "stones"\nseats = 5\n' + TWO_BOTS) == (
        'match.toml, line 2: seats = 5 is not supported by game "stones"; it supports 2, 3, 4'
    )


def test_unknown_game(fails: Fails) -> None:
    assert fails('game = "stnoes"\n' + TWO_BOTS) == (
        'match.toml, line 1: game "stnoes" is not installed (did you mean "stones"?); '
        "installed: nim, rps, stones"
    )


def test_missing_game(fails: Fails) -> None:
    assert fails(TWO_BOTS) == (
        'match.toml: missing key "game" (the game to play); installed games: nim, rps, stones'
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            'codec = "jsn"',
            'codec "jsn" is not installed (did you mean "json"?); installed: json, line',
        ),
        ('transport = "studio"', 'transport "studio" is not installed (did you mean "stdio"?)'),
        ('scorers = ["wins", "eol"]', 'scorer "eol" is not installed (did you mean "elo"?)'),
    ],
)
def test_unknown_plugin_names(fails: Fails, line: str, expected: str) -> None:
    assert fails(f'game = "stones"\n{line}\n' + TWO_BOTS).startswith(
        f"match.toml, line 2: {expected}"
    )


def test_game_default_codec_must_be_installed(write) -> None:
    registries = make_registries(Rps, codecs=("line",))
    path = write(
        'game = "rps"\n[[bots]]\nname = "a"\ncmd = ["x"]\n[[bots]]\nname = "b"\ncmd = ["y"]\n'
    )
    with pytest.raises(
        MatchFileError, match='game "rps" uses codec "json", which is not installed'
    ):
        load_match(path, lambda plugins: registries)


def test_transport_options_need_an_installed_transport(fails: Fails) -> None:
    text = 'game = "stones"\n' + TWO_BOTS + "\n[transport_options.tpc]\nport = 1\n"
    assert fails(text).startswith(
        'match.toml, line 11: transport "tpc" is not installed (did you mean "tcp"?)'
    )


def test_transport_options_must_be_tables(fails: Fails) -> None:
    text = 'game = "stones"\n' + TWO_BOTS + "\n[transport_options]\ntcp = 1\n"
    assert fails(text) == (
        "match.toml, line 12: transport_options.tcp must be a table, not an integer (1)"
    )


@pytest.mark.parametrize(
    ("option", "expected"),
    [
        (
            "prot = 9000",
            'line 12: [transport_options.tcp]: transport "tcp" has no option "prot" '
            '(did you mean "port"?)',
        ),
        (
            'port = "9000"',
            'line 12: [transport_options.tcp]: port must be an integer, not a string ("9000")',
        ),
    ],
)
def test_transport_options_are_checked_against_the_transports_declarations(
    fails: Fails, option: str, expected: str
) -> None:
    text = 'game = "stones"\n' + TWO_BOTS + f"\n[transport_options.tcp]\n{option}\n"
    assert fails(text) == f"match.toml, {expected}"


def test_invalid_toml_gives_line_and_column(fails: Fails) -> None:
    message = fails('game = "stones"\n\nseed = = 1\n')
    assert message.startswith("match.toml, line 3, column 8: invalid TOML: ")


def test_an_empty_table_header_is_invalid_toml_not_a_crash(fails: Fails) -> None:
    assert fails('game = "stones"\n[.]\n').startswith("match.toml, line 2, column ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('database = "~nobody-here-xyz/r.sqlite"\n', "line 2: database: no home folder for"),
        (
            TWO_BOTS.replace('builtin = "greedy"', 'cmd = ["x"]\ncwd = "~nobody-here-xyz"'),
            "bots[2].cwd: no home folder for",
        ),
        ('[sandbox]\nread_only = ["~nobody-here-xyz"]\n', "line 3: sandbox.read_only: no home"),
        (
            TWO_BOTS.replace(
                'builtin = "greedy"', 'cmd = ["x"]\n[bots.sandbox]\nwritable = ["~nobody-here-xyz"]'
            ),
            "line 11: bots[2].sandbox.writable: no home folder for",
        ),
    ],
)
def test_a_home_folder_of_an_unknown_user_is_a_clear_error(
    fails: Fails, text: str, expected: str
) -> None:
    message = fails('game = "stones"\n' + text + ("" if "[[bots]]" in text else TWO_BOTS))
    assert expected in message and '"~nobody-here-xyz' in message, message


def test_game_table_next_to_game_key_gets_a_hint(fails: Fails) -> None:
    message = fails('game = "stones"\n\n[game]\nsize = 3\n')
    assert message.startswith("match.toml, line 3, column ")
    assert message.endswith("(the game's options go in [game_options])")


def test_game_as_a_table(fails: Fails) -> None:
    assert fails("[game]\nsize = 3\n" + TWO_BOTS) == (
        "match.toml, line 1: game must be the game's name (a string); "
        "its options go in [game_options]"
    )


def test_transport_as_a_table(fails: Fails) -> None:
    assert "transport options go in [transport_options.NAME]" in fails(
        'game = "stones"\n' + TWO_BOTS + "\n[transport.tcp]\nport = 1\n"
    )


def test_rounds_and_games_together(fails: Fails) -> None:
    assert fails('game = "stones"\nrounds = 2\ngames = 10\n' + TWO_BOTS) == (
        "match.toml, line 3: give rounds or games, not both"
    )


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("size = 40", "line 12: [game_options]: size must be at most 19, not 40"),
        (
            'size = "big"',
            'line 12: [game_options]: size must be an integer, not a string ("big")',
        ),
        (
            'rule = "misère"',
            'line 12: [game_options]: rule must be "normal" or "misere", not "misère" '
            '(did you mean "misere"?)',
        ),
        (
            "sise = 3",
            'line 12: [game_options]: game "stones" has no option "sise" (did you mean "size"?)',
        ),
    ],
)
def test_game_option_errors_name_the_key(fails: Fails, table: str, expected: str) -> None:
    assert (
        fails(f'game = "stones"\n{TWO_BOTS}\n[game_options]\n{table}\n')
        == f"match.toml, {expected}"
    )


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("[clock]\nreplay = 1", 'line 12: clock: unknown key "replay" (did you mean "reply"?)'),
        ("[clock]\nreply = 0", "line 12: clock.reply must be above 0, not 0"),
        ("[clock]\ngrace = -1", "line 12: clock.grace must be at least 0, not -1"),
        ('[clock]\nkill = "1"', 'line 12: clock.kill must be a number, not a string ("1")'),
        (
            '[clock]\nmode = "process"',
            'line 12: clock.mode must be "wall" or "cpu", not "process"',
        ),
        ("[clock]\nwall_cap = 0.5", "line 12: clock.wall_cap must be at least 1, not 0.5"),
        (
            "[limits]\nmemory = 1",
            'line 12: limits: unknown key "memory" (did you mean "memory_mb"?)',
        ),
        ("[limits]\ncpu_seconds = -1", "line 12: limits.cpu_seconds must be at least 0, not -1"),
        ("[limits]\nstderr_kb = 0", "line 12: limits.stderr_kb must be at least 1, not 0"),
        ("[limits]\nwrite_mb = -1", "line 12: limits.write_mb must be at least 0, not -1"),
        ("[limits]\nwrite_mb = 1.5", "line 12: limits.write_mb must be an integer, not a float"),
    ],
)
def test_clock_and_limits_errors(fails: Fails, table: str, expected: str) -> None:
    assert fails(f'game = "stones"\n{TWO_BOTS}\n{table}\n').startswith(f"match.toml, {expected}")


# The sandbox: [sandbox] for every bot, [bots.sandbox] for one


def test_sandbox_tables_load_with_absolute_paths(
    load: Load, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for folder in ("shared", "data", "home/lib", "bots/b/out", "bots/b/cache", "other"):
        (tmp_path / folder).mkdir(parents=True)
    spec = load(
        'game = "stones"\n'
        '[sandbox]\nmode = "required"\nnetwork = "host"\nsyscalls = "all"\ntmp_mb = 16\n'
        'read_only = ["shared", "~/lib", "/usr"]\nread_write = ["data"]\n'
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\ncmd = ["./b"]\ncwd = "bots/b"\n'
        '[bots.sandbox]\nnetwork = "none"\nsyscalls = "filtered"\n'
        'writable = ["out", "cache/../cache", "."]\n'
        'read_only = ["other"]\nread_write = []\n'
        '[[bots]]\nname = "c"\ncmd = ["./c"]\n'
        f'sandbox = {{ writable = ["{tmp_path}/data"] }}\n'
    )
    assert spec.sandbox == SandboxSettings(
        mode="required",
        network="host",
        syscalls="all",
        tmp_mb=16,
        read_only=(tmp_path / "shared", tmp_path / "home" / "lib", Path("/usr")),
        read_write=(tmp_path / "data",),
    )
    b = tmp_path / "bots" / "b"
    assert [bot.sandbox for bot in spec.bots] == [
        {},
        {
            "network": "none",
            "syscalls": "filtered",
            "writable": (b / "out", b / "cache" / ".." / "cache", b),
            "read_only": (tmp_path / "other",),
            "read_write": (),
        },
        {"writable": (tmp_path / "data",)},  # absolute, inside its folder (the match file's)
    ]


def test_without_sandbox_tables_the_defaults_hold(load: Load) -> None:
    spec = load('game = "stones"\n' + TWO_BOTS)
    assert spec.sandbox == SandboxSettings()
    assert spec.limits.write_mb == ResourceLimits().write_mb
    assert all(bot.sandbox == {} for bot in spec.bots)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('[sandbox]\nmod = "none"', 'line 12: sandbox: unknown key "mod" (did you mean "mode"?)'),
        (
            '[sandbox]\nmode = "requried"',
            'line 12: sandbox.mode must be "auto", "required" or "none", not "requried" '
            '(did you mean "required"?)',
        ),
        ("[sandbox]\nmode = true", "line 12: sandbox.mode must be a string, not a boolean"),
        (
            '[sandbox]\nnetwork = "all"',
            'line 12: sandbox.network must be "none" or "host", not "all"',
        ),
        (
            '[sandbox]\nsyscalls = "none"',
            'line 12: sandbox.syscalls must be "filtered" or "all", not "none"',
        ),
        ("[sandbox]\ntmp_mb = 0", "line 12: sandbox.tmp_mb must be at least 1, not 0"),
        (
            '[sandbox]\nread_only = "shared"',
            'line 12: sandbox.read_only must be an array of strings, not a string ("shared")',
        ),
        ('[sandbox]\nread_write = [""]', "line 12: sandbox.read_write: item 1 must not be empty"),
        (
            '[sandbox]\nmode = "none"\nread_write = ["missing"]',
            "line 13: sandbox.read_write: missing does not exist (a sandbox binds only what "
            "exists)",
        ),
        (
            '[sandbox]\nread_only = ["match.toml/x"]',
            "line 12: sandbox.read_only: match.toml/x does not exist",
        ),
    ],
)
def test_sandbox_table_errors(fails: Fails, table: str, expected: str) -> None:
    assert fails(f'game = "stones"\n{TWO_BOTS}\n{table}\n').startswith(f"match.toml, {expected}")


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        (
            'connect = true\nsandbox = { network = "host" }',
            "line 14: bots[3].sandbox has no effect with connect = true (arena starts no process)",
        ),
        (
            'builtin = "random"\ninproc = true\n[bots.sandbox]\nnetwork = "host"',
            "line 15: bots[3].sandbox has no effect with inproc = true (arena starts no process)",
        ),
        (
            'connect = true\n[bots.sandbox]\nwritable = ["out"]',
            "line 14: bots[3].sandbox has no effect with connect = true",
        ),
        (
            'cmd = ["x"]\nsandbox = 1',
            "line 14: bots[3].sandbox must be a table, not an integer (1)",
        ),
        (
            'cmd = ["x"]\n[bots.sandbox]\nwriteable = ["out"]',
            'line 15: bots[3].sandbox: unknown key "writeable" (did you mean "writable"?); '
            "allowed: network, syscalls, writable, read_only, read_write",
        ),
        (
            'cmd = ["x"]\nsandbox = { tmp_mb = 8 }',
            'line 14: bots[3].sandbox: unknown key "tmp_mb"',
        ),
        (
            'cmd = ["x"]\n[bots.sandbox]\nnetwork = "hots"',
            'line 15: bots[3].sandbox.network must be "none" or "host", not "hots" '
            '(did you mean "host"?)',
        ),
        (
            'cmd = ["x"]\n[bots.sandbox]\nwritable = "out"',
            'line 15: bots[3].sandbox.writable must be an array of strings, not a string ("out")',
        ),
        (
            'builtin = "random"\n[bots.sandbox]\nwritable = ["out"]',
            'line 15: bots[3].sandbox.writable: bot "c" has no folder of its own; give it a cwd',
        ),
        (
            'cmd = ["x"]\ncwd = "bots"\n[bots.sandbox]\nwritable = ["../shared"]',
            'line 16: bots[3].sandbox.writable: "../shared" is outside the folder of bot "c" '
            "(bots); a bot may write only inside its cwd",
        ),
        (
            'cmd = ["x"]\ncwd = "bots"\n[bots.sandbox]\nwritable = ["/tmp"]',
            'line 16: bots[3].sandbox.writable: "/tmp" is outside the folder of bot "c"',
        ),
        (
            'cmd = ["x"]\ncwd = "bots"\nsandbox = { writable = ["~"] }',
            'line 15: bots[3].sandbox.writable: "~" is outside the folder of bot "c"',
        ),
        (
            'cmd = ["x"]\ncwd = "bots"\nsandbox = { writable = ["out"] }',
            "line 15: bots[3].sandbox.writable: bots/out does not exist",
        ),
        (
            'cmd = ["x"]\nsandbox = { read_only = ["lib"] }',
            "line 14: bots[3].sandbox.read_only: lib does not exist",
        ),
        (
            'cmd = ["x"]\ncwd = "bots"\n[bots.sandbox]\nread_write = ["nothing-here"]',
            "line 16: bots[3].sandbox.read_write: nothing-here does not exist",
        ),
    ],
)
def test_bot_sandbox_errors(fails: Fails, tmp_path: Path, bot: str, expected: str) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "shared").mkdir()
    message = fails(f'game = "stones"\n{TWO_BOTS}\n[[bots]]\nname = "c"\n{bot}\n')
    assert message.startswith(f"match.toml, {expected}"), message


def test_a_writable_path_may_not_leave_the_bots_folder_by_a_symlink(
    fails: Fails, tmp_path: Path
) -> None:
    (tmp_path / "bots" / "c").mkdir(parents=True)
    (tmp_path / "bots" / "c" / "up").symlink_to(tmp_path)
    text = f'game = "stones"\n{TWO_BOTS}\n[[bots]]\nname = "c"\ncmd = ["x"]\ncwd = "bots/c"\n'
    assert fails(text + 'sandbox = { writable = ["up"] }\n') == (
        'match.toml, line 15: bots[3].sandbox.writable: "up" is outside the folder of bot "c" '
        "(bots/c); a bot may write only inside its cwd"
    )


def test_gauntlet_checks(fails: Fails, load: Load) -> None:
    gauntlet = 'game = "stones"\nformat = "gauntlet"\n'
    assert fails(gauntlet + 'challenger = "c"\n' + TWO_BOTS) == (
        'match.toml, line 3: challenger "c" is not one of the bots; bots: a, b'
    )
    nim_one = 'game = "nim"\nformat = "gauntlet"\n[[bots]]\nname = "a"\nbuiltin = "random"\n'
    assert "2 seats need at least 2 bots" in fails(nim_one)
    assert load(gauntlet + 'challenger = "b"\n' + TWO_BOTS).challenger == "b"


def test_relative_paths_are_relative_to_the_match_file(tmp_path: Path, registries) -> None:
    folder = tmp_path / "sub"
    folder.mkdir()
    path = folder / "m.toml"
    path.write_text(
        'game = "stones"\ndatabase = "../db.sqlite"\nlogs = "/abs/logs"\n'
        '[[bots]]\nname = "a"\ncmd = ["x"]\ncwd = "bots/a"\n'
        '[[bots]]\nname = "b"\ncmd = ["y"]\n'
    )
    old = Path.cwd()
    os.chdir(tmp_path.parent)  # the working directory must not matter
    try:
        spec = load_match(Path(os.path.relpath(path)), lambda plugins: registries)
    finally:
        os.chdir(old)
    assert spec.database == folder / ".." / "db.sqlite"
    assert spec.logs == Path("/abs/logs")
    assert spec.bots[0].cwd == str(folder / "bots" / "a")
    assert spec.name == "m"


def test_missing_file_and_folder(tmp_path: Path, registries) -> None:
    with pytest.raises(MatchFileError, match=r"nope\.toml: no such match file$"):
        load_match(tmp_path / "nope.toml", lambda plugins: registries)
    with pytest.raises(MatchFileError, match="is a folder, not a match file"):
        load_match(tmp_path, lambda plugins: registries)


def test_not_utf8(write, registries) -> None:
    path = write("")
    path.write_bytes(b'game = "\xff"\n')
    with pytest.raises(MatchFileError, match="not valid UTF-8"):
        load_match(path, lambda plugins: registries)


def test_plugin_errors_name_the_file(write) -> None:
    path = write('game = "stones"\nplugins = ["nope"]\n' + TWO_BOTS)

    def registries_for(plugins: tuple[str, ...]):
        raise PluginError(f'cannot import plugin module "{plugins[0]}"')

    with pytest.raises(MatchFileError) as caught:
        load_match(path, registries_for)
    assert str(caught.value) == f'{path}, line 2: cannot import plugin module "nope"'


def test_plugins_give_the_registries_used_for_validation(write) -> None:
    path = write('game = "nim"\nplugins = ["nim_plugin"]\n' + TWO_BOTS.replace("greedy", "random"))
    with_nim = make_registries(Nim)
    assert load_match(path, lambda p: with_nim if p else make_registries(Stones)).game == "nim"


def test_validate_can_be_called_with_parsed_text(write, registries) -> None:
    path = write(
        'game = "nim"\n[[bots]]\nname = "a"\ncmd = ["x"]\n[[bots]]\nname = "b"\ncmd = ["y"]\n'
    )
    raw, text = read_toml(path)
    assert validate(raw, path, text, registries).bots[1].cmd == ("y",)


@pytest.mark.parametrize(
    ("path", "line"),
    [
        (("seed",), 2),
        (("clock",), 5),
        (("clock", "reply"), 7),
        (("bots",), 9),
        (("bots", 1), 12),
        (("bots", 1, "cmd"), 14),
        (("bots", 1, "env", "X"), 16),
        (("bots", 0, "env"), 11),
        (("transport_options", "tcp", "port"), 19),
        (("missing",), None),
        (("bots", 5, "cmd"), None),
        (("transport_options", "udp"), None),
        (("bots", 0, "cmd"), 9),
    ],
)
def test_find_line(path: tuple[str | int, ...], line: int | None) -> None:
    text = """\
game = "x"
seed = 1

# the clock
[clock]
startup = 1
reply = 2

[[bots]]
name = "a"
env = { X = "1" }
[[ bots ]]  # second
name = "b"
cmd = ["y"]
[bots.env]
X = "2"

[ "transport_options" . tcp ]
port = 1
"""
    assert find_line(text, path) == line
