"""Fixtures for the stones plugin's tests: match files, the Node.js bot, the Java bot and a
small endgame."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from arena_stones.rules import ANY_MOVE, BLACK, WHITE, A, B, C, Position, encode

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


@pytest.fixture
def endgame() -> dict[tuple[int, int], int]:
    """A small endgame as stacks by (x, y): black's only Tzaar (4, 3) is in reach of white's
    Tzarras (4, 2) and (1, 0); white's only Tott (0, 0) has that Tzarra (1, 0) beside it,
    which could bury it."""
    return {
        (0, 0): encode(WHITE, A, 1),
        (1, 0): encode(WHITE, B, 1),
        (2, 0): encode(WHITE, C, 1),
        (4, 2): encode(WHITE, B, 2),
        (4, 3): encode(BLACK, C, 1),
        (8, 8): encode(BLACK, A, 1),
        (7, 8): encode(BLACK, B, 1),
        (8, 7): encode(BLACK, B, 1),
    }


def _with_stacks(
    stacks: dict[tuple[int, int], int], player: int, allowed: tuple[int, ...] = ANY_MOVE
) -> Position:
    matrix = [[0] * 9 for _ in range(9)]
    for (x, y), value in stacks.items():
        matrix[y][x] = value
    return Position.from_matrix(matrix, player, allowed)


@pytest.fixture
def with_stacks() -> Callable[..., Position]:
    """``with_stacks(stacks, player, allowed)`` -> the position with only those stacks on
    the board, ``player`` to move at the request ``allowed`` describes."""
    return _with_stacks


@pytest.fixture(scope="session")
def compiled() -> ModuleType:
    """The compiled engine; skips where it was not built, but fails under CI=true, where the
    plugin's install must have built it."""
    from arena_stones.engine import COMPILED, MISSING

    if COMPILED is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the compiled engine is not built: {MISSING}")
        pytest.skip(f"the compiled engine is not built: {MISSING}")
    return COMPILED
