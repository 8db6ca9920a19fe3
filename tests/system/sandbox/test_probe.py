"""The sandbox check of ``arena plugins`` (:func:`sandbox_works`, without the syscall
filter) answers as the probe does: where bwrap works, where it is missing, where it fails."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from arena_cli import arena

from arena_kernel.sandbox.probe import probe
from arena_kernel.sandbox.trial import sandbox_works

FAILING_BWRAP = "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n"


@pytest.fixture
def fresh_probe() -> Iterator[None]:
    """The probe asked again in this test, and again after it (it is kept per process)."""
    probe.cache_clear()
    yield
    probe.cache_clear()


def failing_bwrap(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    script = folder / "bwrap"
    script.write_text(FAILING_BWRAP)
    script.chmod(0o755)
    return folder


def test_the_check_answers_as_the_probe_here(fresh_probe: None) -> None:
    assert sandbox_works() == probe().works


def test_without_bwrap_neither_works(
    fresh_probe: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not sandbox_works()
    assert not probe().works


def test_with_a_failing_bwrap_neither_works(
    fresh_probe: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", f"{failing_bwrap(tmp_path / 'bin')}{os.pathsep}{os.environ['PATH']}")
    assert not sandbox_works()
    found = probe()
    assert not found.works
    assert "No permissions to create a new namespace" in found.describe()


def test_arena_plugins_warns_where_bots_cannot_be_sandboxed(tmp_path: Path) -> None:
    path = f"{failing_bwrap(tmp_path / 'bin')}{os.pathsep}{os.environ['PATH']}"
    result = arena("plugins", env={"PATH": path})
    assert result.returncode == 0, result.stderr
    [warning] = [line for line in result.stdout.splitlines() if line.startswith("warning: ")]
    assert warning.startswith("warning: bots run unsandboxed: bwrap fails here: bwrap: No perm")
