"""``arena plugins`` served from its cache (no plugin imported) while the installed plugins
are as they were, and listing afresh what changed: a plugin installed, uninstalled,
edited or disabled. Real ``arena`` processes on a folder of installed distributions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from installed_dist import arena_with, install, stderr_lines

PLUGIN = """
from pathlib import Path

from arena_kernel.markers import hookimpl
from arena_kernel.testing.nim import Nim

with (Path(__file__).parent / "imported.log").open("a") as log:
    log.write("{name}\\n")

class Game(Nim):
    name = "{name}"
    summary = "{summary}"

@hookimpl
def arena_register_games(register):
    register(Game)
"""


def install_game(site: Path, name: str, summary: str = "a cached game") -> None:
    module = f"arena_{name}"
    install(site, f"arena-{name}", {name: module}, {module: PLUGIN.format(**locals())})


def uninstall(site: Path, name: str) -> None:
    shutil.rmtree(site / f"arena_{name}-1.0.dist-info")
    (site / f"arena_{name}.py").unlink()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    install_game(site, "cachedgame")
    return site


def games(site: Path, tmp_path: Path, **env: str) -> dict[str, str]:
    """The games ``arena plugins`` lists (name to summary), its cache in ``tmp_path``."""
    result = arena_with(
        site, "plugins", env={"ARENA_CACHE_DIR": str(tmp_path / "cache" / "arena"), **env}
    )
    assert result.returncode == 0, result.stderr
    assert stderr_lines(result) == []
    section = result.stdout.split("games:\n", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    return {line.split()[0]: line.split(None, 3)[3] for line in section}


def imports(site: Path) -> list[str]:
    log = site / "imported.log"
    return log.read_text().split() if log.exists() else []


def test_a_second_listing_imports_no_plugin(site: Path, tmp_path: Path) -> None:
    first = games(site, tmp_path)
    assert first["cachedgame"] == "a cached game"
    assert imports(site) == ["cachedgame"]
    assert games(site, tmp_path) == first
    assert games(site, tmp_path) == first
    # The first listing wrote the plugin's byte code beside it: one more listing at most.
    assert imports(site) in (["cachedgame"], ["cachedgame"] * 2)
    assert list((tmp_path / "cache" / "arena").glob("plugins-*.json"))


def test_an_installed_plugin_is_listed(site: Path, tmp_path: Path) -> None:
    games(site, tmp_path)
    install_game(site, "newgame")
    listed = games(site, tmp_path)
    assert {"cachedgame", "newgame"} <= listed.keys()
    assert "newgame" in imports(site)


def test_an_uninstalled_plugin_is_not_listed(site: Path, tmp_path: Path) -> None:
    install_game(site, "goner")
    assert "goner" in games(site, tmp_path)
    uninstall(site, "goner")
    listed = games(site, tmp_path)
    assert "goner" not in listed and "cachedgame" in listed


def test_an_edited_plugin_is_listed_as_it_is_now(site: Path, tmp_path: Path) -> None:
    games(site, tmp_path)
    module = site / "arena_cachedgame.py"
    module.write_text(module.read_text().replace("a cached game", "an edited game"))
    assert games(site, tmp_path)["cachedgame"] == "an edited game"


def test_a_disabled_plugin_is_listed_as_disabled(site: Path, tmp_path: Path) -> None:
    games(site, tmp_path)
    disabled = {"ARENA_DISABLE_PLUGINS": "cachedgame"}
    assert "cachedgame" not in games(site, tmp_path, **disabled)
    assert "cachedgame" in games(site, tmp_path)


def test_a_broken_plugin_is_said_each_time(site: Path, tmp_path: Path) -> None:
    install(site, "arena-broken", {"broken": "arena_broken"}, {"arena_broken": "import numpyy"})
    env = {"ARENA_CACHE_DIR": str(tmp_path / "cache" / "arena")}
    for _ in range(2):
        result = arena_with(site, "plugins", env=env)
        assert result.returncode == 0, result.stderr
        [warning] = stderr_lines(result)
        assert "arena-broken 1.0 (entry point broken) is broken" in warning
    assert not list((tmp_path / "cache" / "arena").glob("plugins-*.json")), "no listing kept"


def init(site: Path, tmp_path: Path, game: str):
    """``arena init GAME`` (it loads the installed plugins), its caches in ``tmp_path``."""
    env = {"ARENA_CACHE_DIR": str(tmp_path / "cache" / "arena")}
    return arena_with(site, "init", game, "-o", str(tmp_path / f"{game}.toml"), env=env)


def test_a_command_finds_a_plugin_installed_or_uninstalled_since_its_last_run(
    site: Path, tmp_path: Path
) -> None:
    """The entry points are kept between commands too: an install or an uninstall is seen."""
    assert init(site, tmp_path, "cachedgame").returncode == 0
    assert list((tmp_path / "cache" / "arena").glob("entry-points-arena-*.json"))
    install_game(site, "newgame")
    made = init(site, tmp_path, "newgame")
    assert made.returncode == 0, made.stderr
    assert 'game = "newgame"' in (tmp_path / "newgame.toml").read_text()
    uninstall(site, "newgame")
    gone = init(site, tmp_path, "newgame")
    assert gone.returncode == 2 and 'unknown game "newgame"' in gone.stderr
