"""Fixtures for the stones plugin's tests: match files and the Node.js bot."""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

NODE_BOT = Path(__file__).parent / "bots" / "random_bot.js"


@pytest.fixture
def node_bot() -> Callable[..., list[str]]:
    """``node_bot("--strings")`` -> the argv of the Node.js bot written from the spec."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    return lambda *args: [node, str(NODE_BOT), *args]


@pytest.fixture
def stones_match(tmp_path: Path) -> Callable[..., Path]:
    """Write a stones match file with the given bots (name -> argv or builtin name)."""

    def write(bots: dict[str, list[str] | str], extra: str = "") -> Path:
        lines = [
            'game = "stones"',
            f'database = "{tmp_path / "stones.sqlite"}"',
            f'logs = "{tmp_path / "logs"}"',
            textwrap.dedent(extra),
        ]
        for name, bot in bots.items():
            lines.append(f'[[bots]]\nname = "{name}"')
            if isinstance(bot, str):
                lines.append(f'builtin = "{bot}"')
            else:
                lines.append(f"cmd = {json.dumps(bot)}")
        path = tmp_path / "match.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    return write
