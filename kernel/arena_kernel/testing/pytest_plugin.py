"""Fixtures for plugin authors, enabled automatically when arena is installed.

- ``arena_plugin_manager``: a fresh plugin manager with the built-ins and every installed
  ``arena`` entry point (the same as ``arena run`` would load).
- ``arena_register``: register a plugin module or object for this test only and get the
  resulting registries (a load error fails the test with the kernel's message).
- ``scripted_bot``: the argv of a real bot process that follows a script of answers
  (see :mod:`arena_kernel.testing.scripted`), to put in a match file's ``cmd``.
- ``arena_match``: write a match file for a game and some bots into the test's temporary
  folder (database and logs there too), ready for ``arena_kernel.runner.api.run_match``.
- ``arena_node``: the path of Node.js; skips without it.
- ``sandbox``: this machine's sandbox probe, for tests of sandboxed bots; skips where bots
  cannot be sandboxed, and fails instead under ``CI=true``.
- ``dask_cluster``: a Dask ``LocalCluster`` of two worker processes for a test module
  (its ``scheduler_address`` is what ``executor_options.dask.scheduler`` and ``arena run
  --scheduler`` take); skips without ``distributed``, and fails instead under ``CI=true``.
- ``report_browser``: a headless Chromium to check a written report's pages in (see
  :mod:`arena_kernel.testing.browser`); skips without Playwright or Chromium, and fails
  instead under ``CI=true``.

Every session's arena (the test process's and the ``arena`` commands its tests start)
keeps its caches (the installed plugins' entry points, ``arena plugins``' listing) in a
folder of the session's (``ARENA_CACHE_DIR``), not in the user's ``~/.cache/arena``.

A test in a folder named ``unit``, ``system`` or ``integration`` (at any depth under the
rootdir) gets the marker of that name, so ``-m "not system"`` is the quick loop of any
layout that sorts its tests by what they need.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from arena_kernel.registries.listing_cache import CACHE_VARIABLE
from arena_kernel.registries.manager import (
    ArenaPluginManager,
    get_plugin_manager,
    load_registries,
    register_plugin,
)
from arena_kernel.registries.registry import Registries
from arena_kernel.sandbox.probe import Probe, probe
from arena_kernel.testing.browser import ReportBrowser, unavailable
from arena_kernel.testing.scripted import command

TEST_KINDS = {
    "unit": "needs nothing but this process: no bot processes, sockets, browser or cluster",
    "system": "starts real processes (bots, arena, bubblewrap, a browser, a Dask cluster)",
    "integration": "needs every game plugin installed together",
}
"""The markers given by folder name, with what each kind of test needs."""


def pytest_configure(config: pytest.Config) -> None:
    for kind, needs in TEST_KINDS.items():
        config.addinivalue_line("markers", f"{kind}: {needs} (given by its folder's name)")


@pytest.fixture(scope="session", autouse=True)
def _arena_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Caches of the session's own (see the module's docstring): tests that install and
    remove plugins leave nothing in the user's folder."""
    os.environ[CACHE_VARIABLE] = str(tmp_path_factory.mktemp("arena-cache"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(config.rootpath):  # not the folders above the project
            folders = set(item.path.relative_to(config.rootpath).parts[:-1])
            for kind in TEST_KINDS.keys() & folders:
                item.add_marker(kind)


@pytest.fixture
def arena_plugin_manager() -> ArenaPluginManager:
    return get_plugin_manager()


@pytest.fixture
def arena_register(
    arena_plugin_manager: ArenaPluginManager,
) -> Callable[..., Registries]:
    """``arena_register(plugin, ...)`` -> the registries with those plugins added."""

    def register(*plugins: Any) -> Registries:
        for plugin in plugins:
            register_plugin(arena_plugin_manager, plugin)
        return load_registries(arena_plugin_manager)

    return register


@pytest.fixture
def scripted_bot() -> Callable[..., list[str]]:
    """``scripted_bot([{"reply": "take 1"}, {"exit": 3}], framing="line", only="move")``
    -> argv (``only``: the prefix of the messages that are requests)."""

    def argv(
        steps: list[dict[str, Any]], *, framing: str = "line", only: str = "", tcp: bool = False
    ) -> list[str]:
        cmd = [*command(steps)]
        cmd += ["--framing", framing]
        if only:
            cmd += ["--only", only]
        if tcp:
            cmd += ["--tcp", "{host}", "{port}"]
        return cmd

    return argv


@pytest.fixture
def arena_match(tmp_path: Path) -> Callable[..., Path]:
    """``arena_match("stones", {"mine": ["python3", "bot.py"], "rival": "random"},
    "rounds = 2")`` -> the path of a match file. A bot given as a string is one of the
    game's built-in bots; ``extra`` is TOML added before the bots (top-level keys first,
    then tables)."""

    def write(game: str, bots: dict[str, list[str] | str], extra: str = "") -> Path:
        lines = [
            f"game = {json.dumps(game)}",
            f"database = {json.dumps(str(tmp_path / 'arena.sqlite'))}",
            f"logs = {json.dumps(str(tmp_path / 'logs'))}",
            textwrap.dedent(extra),
        ]
        for name, bot in bots.items():
            how = (
                f"builtin = {json.dumps(bot)}"
                if isinstance(bot, str)
                else f"cmd = {json.dumps(bot)}"
            )
            lines.append(f"[[bots]]\nname = {json.dumps(name)}\n{how}")
        path = tmp_path / "match.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


@pytest.fixture
def arena_node() -> str:
    """The path of Node.js, for tests with bots written in JavaScript; skips without it."""
    path = shutil.which("node")
    if path is None:
        pytest.skip("Node.js is not installed")
    return path


def skip_unless_ci(reason: str) -> NoReturn:
    """Skip a test that lacks something this machine does not have, with the reason (shown
    by ``pytest -rs``); under ``CI=true`` fail instead: CI is meant to have everything
    installed, so a test it cannot run is a broken CI, not a skip nobody reads."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: required here)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def sandbox() -> Probe:
    """The probe of this machine's sandbox, for tests that run bots sandboxed (``mode =
    "required"``); skips with the probe's reason where such a run would be refused (no
    working bwrap, or no cap on a sandboxed bot's processes)."""
    found = probe()
    if found.refusal:
        skip_unless_ci(f"bots cannot be sandboxed here: {found.refusal}")
    return found


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[Any]:
    """A Dask cluster of two worker processes on this machine, shared by one module's
    tests (a test that kills a worker makes a cluster of its own:
    :func:`arena_kernel.testing.cluster.local_cluster`). Closed after the module: its
    connections come and go in a thread of the test process, which a later test counting
    its own file descriptors must not see."""
    from arena_kernel.testing.cluster import local_cluster

    with local_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="session")
def report_browser(request: pytest.FixtureRequest) -> Iterator[ReportBrowser]:
    """One headless Chromium for the session, a fresh page per check:
    ``report_browser.check_replay(report_dir, game_id, screenshot="name")`` and
    ``report_browser.check_run_page(path)``. Screenshots go to
    ``<rootdir>/test-artifacts/screenshots/``. Skips where Playwright or Chromium is
    missing (fails instead under ``CI=true``)."""
    missing = unavailable()
    if missing:
        skip_unless_ci(f"no browser for the report checks: {missing}")
    browser = ReportBrowser(request.config.rootpath / "test-artifacts" / "screenshots")
    try:
        yield browser
    finally:
        browser.close()
