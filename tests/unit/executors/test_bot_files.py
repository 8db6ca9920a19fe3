"""The files of a bot, as a worker and the coordinator compare them: those its command
names, by content, never what each machine writes for itself or the run's own files."""

from __future__ import annotations

import hashlib
from pathlib import Path

from arena_kernel.executors.bot_files import bot_files, first_difference
from arena_kernel.transports.base import BotProgram


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def files_of(folder: Path, *argv: str) -> dict[str, str]:
    program = BotProgram("bot", argv=argv, cwd=str(folder))
    return bot_files(program, folder / "arena.sqlite", folder / "logs")


def test_the_files_a_command_names_by_path_count_and_a_tool_on_path_does_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "bot.py").write_text("print('hi')")
    (tmp_path / "run.sh").write_text("exec python3 bot.py")
    assert files_of(tmp_path, "python3", "bot.py", "--fast") == {"bot.py": sha("print('hi')")}
    assert files_of(tmp_path, "./run.sh", "{port}") == {"./run.sh": sha("exec python3 bot.py")}
    assert files_of(tmp_path, "python3", "-c", "print(1)") == {}
    assert bot_files(BotProgram("in process"), tmp_path, tmp_path) == {}


def test_a_folder_counts_with_its_files_but_hidden_ones_caches_and_the_runs_own(
    tmp_path: Path,
) -> None:
    bot = tmp_path / "bots" / "alpha"
    (bot / "__pycache__").mkdir(parents=True)
    (bot / "main.py").write_text("main")
    (bot / "lib").mkdir()
    (bot / "lib" / "util.py").write_text("util")
    (bot / "__pycache__" / "main.cpython-311.pyc").write_text("compiled here")
    (bot / ".cache").write_text("mine")
    (tmp_path / "arena.sqlite").write_text("the results")
    (tmp_path / "arena.sqlite-wal").write_text("the journal")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "0-bot.stderr").write_text("a log")

    assert files_of(tmp_path, "java", "-cp", "bots/alpha", "Main") == {
        "bots/alpha/lib/util.py": sha("util"),
        "bots/alpha/main.py": sha("main"),
    }
    assert set(files_of(tmp_path, "python3", "-m", "x", ".")) == {
        "bots/alpha/lib/util.py",
        "bots/alpha/main.py",
    }


def test_the_first_difference_is_said_in_words() -> None:
    same = {"bot.py": sha("a"), "lib.py": sha("b")}
    assert first_difference(same, dict(same)) is None
    changed = {**same, "lib.py": sha("c")}
    assert first_difference(changed, same) == (
        f"lib.py differs from the coordinator's ({sha('c')[:12]} here, {sha('b')[:12]} there)"
    )
    assert first_difference({"bot.py": sha("a")}, same) == "lib.py is missing here"
    extra = {**same, "x.py": sha("x")}
    assert first_difference(extra, same) == "x.py is here but not on the coordinator"
