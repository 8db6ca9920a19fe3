"""The compiled codecs and round trip are optional: where no C compiler works the kernel
still builds (its wheel has no extension), and a game is refereed by the Python code."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena_kernel.testkit import built_without_compiler

REPO = Path(__file__).resolve().parents[3]
ROUND_TRIP = """
import asyncio, sys
sys.meta_path = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]
sys.path.insert(0, {folder!r})
from arena_kernel.codecs import compiled
from arena_kernel.codecs.jsonl import JsonlCodec
from arena_kernel.referee import hot_path
from arena_kernel.referee.channel import Channel
from arena_kernel.referee.clocks import Clocks
from arena_kernel.referee.eventlog import EventLog
from arena_kernel.referee.table import Table
from arena_kernel.transports.base import Connection
assert "{folder}" in compiled.__file__, compiled.__file__
print("compiled:", compiled.COMPILED, hot_path.COMPILED)


class Echo(Connection):
    def start(self, on_data, on_closed):
        self.on_data = on_data

    def write(self, data):
        asyncio.get_running_loop().call_soon(self.on_data, data)

    async def close(self):
        pass


async def main():
    log = EventLog()
    table = Table([Channel("echo", "echo", Echo(), JsonlCodec())], Clocks(), log)
    for n in range(3):
        reply = await table.ask(0, {{"n": n}})
        print(reply.message, reply.ok)
    print([event.text for event in log.events])


asyncio.run(main())
"""


@pytest.fixture(scope="module")
def without_compiler(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel built into a wheel with a C compiler that always fails, unpacked."""
    source = tmp_path_factory.mktemp("kernel")
    for part in ("kernel", "pyproject.toml", "setup.py", "README.md"):
        copy = shutil.copytree if (REPO / part).is_dir() else shutil.copy
        copy(REPO / part, source / part)
    for built in (source / "kernel").rglob("*.so"):
        built.unlink()
    return built_without_compiler(source, tmp_path_factory.mktemp("installed"))


def test_without_a_compiler_the_kernel_still_builds_without_the_extension(without_compiler):
    package = without_compiler / "arena_kernel"
    assert (package / "codecs" / "compiled.py").is_file()
    assert not list(package.rglob("_fast*.so")), "no compiler, so no extension"


def test_without_the_extension_the_python_referees(without_compiler):
    done = subprocess.run(
        [sys.executable, "-c", ROUND_TRIP.format(folder=str(without_compiler))],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "compiled: None None"
    assert lines[1:4] == [f"{{'n': {n}}} True" for n in range(3)]
    assert lines[4] == str(['{"n":0}', '{"n":0}', '{"n":1}', '{"n":1}', '{"n":2}', '{"n":2}'])
