"""The match file's schema: every key declared once, and everything else derived from it.

A schema with one more key (a subclass of MatchSpec) shows the derivation end to end: the
loader reads and checks the key by its declaration, the run key takes it in when it is
part of the run's identity and set, ``arena init`` writes it, the key table lists it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from match_fakes import Nim, Rps, Stones, make_registries
from paths import REPO

from arena_kernel.errors import MatchFileError
from arena_kernel.match.loader import load_match, validate
from arena_kernel.match.schema import (
    FIRST_FORM,
    RUN_KEY_VERSION,
    declare,
    declared,
    markdown,
)
from arena_kernel.match.spec import (
    CLOCK_KEYED_SINCE,
    CLOCK_KEYS,
    LIMIT_KEYS,
    LIMITS_KEYED_SINCE,
    BotSpec,
    MatchSpec,
)
from arena_kernel.match.starter import starter_file
from arena_kernel.options import Option
from arena_kernel.registries.registry import Entry
from arena_kernel.sandbox.settings import BOT_SANDBOX_KEYS, SANDBOX_KEYS, SandboxSettings
from arena_kernel.transports.tcp import TcpTransport

README = REPO / "README.md"

BOTS = '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "greedy"\n'

FILES = {
    "defaults": 'game = "stones"\n' + BOTS,
    "everything": """\
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
plugins = ["my_plugin"]
max_message_kb = 64

[clock]
startup = 5
reply = 0.5
grace = 0
game = 0
kill = 1.5

[limits]
memory_mb = 512
cpu_seconds = 10
processes = 0
stderr_kb = 16

[game_options]
size = 12
komi = 1
rule = "misere"

[transport_options.tcp]
port = 9000
host = "127.0.0.1"

[[bots]]
name = "a"
builtin = "random"
inproc = true

[[bots]]
name = "b"
builtin = "greedy"
args = ["--depth", "2"]
transport = "stdio"

[[bots]]
name = "c"
connect = true
port = 6001
peer = "10.0.0.5"

[[bots]]
name = "d"
connect = true
""",
    "several seat counts": 'game = "stones"\nseats = [3, 2]\nrounds = 2\nseed = 7\n'
    + BOTS
    + '[[bots]]\nname = "c"\nbuiltin = "random"\n[clock]\nreply = 1\n',
}


@dataclass(frozen=True, kw_only=True)
class WithTeams(MatchSpec):
    """The schema with two more keys: one that changes the games, one that does not."""

    teams: int = declare(Option(1, "Seats per team.", minimum=1), keyed_since=RUN_KEY_VERSION + 1)
    note: str = declare(Option("none", "A word for the organisers."), keyed_since=None)


@pytest.fixture
def load_as(write, registries):
    def load_as(schema: type[MatchSpec], text: str) -> MatchSpec:
        return load_match(write(text), lambda plugins: registries, schema)

    return load_as


# Stored runs resume: the keys of existing files do not move


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("defaults", "308ffbc641c6654f"),
        ("everything", "cdb5e5bd9cc36253"),
        ("several seat counts", "685172bf5a536832"),
    ],
)
def test_existing_files_keep_the_key_their_runs_were_stored_under(load, name, key) -> None:
    # Computed by the loader and MatchSpec.key() as they were before the schema (commit
    # 4570249), which wrote the key's payload by hand.
    assert load(FILES[name]).key() == key


def test_the_sandbox_never_changes_the_run(load, tmp_path: Path) -> None:
    """The store records which mode each game ran under: a run started unsandboxed may
    resume sandboxed, with other paths or network."""
    (tmp_path / "shared").mkdir()
    sandbox = '[sandbox]\nmode = "none"\nnetwork = "host"\ntmp_mb = 8\nread_only = ["shared"]\n'
    text = FILES["everything"].replace("[clock]\n", sandbox + "[clock]\n")
    text = text.replace(
        'transport = "stdio"\n',
        'transport = "stdio"\nsandbox = { network = "none", read_write = ["shared"] }\n',
    )
    spec = load(text)
    assert (spec.sandbox.mode, spec.bots[1].sandbox["network"]) == ("none", "none")
    assert spec.key() == "cdb5e5bd9cc36253"


@pytest.mark.parametrize(
    ("line", "same"),
    [("", True), ("write_mb = 64", True), ("write_mb = 0", False), ("write_mb = 65", False)],
)
def test_a_limit_added_since_is_in_the_key_only_away_from_its_default(load, line, same) -> None:
    """``write_mb`` joined [limits] after runs were stored: a file that does not set it,
    or sets the default, resumes them; another cap is a run of its own."""
    text = FILES["everything"].replace("stderr_kb = 16\n", f"stderr_kb = 16\n{line}\n")
    assert (load(text).key() == "cdb5e5bd9cc36253") is same


@pytest.mark.parametrize(
    ("line", "same"),
    [
        ("", True),
        ('mode = "wall"', True),
        ("wall_cap = 10", True),
        ('mode = "cpu"', False),
        ("wall_cap = 3", False),
    ],
)
def test_a_clock_key_added_since_is_in_the_key_only_away_from_its_default(load, line, same) -> None:
    """The clock's mode and wall cap joined [clock] after runs were stored: a run on
    another clock is a run of its own, a file that does not set them resumes."""
    text = FILES["everything"].replace("[clock]\n", f"[clock]\n{line}\n")
    assert (load(text).key() == "cdb5e5bd9cc36253") is same


def test_only_the_fields_of_the_first_run_key_are_always_in_it() -> None:
    """A field that joined these would change the key of every stored run: none may."""
    first = {
        MatchSpec: {
            "game", "seed", "seats", "format", "challenger", "seatings", "rounds", "games",
            "codec", "transport", "max_message", "clock", "limits", "game_options",
            "transport_options", "bots",
        },
        BotSpec: {"name", "cmd", "builtin", "args", "inproc", "connect", "transport", "env", "cwd"},
    }  # fmt: skip
    later = {
        MatchSpec: {"sprt": 2, "knockout": 2},
        BotSpec: {},
    }  # in the key where a file sets them
    for spec, fields in first.items():
        since = {e.field: e.key.keyed_since for e in declared(spec)}
        assert {field for field, form in since.items() if form == FIRST_FORM} == fields
        assert {f: form for f, form in since.items() if form and form > FIRST_FORM} == later[spec]


def test_the_table_entries_that_joined_later_are_entries_of_their_tables() -> None:
    assert set(CLOCK_KEYED_SINCE) < set(CLOCK_KEYS)
    assert set(LIMITS_KEYED_SINCE) < set(LIMIT_KEYS)


def test_the_run_key_version_is_the_latest_form_any_key_joined_in() -> None:
    """A key added later says the form it joined in, and that form is the latest: the
    version tells a maintainer the number the next key joins with (one more)."""
    forms = [
        e.key.keyed_since
        for spec in (MatchSpec, BotSpec)
        for e in declared(spec)
        if e.key.keyed_since
    ]
    forms += [*CLOCK_KEYED_SINCE.values(), *LIMITS_KEYED_SINCE.values()]
    assert max(forms) == RUN_KEY_VERSION
    assert min(forms) == FIRST_FORM


# A new key in the schema


def test_a_new_identity_key_makes_a_new_run_only_where_a_file_sets_it(load_as) -> None:
    base = FILES["everything"].replace('name = "final"\n', "")
    stored = load_as(MatchSpec, base).key()
    assert load_as(WithTeams, base).key() == stored, "files that do not set it resume"
    assert load_as(WithTeams, "teams = 1\n" + base).key() == stored, "at its default too"
    two, three = (load_as(WithTeams, f"teams = {n}\n" + base).key() for n in (2, 3))
    assert len({stored, two, three}) == 3
    assert load_as(WithTeams, "teams = 2\n" + base).key() == two


def test_a_key_outside_the_identity_never_changes_the_run(load_as) -> None:
    base = FILES["defaults"]
    spec = load_as(WithTeams, 'note = "semi-final"\n' + base)
    assert spec.note == "semi-final"  # type: ignore[attr-defined]
    assert spec.key() == load_as(MatchSpec, base).key()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("teams = 0", "line 1: teams must be at least 1, not 0"),
        ('teams = "2"', 'line 1: teams must be an integer, not a string ("2")'),
        ("tems = 2", 'line 1: unknown top-level key "tems" (did you mean "teams"?)'),
    ],
)
def test_a_new_key_is_checked_by_its_declaration(write, registries, line, message) -> None:
    with pytest.raises(MatchFileError) as caught:
        load_match(write(f"{line}\n{FILES['defaults']}"), lambda plugins: registries, WithTeams)
    assert str(caught.value).startswith(f"{write('')}, {message}")


def test_a_new_key_is_in_the_starter_file_and_the_key_table(tmp_path: Path) -> None:
    registries = make_registries(Stones, Nim, Rps)
    text = starter_file("stones", registries, schema=WithTeams)
    assert "\n# Seats per team.\n# (at least 1)\nteams = 1\n" in text
    assert '\n# A word for the organisers.\nnote = "none"\n' in text
    # Written among the plain keys, before the first table, where TOML reads it as one.
    assert text.index("teams = 1") < text.index("[clock]")
    spec = validate(tomllib.loads(text), tmp_path / "m.toml", text, registries, WithTeams)
    assert (spec.teams, spec.note) == (1, "none")  # type: ignore[attr-defined]
    table = markdown(WithTeams)
    assert "| `teams` | an integer, at least 1 | 1 | yes | Seats per team. |" in table
    assert '| `note` | a string | "none" | no | A word for the organisers. |' in table
    assert "`teams`" not in markdown(MatchSpec)


@pytest.mark.parametrize("details", [{"default_text": "the game's"}, {"required": True}])
def test_a_new_identity_key_needs_a_fixed_default(details) -> None:
    """A default computed from the game or the machine would be in the key of files that
    never set the key: their stored runs would not resume."""
    with pytest.raises(TypeError, match="needs a fixed default"):
        declare(Option(None, "x", type=int), keyed_since=RUN_KEY_VERSION + 1, **details)


# Everything a person reads comes from the declarations


def readme_table() -> str:
    found = re.search(
        r"<!-- match-file keys: .*?-->\n(.*?)<!-- end of match-file keys -->",
        README.read_text(encoding="utf-8"),
        re.DOTALL,
    )
    assert found, "README.md has no match-file key table between its markers"
    return found.group(1)


def test_the_readme_key_table_is_the_schemas() -> None:
    assert readme_table() == markdown(MatchSpec), (
        "README.md's key table is out of date: regenerate it with "
        "python -m arena_kernel.match.schema --markdown"
    )


def comments(text: str) -> str:
    """The comment text of a starter file as one line, as wrapping does not matter."""
    return " ".join(line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#"))


def test_the_starter_file_writes_every_declared_key_with_its_help() -> None:
    text = starter_file("stones", make_registries(Stones, Nim, Rps))
    said = " ".join(comments(text).split())
    for entry in declared(MatchSpec):
        assert " ".join(entry.key.option.help.split()) in said, entry.name
        if entry.key.items is None and entry.key.option.value_type is not dict:
            assert re.search(rf"^(# )?{entry.name} = ", text, re.MULTILINE), entry.name
    for table, keys in (("clock", CLOCK_KEYS), ("limits", LIMIT_KEYS), ("sandbox", SANDBOX_KEYS)):
        section = text.split(f"\n[{table}]\n")[1].split("\n\n")[0]
        assert [line.split(" = ")[0] for line in section.splitlines() if " = " in line] == list(
            keys
        )
        assert all(" ".join(option.help.split()) in said for option in keys.values())
    for item in declared(BotSpec):
        assert f"{item.name}: {' '.join(item.key.option.help.split())}" in said, item.name
    for name, option in BOT_SANDBOX_KEYS.items():
        assert f"{name}: {' '.join(option.help.split())}" in said, name
    assert "\n[sandbox]\n" in text and '\nmode = "auto"\n' in text


def test_the_starter_files_sandbox_examples_load(tmp_path: Path) -> None:
    """Its [sandbox] at the defaults, and the commented bot's own table once uncommented."""
    registries = make_registries(Stones, Nim, Rps)
    text = starter_file("stones", registries)
    (tmp_path / "bots" / "out").mkdir(parents=True)
    block = text.split("# Your own program:\n")[1].split("\n\n")[0]
    mine = text.replace(block, re.sub("^# ", "", block, flags=re.MULTILINE))
    path = tmp_path / "m.toml"
    spec = validate(tomllib.loads(mine), path, mine, registries)
    assert spec.sandbox == SandboxSettings()
    assert spec.bots[-1].name == "mine"
    assert spec.bots[-1].sandbox == {"writable": (tmp_path / "bots" / "out",)}


class Relay(TcpTransport):
    """A transport that declares its options as a game does."""

    name = "relay"
    options = {
        "host": Option("127.0.0.1", "Where to listen."),
        "port": Option(0, "A fixed port.", minimum=0, maximum=65535),
    }


def test_the_starter_file_lists_the_transports_declared_options(tmp_path: Path) -> None:
    registries = make_registries(Stones)
    registries.transports.add(Entry("relay", Relay, "tests", "tests"))
    text = starter_file("stones", registries)
    assert (
        '# [transport_options.relay]\n# Where to listen.\n# host = "127.0.0.1"\n'
        "# A fixed port.\n# (at least 0; at most 65535)\n# port = 0\n"
    ) in text
    relay = text.replace("# [transport_options.relay]", "[transport_options.relay]")
    relay = relay.replace("# port = 0", "port = 7000", 1)  # relay, listed first
    spec = validate(tomllib.loads(relay), tmp_path / "m.toml", relay, registries)
    assert spec.transport_options == {"relay": {"port": 7000}}
