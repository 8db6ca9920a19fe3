"""Installed plugins that fail to load, and ARENA_DISABLE_PLUGINS, as a user meets them:
real distributions on the path of a real ``arena`` process."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from arena_cli import nim_in_process, one_error_line, stored
from installed_dist import arena_with, install, stderr_lines

NIM_MATCH = nim_in_process()

WORKING = """
from arena_kernel.markers import hookimpl
from arena_kernel.testing.nim import Nim

class FakeGame(Nim):
    name = "fakegame"
    summary = "a game from an installed distribution"

@hookimpl
def arena_register_games(register):
    register(FakeGame)
"""

BROKEN_IMPORT = """
import numpyy  # a dependency that is not installed
"""

BROKEN_REGISTRATION = """
from arena_kernel.markers import hookimpl
from arena_kernel.testing.rps import Rps

class HalfGame(Rps):
    name = "halfgame"

@hookimpl
def arena_register_codecs(register):
    pass

@hookimpl
def arena_register_games(register):
    register(HalfGame)
    raise RuntimeError("cannot find my data files")
"""

WRONG_KIND = """
from arena_kernel.markers import hookimpl
from arena_kernel.codecs.line import LineCodec

class WrongGame(LineCodec):
    name = "wronggame"

@hookimpl
def arena_register_games(register):
    register(WrongGame)
"""

MISSPELLED_HOOK = """
from arena_kernel.markers import hookimpl

@hookimpl
def arena_register_gmaes(register):
    pass
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder of installed distributions: one that works, one whose import fails."""
    site = tmp_path / "site"
    install(site, "arena-fakegame", {"fakegame": "arena_fakegame"}, {"arena_fakegame": WORKING})
    install(
        site,
        "arena-fakebroken",
        {"fakebroken": "arena_fakebroken"},
        {"arena_fakebroken": BROKEN_IMPORT},
        version="0.3.1",
    )
    return site


def rows_of(stdout: str, section: str) -> list[list[str]]:
    """The rows of one section of ``arena plugins`` (after its header and rule)."""
    lines = stdout.split(f"{section}:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line.split(None, 3) for line in lines[2:]]


def broken_line(line: str) -> None:
    """The one line that names a broken plugin: distribution, version, entry point, error."""
    assert line.startswith(
        "arena: warning: plugin arena-fakebroken 0.3.1 (entry point fakebroken) is broken: "
        "ModuleNotFoundError: No module named 'numpyy' (at "
    ), line
    assert "arena_fakebroken.py:2)" in line, "the place is the plugin's import line"
    assert "ARENA_DISABLE_PLUGINS=fakebroken" in line, "how to silence it"


def test_plugins_lists_a_broken_plugin_and_the_working_ones(site: Path) -> None:
    result = arena_with(site, "plugins")
    assert result.returncode == 0, result.stderr
    [warning] = stderr_lines(result)
    broken_line(warning)
    games = {row[0]: row for row in rows_of(result.stdout, "games")}
    assert games["fakegame"][1:3] == ["arena-fakegame", "1.0"]
    assert any(
        row[:3] == ["line", "arena", "(built-in)"] for row in rows_of(result.stdout, "codecs")
    )
    [left_out] = rows_of(result.stdout, "plugins left out")
    assert left_out[:3] == ["fakebroken", "arena-fakebroken", "0.3.1"]
    assert left_out[3].startswith("broken: ModuleNotFoundError: No module named 'numpyy'")


def test_a_run_goes_on_without_a_broken_plugin(
    site: Path, write_match: Callable[..., Path], tmp_path: Path
) -> None:
    result = arena_with(site, "run", "-q", str(write_match(NIM_MATCH)))
    assert result.returncode == 0, result.stderr
    [warning] = stderr_lines(result)
    broken_line(warning)
    assert "2 games played now" in result.stdout
    assert stored(tmp_path / "results.sqlite") == (1, 2)


def test_a_game_of_a_broken_plugin_is_an_error_that_says_why(site: Path, tmp_path: Path) -> None:
    result = arena_with(site, "init", "fakebroken")
    assert result.returncode == 2
    warning, error = stderr_lines(result)
    broken_line(warning)
    assert error.startswith('arena: error: unknown game "fakebroken"'), error
    assert (
        "its plugin arena-fakebroken 0.3.1 (entry point fakebroken) is broken: "
        "ModuleNotFoundError: No module named 'numpyy'"
    ) in error


def test_an_installed_plugin_whose_registration_fails_is_left_out_whole(
    site: Path, write_match: Callable[..., Path]
) -> None:
    install(
        site,
        "arena-halfgame",
        {"halfgame": "arena_halfgame"},
        {"arena_halfgame": BROKEN_REGISTRATION},
    )
    listing = arena_with(site, "plugins")
    assert listing.returncode == 0, listing.stderr
    warnings = stderr_lines(listing)
    assert len(warnings) == 2
    assert warnings[1].startswith(
        "arena: warning: plugin arena-halfgame 1.0 (entry point halfgame) is broken: "
        "arena_register_games failed: RuntimeError: cannot find my data files (at "
    ), warnings[1]
    games = [row[0] for row in rows_of(listing.stdout, "games")]
    assert "halfgame" not in games and "fakegame" in games
    statuses = {row[0]: row[3] for row in rows_of(listing.stdout, "plugins left out")}
    assert statuses["halfgame"].startswith("broken: arena_register_games failed: RuntimeError")

    run = arena_with(site, "run", "-q", str(write_match(NIM_MATCH)))
    assert run.returncode == 0, run.stderr
    assert len(stderr_lines(run)) == 2


def test_an_installed_plugin_with_a_misspelled_hook_is_left_out(site: Path) -> None:
    install(site, "arena-typo", {"typo": "arena_typo"}, {"arena_typo": MISSPELLED_HOOK})
    result = arena_with(site, "plugins")
    assert result.returncode == 0, result.stderr
    assert any(
        line.startswith("arena: warning: plugin arena-typo 1.0 (entry point typo) is broken: ")
        and "arena_register_gmaes" in line
        for line in stderr_lines(result)
    ), result.stderr


@pytest.mark.parametrize("names", ["fakebroken", "arena-fakebroken", " Arena_FakeBroken , x"])
def test_a_disabled_plugin_is_not_loaded_and_listed_as_disabled(site: Path, names: str) -> None:
    result = arena_with(site, "plugins", env={"ARENA_DISABLE_PLUGINS": names})
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "not even imported: a broken plugin is silenced"
    [left_out] = rows_of(result.stdout, "plugins left out")
    assert left_out == [
        "fakebroken",
        "arena-fakebroken",
        "0.3.1",
        "disabled by ARENA_DISABLE_PLUGINS",
    ]


def test_a_disabled_plugin_provides_nothing(site: Path, write_match: Callable[..., Path]) -> None:
    env = {"ARENA_DISABLE_PLUGINS": "fakebroken,arena-fakegame"}
    listing = arena_with(site, "plugins", env=env)
    assert "fakegame" not in [row[0] for row in rows_of(listing.stdout, "games")]
    assert len(rows_of(listing.stdout, "plugins left out")) == 2
    made = arena_with(site, "init", "fakegame", env=env)
    line = one_error_line(made, 'unknown game "fakegame"')
    assert line.endswith(
        "its plugin arena-fakegame 1.0 (entry point fakegame) is disabled by ARENA_DISABLE_PLUGINS"
    ), line


def test_a_match_file_for_the_game_of_a_broken_plugin_stops_with_why(
    site: Path, write_match: Callable[..., Path]
) -> None:
    match = write_match(NIM_MATCH.replace('"nim"', '"fakebroken"').replace("inproc = true", ""))
    result = arena_with(site, "run", str(match))
    assert result.returncode == 2
    warning, error = stderr_lines(result)
    broken_line(warning)
    assert error.startswith("arena: error: ") and 'game "fakebroken"' in error, error
    assert "is broken" in error, error


WRONG_CLASS = (
    "registered arena_wrongkind.WrongGame, which is a codec, not a game (a subclass of Game)"
)


def test_an_installed_plugin_registering_a_class_of_another_kind_is_left_out(
    site: Path, write_match: Callable[..., Path]
) -> None:
    install(
        site, "arena-wrongkind", {"wrongkind": "arena_wrongkind"}, {"arena_wrongkind": WRONG_KIND}
    )
    listing = arena_with(site, "plugins")
    assert listing.returncode == 0, listing.stderr
    warning = stderr_lines(listing)[-1]
    assert warning.startswith(
        "arena: warning: plugin arena-wrongkind 1.0 (entry point wrongkind) is broken: "
        + f"arena_register_games {WRONG_CLASS}"
    ), warning
    assert "wronggame" not in [row[0] for row in rows_of(listing.stdout, "games")]
    assert "wronggame" not in [row[0] for row in rows_of(listing.stdout, "codecs")]

    match = write_match(NIM_MATCH.replace('"nim"', '"wronggame"').replace("inproc = true", ""))
    run = arena_with(site, "run", str(match))
    assert run.returncode == 2, run.stderr
    error = stderr_lines(run)[-1]
    assert error.startswith("arena: error: ") and 'game "wronggame" is not installed' in error
    assert (
        "plugins left out: arena-fakebroken 0.3.1 (broken), arena-wrongkind 1.0 (broken)" in error
    )


def test_a_named_plugin_registering_a_class_of_another_kind_is_one_error(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "arena_wrongkind.py").write_text(WRONG_KIND)
    problem = f"arena_register_games of plugin arena_wrongkind {WRONG_CLASS}"
    listing = arena_with(site, "plugins", "-p", "arena_wrongkind")
    assert one_error_line(listing) == f"arena: error: {problem}"

    match = write_match(
        'plugins = ["arena_wrongkind"]\n' + NIM_MATCH.replace('"nim"', '"wronggame"')
    )
    run = arena_with(site, "run", str(match))
    assert one_error_line(run, str(match)).endswith(f"line 3: {problem}")
