"""arena's import names cannot clash with other projects': a project with its own
``kernel.py`` (PyPI's ``kernel`` is an unrelated package) runs pytest normally in an
environment where arena-kernel's pytest plugin is installed, and arena's command works
from inside such a folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

KERNEL_PY = '"""Someone else\'s module called kernel."""\n\nVALUE = 42\n'
TEST_PY = "import kernel\n\n\ndef test_their_kernel():\n    assert kernel.VALUE == 42\n"


def test_pytest_runs_normally_in_a_project_with_its_own_kernel_module(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text(KERNEL_PY)
    (tmp_path / "test_theirs.py").write_text(TEST_PY)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_theirs.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    plugins = subprocess.run(
        [sys.executable, "-m", "pytest", "--trace-config", "--co", "-q", "test_theirs.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "arena_kernel.testing.pytest_plugin" in plugins.stdout, "the plugin was loaded"


def test_arena_works_from_a_folder_with_a_kernel_module(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text("raise SystemExit('the wrong kernel was imported')\n")
    done = subprocess.run(
        [sys.executable, "-m", "arena_kernel", "plugins"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "stdio" in done.stdout
