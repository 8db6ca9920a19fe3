"""Fixtures for the transport tests: real bot scripts written to tmp_path, and launches."""

from __future__ import annotations

import itertools
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena_kernel.bot_clocks import BotClocks
from arena_kernel.codecs.line import LineCodec
from arena_kernel.resource_limits import ResourceLimits
from arena_kernel.transports.base import BotProgram, Launch


@pytest.fixture
def bot_script(tmp_path: Path) -> Callable[[str], tuple[str, ...]]:
    """``bot_script(source)`` -> the argv of a Python bot running ``source``."""
    numbers = itertools.count(1)

    def write(source: str) -> tuple[str, ...]:
        path = tmp_path / f"bot{next(numbers)}.py"
        path.write_text(textwrap.dedent(source))
        return (sys.executable, str(path))

    return write


@pytest.fixture
def make_launch(tmp_path: Path) -> Callable[..., Launch]:
    """``make_launch(argv, **overrides)`` -> a Launch with a line codec and quick clocks."""
    numbers = itertools.count(1)

    def make(
        argv: tuple[str, ...] | None = None,
        *,
        identifier: str | None = None,
        limits: ResourceLimits | None = None,
        startup: float = 5.0,
        kill_grace: float = 0.5,
        clocks: BotClocks | None = None,
        **program: Any,
    ) -> Launch:
        return Launch(
            program=BotProgram("bot", argv=argv, **program),
            codec=LineCodec(),
            identifier=identifier or f"bot{next(numbers)}",
            limits=limits or ResourceLimits(),
            log_dir=tmp_path / "logs",
            startup=startup,
            kill_grace=kill_grace,
            clocks=clocks,
        )

    return make
