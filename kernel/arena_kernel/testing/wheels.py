"""A project built as a machine without a working C compiler builds it: for the tests that
an optional extension is optional."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

BUILD_WHEEL = "import setuptools.build_meta as backend; print(backend.build_wheel('dist'))"


def built_without_compiler(source: Path, into: Path) -> Path:
    """The project at ``source`` built into a wheel with a C compiler that always fails,
    the wheel unpacked into ``into`` (returned): the packages as such an install leaves
    them. An AssertionError carries the build's output when it fails."""
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    built = subprocess.run(
        [sys.executable, "-c", BUILD_WHEEL],
        cwd=source,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    wheel = source / "dist" / built.stdout.split()[-1]
    shutil.unpack_archive(wheel, into, "zip")
    return into
