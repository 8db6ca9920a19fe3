"""Fixtures for the stones plugin's tests: match files, the Node.js bot and the Java bot."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

BOTS = Path(__file__).parent / "bots"
NODE_BOT = BOTS / "random_bot.js"
JAVA_BOT = BOTS / "GsonStyleBot.java"


@pytest.fixture
def node_bot(arena_node: str) -> Callable[..., list[str]]:
    """``node_bot("--strings")`` -> the argv of the Node.js bot written from the spec."""
    return lambda *args: [arena_node, str(NODE_BOT), *args]


@pytest.fixture
def stones_match(arena_match: Callable[..., Path]) -> Callable[..., Path]:
    """A stones match file with the given bots (name -> argv, or a built-in bot's name)."""
    return lambda bots, extra="": arena_match("stones", bots, extra)


@pytest.fixture(scope="session")
def java_bot(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., list[str]]:
    """``java_bot("--int-type")`` -> the argv of the Java bot that passes the way Gson
    writes it (``{"Type":"0"}``), compiled once per session; skips without a JDK."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        pytest.skip("a JDK (javac and java) is not installed")
    classes = tmp_path_factory.mktemp("java_bot")
    subprocess.run([javac, "-d", str(classes), str(JAVA_BOT)], check=True)
    classes.chmod(0o755)  # a bot of an arena run as root reads only what any user may
    return lambda *args: [java, "-cp", str(classes), JAVA_BOT.stem, *args]
