"""The cache of ``arena plugins``' listing: served while nothing it depends on changed, a
miss as soon as one thing did (an install, an uninstall, a reinstall, an edited module,
the disabled plugins), and no harm when its file or folder is unusable; and the cache of
the installed plugins' entry points, scanned again once the distributions change."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from arena_kernel.registries import installed
from arena_kernel.registries.installed import InstalledPlugin
from arena_kernel.registries.listing_cache import (
    FORMAT,
    KEPT_FILES,
    ListingCache,
    cache_folder,
    distributions,
    environment,
    loaded_files,
    stamp,
)

LISTING = {"kinds": {"game": [["nim", "arena (built-in)", "take stones"]]}, "left_out": []}


def dist_info(site: Path, name: str, entry_points: str = "[arena]\nx = x\n") -> Path:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Name: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    return info


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of one distribution, first on ``sys.path``."""
    site = tmp_path / "site"
    dist_info(site, "arena_one")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delenv("ARENA_DISABLE_PLUGINS", raising=False)
    return site


def kept(tmp_path: Path, files: list[Any] | None = None) -> None:
    ListingCache(tmp_path / "cache", environment()).write(LISTING, files or [])


def served(tmp_path: Path) -> Any:
    return ListingCache(tmp_path / "cache", environment()).read()


def test_a_listing_is_served_while_nothing_changed(site: Path, tmp_path: Path) -> None:
    module = tmp_path / "plugin.py"
    module.write_text("summary = 'a'\n")
    kept(tmp_path, [stamp(str(module))])
    assert served(tmp_path) == LISTING


def test_installing_a_distribution_is_a_miss(site: Path, tmp_path: Path) -> None:
    kept(tmp_path)
    dist_info(site, "arena_two")
    assert served(tmp_path) is None


def test_uninstalling_a_distribution_is_a_miss(site: Path, tmp_path: Path) -> None:
    kept(tmp_path)
    for file in (site / "arena_one-1.0.dist-info").iterdir():
        file.unlink()
    (site / "arena_one-1.0.dist-info").rmdir()
    assert served(tmp_path) is None


def test_reinstalling_a_distribution_is_a_miss(site: Path, tmp_path: Path) -> None:
    """Removed and made again at once, with the same files: another folder (its inode)."""
    kept(tmp_path)
    info = site / "arena_one-1.0.dist-info"
    info.rename(site / "old")
    dist_info(site, "arena_one")
    assert served(tmp_path) is None


def test_rewritten_entry_points_are_a_miss(site: Path, tmp_path: Path) -> None:
    kept(tmp_path)
    (site / "arena_one-1.0.dist-info" / "entry_points.txt").write_text("[arena]\ny = y\n")
    assert served(tmp_path) is None


def test_an_edited_module_is_a_miss(site: Path, tmp_path: Path) -> None:
    module = tmp_path / "plugin.py"
    module.write_text("summary = 'a'\n")
    kept(tmp_path, [stamp(str(module))])
    module.write_text("summary = 'another'\n")
    assert served(tmp_path) is None


def test_a_module_touched_alone_is_a_miss(site: Path, tmp_path: Path) -> None:
    """Same size, same inode: the modification time alone tells."""
    module = tmp_path / "plugin.py"
    module.write_text("summary = 'a'\n")
    kept(tmp_path, [stamp(str(module))])
    before = module.stat().st_mtime_ns
    os.utime(module, ns=(before + 10**9, before + 10**9))
    assert served(tmp_path) is None


def test_a_removed_module_is_a_miss(site: Path, tmp_path: Path) -> None:
    module = tmp_path / "plugin.py"
    module.write_text("summary = 'a'\n")
    kept(tmp_path, [stamp(str(module))])
    module.unlink()
    assert served(tmp_path) is None


def test_other_disabled_plugins_are_a_miss(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept(tmp_path)
    monkeypatch.setenv("ARENA_DISABLE_PLUGINS", "one")
    assert served(tmp_path) is None


def test_another_path_keeps_a_file_of_its_own(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path / "elsewhere"))
    assert served(tmp_path) is None
    kept(tmp_path)
    assert len(list((tmp_path / "cache").iterdir())) == 2


@pytest.mark.parametrize(
    "content",
    ["", "{not json", "[]", json.dumps({"format": FORMAT + 1}), json.dumps({"format": FORMAT})],
    ids=["empty", "damaged", "not an object", "another format", "no environment"],
)
def test_an_unusable_file_is_a_miss(site: Path, tmp_path: Path, content: str) -> None:
    cache = ListingCache(tmp_path / "cache", environment())
    cache.write(LISTING, [])
    cache.path.write_text(content)
    assert cache.read() is None


def test_a_folder_that_cannot_be_made_keeps_nothing(site: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = ListingCache(blocker / "cache", environment())
    cache.write(LISTING, [])  # no exception
    assert cache.read() is None


def test_distributions_are_the_metadata_folders_only(site: Path, tmp_path: Path) -> None:
    (site / "arena_one.py").write_text("")
    (site / "legacy.egg-info").mkdir()
    found = [Path(entry[0]).name for entry in distributions([str(site), str(tmp_path / "no")])]
    assert found == ["arena_one-1.0.dist-info", "legacy.egg-info"]


def test_loaded_files_leave_out_the_standard_library() -> None:
    files = {Path(entry[0]) for entry in loaded_files()}
    assert Path(__file__) in files
    assert Path(json.__file__) not in files and Path(os.__file__) not in files
    assert all(entry[1] is not None for entry in loaded_files()), "every one exists"


def test_the_cache_folder_follows_xdg(tmp_path: Path) -> None:
    assert cache_folder({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "arena"
    mine = {"ARENA_CACHE_DIR": str(tmp_path / "mine"), "XDG_CACHE_HOME": str(tmp_path)}
    assert cache_folder(mine) == tmp_path / "mine"
    assert cache_folder({}) == Path(os.path.expanduser("~")) / ".cache" / "arena"


# -- the installed plugins' entry points ------------------------------------------------


@pytest.fixture
def scans(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[list[InstalledPlugin]]:
    """Each scan of the distributions' metadata :func:`installed_plugins` makes, its cache
    in ``tmp_path``; the site's distribution declares one ``arena`` entry point."""
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "xdg" / "arena"))
    made: list[list[InstalledPlugin]] = []
    scanned = installed.scanned_plugins

    def scan(group: str) -> list[InstalledPlugin]:
        made.append(scanned(group))
        return made[-1]

    monkeypatch.setattr(installed, "scanned_plugins", scan)
    return made


def ours(plugins: list[InstalledPlugin]) -> list[str]:
    return [plugin.entry_point for plugin in plugins if plugin.distribution.startswith("arena_")]


def test_entry_points_are_scanned_once_while_the_distributions_stay(
    scans: list[list[InstalledPlugin]],
) -> None:
    first = installed.installed_plugins("arena")
    assert ours(first) == ["x"] and len(scans) == 1
    assert installed.installed_plugins("arena") == first
    assert len(scans) == 1, "the second came from the cache"


def test_entry_points_are_scanned_again_after_an_install(
    site: Path, scans: list[list[InstalledPlugin]]
) -> None:
    installed.installed_plugins("arena")
    dist_info(site, "arena_two", "[arena]\ntwo = two\n")
    assert ours(installed.installed_plugins("arena")) == ["x", "two"]
    assert len(scans) == 2


def test_entry_points_are_scanned_again_when_they_change(
    site: Path, scans: list[list[InstalledPlugin]]
) -> None:
    installed.installed_plugins("arena")
    (site / "arena_one-1.0.dist-info" / "entry_points.txt").write_text("[arena]\nrenamed = x\n")
    assert ours(installed.installed_plugins("arena")) == ["renamed"]


def test_entry_points_of_a_damaged_cache_are_scanned(
    site: Path, tmp_path: Path, scans: list[list[InstalledPlugin]]
) -> None:
    first = installed.installed_plugins("arena")
    [kept] = (tmp_path / "xdg" / "arena").glob("entry-points-arena-*.json")
    document = json.loads(kept.read_text())
    document["listing"] = [["too", "few"]]
    kept.write_text(json.dumps(document))
    assert installed.installed_plugins("arena") == first and len(scans) == 2


@pytest.mark.parametrize(
    ("target", "loaded"),
    [
        ("json", json),
        ("json:loads", json.loads),
        ("json:decoder.JSONDecoder", json.decoder.JSONDecoder),
        ("json : dumps [extra]", json.dumps),
    ],
)
def test_an_entry_point_loads_what_it_names(target: str, loaded: object) -> None:
    plugin = InstalledPlugin("name", target, "arena-thing", "1.0")
    assert plugin.load() is loaded


def test_a_folder_keeps_the_latest_files_of_a_kind(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One file per interpreter and path: those of paths seen once (a test's temporary
    folder) do not pile up."""
    folder = tmp_path / "cache"
    for number in range(KEPT_FILES + 5):
        monkeypatch.syspath_prepend(str(tmp_path / f"path{number}"))
        ListingCache(folder, environment()).write(LISTING, [])
    ListingCache(folder, environment(), kind="other").write(LISTING, [])
    assert len(list(folder.glob("plugins-*.json"))) == KEPT_FILES
    assert served(tmp_path) == LISTING, "the latest is kept"
    assert len(list(folder.glob("other-*.json"))) == 1, "another kind's are its own"


def test_a_zip_file_on_the_path_is_a_miss_once_it_changes(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = tmp_path / "plugins.zip"
    archive.write_bytes(b"PK\x05\x06" + bytes(18))
    monkeypatch.syspath_prepend(str(archive))
    kept(tmp_path)
    assert served(tmp_path) == LISTING
    archive.write_bytes(b"PK\x05\x06" + bytes(19))
    assert served(tmp_path) is None
