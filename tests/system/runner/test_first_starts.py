"""A bot that cannot start stops ``arena run`` in its first games with one line quoting
its stderr, those games unstored, so that the run fixed plays them; a bot that fails to
start once, then comes up, plays the run to its end."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from arena_cli import arena, one_error_line
from paths import BOTS

from arena_kernel.store import Store


def nim_match(cmd: list[str], extra: str = "", bot: str = "") -> str:
    """Four games of Nim between the bot ``mine`` that ``cmd`` starts (``bot``: more keys
    of its table) and an in-process one, unsandboxed (no warning line where bubblewrap is
    missing); ``extra``: keys of the file's own."""
    return f"""
        game = "nim"
        games = 4
        {extra}
        [sandbox]
        mode = "none"
        [[bots]]
        name = "mine"
        cmd = {json.dumps(cmd)}
        {bot}
        [[bots]]
        name = "optimal"
        builtin = "optimal"
        inproc = true
        """


def stored(database: Path) -> list[tuple[int, list[str]]]:
    """Each stored game's schedule index and its faults' kinds."""
    with Store(database) as store:
        (run,) = store.runs()
        return [
            (game.index, [str(f.kind) for f in store.game(game.game_id).faults])
            for game in store.results(run.run_id)
        ]


def test_a_typo_in_a_bots_script_stops_the_run_and_the_fixed_run_plays_every_game(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    path = write_match(nim_match([sys.executable, "my_bott.py"]))
    shutil.copy(BOTS / "nim.py", tmp_path / "my_bot.py")
    broken = arena("run", "-q", str(path))
    line = one_error_line(
        broken,
        f'{path}: bot "mine" could not start in each of its first 2 games: exit: exited '
        "with status 2; the end of its stderr: ",
        "can't open file",
        "my_bott.py",
        'startup_failures = "forfeit"',
        "the run stopped with 4 of its games not played",
    )
    assert "No such file or directory" in line, line
    assert stored(tmp_path / "results.sqlite") == [], "no game lost to the set-up is stored"

    (tmp_path / "my_bot.py").rename(tmp_path / "my_bott.py")
    fixed = arena("run", "-q", str(path))
    assert fixed.returncode == 0, fixed.stderr
    assert "4 games played now, 0 already stored" in fixed.stdout
    assert stored(tmp_path / "results.sqlite") == [(n, []) for n in range(4)]


FAILS_ONCE = """
import os, runpy, sys
if not os.path.exists("started-once"):
    open("started-once", "w").close()
    sys.exit("the first start fails")
runpy.run_path(os.environ["NIM_BOT"], run_name="__main__")
"""
"""A bot that fails at its first start only, then plays as tests/bots/nim.py."""


def test_a_bot_that_fails_to_start_once_then_comes_up_plays_on_and_that_game_is_stored(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    cmd = [sys.executable, "-c", FAILS_ONCE]
    path = write_match(
        nim_match(cmd, "concurrency = 1", f'env = {{ NIM_BOT = "{BOTS / "nim.py"}" }}')
    )
    run = arena("run", "-q", str(path))
    assert run.returncode == 0, run.stderr
    games = stored(tmp_path / "results.sqlite")
    assert games == [(0, ["exit"]), (1, []), (2, []), (3, [])], games
    with Store(tmp_path / "results.sqlite") as store:
        (first, *_) = store.results(store.runs()[0].run_id)
        (fault,) = store.game(first.game_id).faults
    assert fault.detail == "exited with status 1; the end of its stderr: the first start fails"


def test_a_bot_that_never_answers_stops_the_run_on_its_start_up_clock(
    write_match: Callable[..., Path],
) -> None:
    silent = [sys.executable, "-c", "import sys; sys.stdin.read()"]
    path = write_match(nim_match(silent, "concurrency = 2\n        [clock]\n        startup = 1"))
    line = one_error_line(
        arena("run", "-q", str(path)),
        'bot "mine" could not start in each of its first 2 games: timeout: no reply within',
    )
    assert "the end of its stderr" not in line, "it wrote nothing to quote"


def test_forfeit_plays_every_game_of_a_bot_that_cannot_start(
    tmp_path: Path, write_match: Callable[..., Path]
) -> None:
    path = write_match(nim_match([sys.executable, "my_bott.py"], 'startup_failures = "forfeit"'))
    run = arena("run", "-q", str(path))
    assert run.returncode == 0, run.stderr
    assert stored(tmp_path / "results.sqlite") == [(n, ["exit"]) for n in range(4)]
