"""The plugin template as a third party meets it: in a fresh venv, the kernel of this
checkout installed NON-editable (a wheel, as from PyPI) renders a project with its
``new-game`` command; the project's wheel, built and installed next to it, holds every
file (``arena plugins`` lists it, ``arena run`` plays its example match into SQLite,
``arena report`` draws its games with its own script), its own tests pass, and its tox
recipe tests it against this checkout's kernel.

Slow (about a minute) and needs PyPI, or pip's cache, for the kernel's dependencies,
pytest and tox: a pip that fails or stalls fails the test with one line saying so.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from paths import REPO

from arena_kernel import __version__
from arena_kernel.report.replay_files import read_records
from arena_kernel.store import Store

NAME = "guess_duel"
PIP_SECONDS = 600
"""Ample for pip on a slow network; past it the test fails rather than hang."""
NOT_PASSED_ON = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_", "TOX_", "ARENA_")
"""The test's own environment must not leak into the venv's commands (a PYTHONPATH to the
checkout would hide a missing file of the wheel; ARENA_DISABLE_PLUGINS would hide the
plugin)."""
NOT_BUILT = shutil.ignore_patterns(
    ".*", "__pycache__", "*.egg-info", "build", "dist", "*.sqlite*", "*-logs"
)


@dataclass(frozen=True)
class Venv:
    path: Path
    env: Mapping[str, str]

    def bin(self, program: str) -> str:
        return str(self.path / "bin" / program)

    def run(self, *argv: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, cwd=cwd, env=dict(self.env), capture_output=True, text=True, timeout=timeout
        )

    def pip_install(self, what: str, *requirements: str, cwd: Path) -> None:
        """``pip install`` with short network timeouts: a failure is one clear line."""
        argv = [self.bin("python"), "-m", "pip", "install", "--timeout", "30", "--retries", "2"]
        try:
            done = self.run(*argv, *requirements, cwd=cwd, timeout=PIP_SECONDS)
        except subprocess.TimeoutExpired:
            pytest.fail(
                f"pip did not install {what} within {PIP_SECONDS} s: is PyPI reachable?",
                pytrace=False,
            )
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            errors = [line.strip() for line in lines if line.strip().startswith("ERROR:")]
            why = " / ".join(errors or lines[-1:])
            pytest.fail(f"pip could not install {what} (is PyPI reachable?): {why}", pytrace=False)


@dataclass(frozen=True)
class Installed:
    venv: Venv
    kernel_source: Path
    project: Path
    wheel: Path
    """The plugin's wheel, built from the rendered project, that the venv installed."""


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A venv with the kernel installed from a folder, not editable, and the rendered
    plugin from a wheel built of it, as a plugin is published.

    The kernel is built from a copy of the checkout, so that pip's build leaves nothing
    in the working tree (nor meets another build there).
    """
    root = tmp_path_factory.mktemp("template")
    kernel_source = root / "kernel-source"
    shutil.copytree(REPO, kernel_source, ignore=NOT_BUILT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(NOT_PASSED_ON)}
    venv = Venv(root / "venv", {**env, "PATH": f"{root / 'venv' / 'bin'}{os.pathsep}{env['PATH']}"})
    subprocess.run([sys.executable, "-m", "venv", str(venv.path)], check=True, timeout=300)
    venv.pip_install("the kernel", str(kernel_source), "pytest", "tox", cwd=root)
    # The installed kernel renders the project: the template must be in its wheel.
    new_game = [venv.bin("arena"), "new-game"]
    rendered = venv.run(*new_game, NAME, "-o", str(root), cwd=root)
    assert rendered.returncode == 0, rendered.stderr
    project = root / "arena-guess-duel"
    wheels = root / "wheels"
    done = venv.run(
        venv.bin("python"),
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "-w",
        str(wheels),
        str(project),
        cwd=root,
        timeout=PIP_SECONDS,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = wheels.glob("*.whl")
    venv.pip_install("the rendered plugin's wheel", str(wheel), cwd=root)
    return Installed(venv, kernel_source, project, wheel)


def test_the_installed_kernel_is_a_wheel_not_this_checkout(installed: Installed) -> None:
    """What the other tests prove holds for the kernel as published."""
    code = "import arena_kernel as k, arena_guess_duel as g; print(k.__file__, g.__file__)"
    done = installed.venv.run(
        installed.venv.bin("python"), "-c", code, cwd=installed.project.parent
    )
    assert done.returncode == 0, done.stderr
    for module in done.stdout.split():
        assert Path(module).is_relative_to(installed.venv.path / "lib"), module


def test_arena_plugins_lists_the_game_and_its_distribution(installed: Installed) -> None:
    done = installed.venv.run(installed.venv.bin("arena"), "plugins", cwd=installed.project)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    assert [NAME, "arena-guess-duel", "0.1.0"] in [row[:3] for row in rows]
    assert "left out" not in done.stdout and not done.stderr


def test_arena_run_plays_the_example_match_into_sqlite(
    installed: Installed, no_leftover_processes
) -> None:
    match = installed.project / "examples" / "match.toml"
    spec = tomllib.loads(match.read_text())
    done = installed.venv.run(
        installed.venv.bin("arena"), "run", "-q", str(match), cwd=installed.project
    )
    assert done.returncode == 0, done.stderr
    no_leftover_processes()
    scheduled = spec["rounds"] * 2  # two bots: each round plays both seatings
    assert f"{scheduled} games played now" in done.stdout
    with closing(sqlite3.connect(match.parent / spec["database"])) as db:
        assert db.execute("SELECT game, total_games FROM runs").fetchall() == [(NAME, scheduled)]
        assert db.execute("SELECT count(*) FROM games").fetchone() == (scheduled,)
        bots = db.execute("SELECT bot, count(*) FROM seats GROUP BY bot ORDER BY bot").fetchall()
        assert bots == [("halving", scheduled), ("lucky", scheduled)]
        assert db.execute("SELECT count(*) FROM faults").fetchone() == (0,)
    # Event logs are compressed per game: read through the store, as arena replay does.
    with Store(match.parent / spec["database"]) as store:
        games = store.results(1)
        guesses = sum(e.kind == "recv" for g in games for e in store.events(g.game_id))
    assert guesses >= scheduled


def test_the_report_draws_the_games_with_the_drawing_script_of_the_wheel(
    installed: Installed,
) -> None:
    """The wheel ships the renderer's script: the report draws every game with it, none
    falls back to a transcript (an editable install would hide a file the wheel lacks)."""
    with zipfile.ZipFile(installed.wheel) as wheel:
        assert "arena_guess_duel/render.js" in wheel.namelist()
    match = installed.project / "examples" / "match.toml"
    database = match.parent / tomllib.loads(match.read_text())["database"]
    if not database.exists():
        played = installed.venv.run(
            installed.venv.bin("arena"), "run", "-q", str(match), cwd=installed.project
        )
        assert played.returncode == 0, played.stderr
    site = installed.project / "report"
    done = installed.venv.run(
        installed.venv.bin("arena"),
        "report",
        str(database),
        "-o",
        str(site),
        cwd=installed.project,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    shipped = (installed.project / "arena_guess_duel" / "render.js").read_text()
    assert (site / "assets" / "draw" / f"{NAME}.js").read_text() == shipped
    records = read_records(site)
    assert records and all(r["drawer"] == NAME and r["problem"] is None for r in records.values())


def test_the_template_passes_its_own_tests(installed: Installed) -> None:
    done = installed.venv.run(
        installed.venv.bin("pytest"), "-q", "-p", "no:cacheprovider", cwd=installed.project
    )
    assert done.returncode == 0, done.stdout[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary, summary


def test_the_tox_recipe_tests_the_plugin_against_this_checkouts_kernel(
    installed: Installed,
) -> None:
    kernel = f"arena-kernel @ {installed.kernel_source.as_uri()}"
    venv = Venv(installed.venv.path, {**installed.venv.env, "ARENA_KERNEL": kernel})
    try:
        done = venv.run(venv.bin("tox"), cwd=installed.project, timeout=PIP_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tox did not finish within {PIP_SECONDS} s: is PyPI reachable?", pytrace=False)
    assert done.returncode == 0, done.stdout[-3000:]
    assert f"arena-kernel {__version__}" in done.stdout.splitlines()  # what the tests ran on
    assert " passed" in done.stdout
