"""The sandbox shows a bot's program and what it needs, and runs the same program inside as
outside (kernel/arena_kernel/sandbox/runtime.py, lookup.py, shims.py, same_program.py).

- A program on the ``PATH`` in a home's ``bin``, ``.local/bin`` or ``.cargo/bin`` is shown
  alone: the home's keys, keyrings and credentials are not (a virtual environment in a home
  is shown whole, and still nothing of the home).
- The folders and jars of a Java class path (``-cp a:b``, ``--class-path=a:b``) are shown.
- A path a command names inside what the run hides (the logs) stays hidden.
- ``python3`` through a version manager's shim runs inside the interpreter it runs outside:
  a manager made here, whose version a file in the bot's folder picks, and this machine's
  pyenv when there is one. A shim named by its path is refused in one line, and so is a
  command whose program would be another one inside.

The bots are real programs in real bwrap sandboxes (``mode = "required"``) playing Nim.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import venv
from collections.abc import Callable
from pathlib import Path

import pytest

from arena_kernel.errors import SetupError
from arena_kernel.sandbox.runtime import command_needs, installation, named_paths
from arena_kernel.testing.pytest_plugin import skip_unless_ci
from arena_kernel.testkit import run_match, stored_games

BOT = """\
import json, os, sys
print("python", json.dumps([sys.executable, sys.prefix, sys.version]), file=sys.stderr, flush=True)
for path in json.loads(os.environ.get("SECRETS", "[]")):
    try:
        with open(path) as file:
            seen = file.read().strip()
    except OSError as exc:
        seen = exc.strerror
    print("read", path, "->", seen, file=sys.stderr, flush=True)
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["move"]:
        print(f"take {int(words[1]) % 4 or 1}", flush=True)
"""
"""A Nim bot that first writes to stderr which Python runs it and what it reads of the
files listed in ``$SECRETS``."""

PYTHON = os.path.realpath(sys.executable)
"""The interpreter of the bots written as scripts: the Python behind the arena's."""

SHOWN_PYTHON = str(Path(PYTHON).parent.parent)
"""Its installation, which the organiser shows a bot in a test of something else."""

Bots = dict[str, dict[str, object]]
"""Bot name -> its ``cmd``, ``cwd``, ``env`` and ``read_only``."""


def match_text(bots: Bots, mode: str) -> str:
    text = f'game = "nim"\ngames = 1\ndatabase = "{mode}.sqlite"\nlogs = "logs"\n'
    text += f'[clock]\nstartup = 30\nreply = 30\n[sandbox]\nmode = "{mode}"\n'
    for name, table in bots.items():
        text += f"[[bots]]\nname = {json.dumps(name)}\n"
        text += f"cmd = {json.dumps(table['cmd'])}\ncwd = {json.dumps(str(table['cwd']))}\n"
        env = table.get("env", {})
        assert isinstance(env, dict)
        text += "[bots.env]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in env.items())
        if "read_only" in table:
            text += f"[bots.sandbox]\nread_only = {json.dumps(table['read_only'])}\n"
    return text


def play(write_match: Callable[[str], Path], bots: Bots, mode: str = "required") -> dict[str, str]:
    """One clean game between ``bots``, sandboxed unless ``mode = "none"``; each bot's stderr."""
    summary = run_match(write_match(match_text(bots, mode)))
    assert summary.played == 1 and not summary.errors, summary.errors
    ((result, detail, _events),) = stored_games(summary)
    assert not detail.faults, detail.faults
    assert result.sandbox == ("none" if mode == "none" else "bwrap")
    return {result.seating[seat]: Path(log).read_text() for seat, log in detail.stderr_logs.items()}


def python_of(log: str) -> list[str]:
    """The ``[sys.executable, sys.prefix, sys.version]`` a bot reported."""
    line = next(line for line in log.splitlines() if line.startswith("python "))
    return list(json.loads(line.removeprefix("python ")))


def bot_folder(tmp_path: Path, name: str = "bot") -> Path:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "bot.py").write_text(BOT)
    return folder


# -- what a program in a home shows -----------------------------------------------------

SECRETS = {
    ".ssh/id_rsa": "-----BEGIN OPENSSH PRIVATE KEY----- the organiser's key",
    ".local/share/keyrings/login.keyring": "the organiser's keyring",
    ".cargo/credentials.toml": "token = 'the organiser's crates.io token'",
}


def fake_home(tmp_path: Path) -> Path:
    """A home with a key, a keyring and a registry token, readable by any user (so that
    only the sandbox keeps them from a bot), and what ``pip install --user`` leaves."""
    home = tmp_path / "home"
    for name, text in SECRETS.items():
        (home / name).parent.mkdir(parents=True, exist_ok=True)
        (home / name).write_text(text)
        (home / name).chmod(0o644)
    (home / ".local/lib/python3.11/site-packages").mkdir(parents=True)
    return home


def secret_env(home: Path) -> dict[str, str]:
    """A bot's ``env``: ``home`` is its home, and it tries to read every secret there."""
    return {"HOME": str(home), "SECRETS": json.dumps([str(home / name) for name in SECRETS])}


def no_secret_in(log: str) -> None:
    for text in SECRETS.values():
        assert text not in log, log
    assert log.count("-> No such file or directory") == len(SECRETS), log


@pytest.mark.parametrize("where", ["bin", ".local/bin", ".cargo/bin"])
def test_a_program_in_a_home_is_shown_without_the_home(where, sandbox, write_match, tmp_path):
    home = fake_home(tmp_path)
    program = home / where / "nimbot"
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(f"#!{PYTHON}\n{BOT}")
    program.chmod(0o755)
    env = {"PATH": f"{program.parent}:/usr/bin:/bin", **secret_env(home)}
    bots: Bots = {
        n: {"cmd": ["nimbot"], "cwd": bot_folder(tmp_path), "env": env, "read_only": [SHOWN_PYTHON]}
        for n in "ab"
    }
    for log in play(write_match, bots).values():
        no_secret_in(log)


def test_a_virtual_environment_in_a_home_is_shown_whole(sandbox, write_match, tmp_path):
    home = fake_home(tmp_path)
    venv.create(home / "venv", with_pip=False, symlinks=True)
    python = home / "venv" / "bin" / "python3"
    env = secret_env(home)
    bots: Bots = {
        n: {"cmd": [str(python), "bot.py"], "cwd": bot_folder(tmp_path), "env": env} for n in "ab"
    }
    for log in play(write_match, bots).values():
        assert python_of(log)[:2] == [str(python), str(home / "venv")], log
        no_secret_in(log)


def test_only_a_self_contained_installation_is_shown_whole(tmp_path, monkeypatch):
    home = fake_home(tmp_path)
    monkeypatch.setenv("HOME", str(home))
    made = {
        "venv": "pyvenv.cfg",
        "python": "lib/python3.12/os.py",
        "jdk": "lib/modules",
        "jre8": "lib/rt.jar",
        "node": "include/node/node_version.h",
        "home/.venv": "pyvenv.cfg",
        "home/.local": "lib/python3.12/os.py",  # a Python built into a user's prefix
        "home/tools": "README",
        "": "lib/python3.12/os.py",  # a Python whose folder holds the home
    }
    for folder, marker in made.items():
        (tmp_path / folder / marker).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / marker).touch()
    (tmp_path / "jdk-release").mkdir()
    (tmp_path / "jdk-release" / "release").write_text('JAVA_VERSION="1.8.0_402"\n')
    (home / "pyvenv.cfg").touch()
    whole = ["venv", "python", "jdk", "jre8", "jdk-release", "node", "home/.venv"]
    alone = ["home", "home/.local", "home/.cargo", "home/tools", "", "elsewhere"]
    for folder in whole:
        assert installation(tmp_path / folder / "bin" / "x") == tmp_path / folder
    for folder in alone:
        program = tmp_path / folder / "bin" / "x"
        assert installation(program) == program, folder


def test_the_paths_an_argument_joins_are_named_but_never_a_home(tmp_path):
    home = fake_home(tmp_path)
    base = bot_folder(tmp_path)
    for name in ("a", "b", "c", "d", "libs"):
        (tmp_path / name).mkdir()
    (tmp_path / "gson.jar").touch()
    a, b, c, d, libs, jar = (tmp_path / n for n in ("a", "b", "c", "d", "libs", "gson.jar"))
    args = ["-cp", f"{a}:{jar}:bot.py", f"--class-path={b}:{c}", f"-Djava.library.path={d}"]
    args += [f"{libs}/*", f"-Dx={home}", f"{home}:/"]
    assert set(named_paths(args, base)) >= {a, b, c, d, libs, jar, base / "bot.py"}
    needs = command_needs(["/bin/true", *args], base, {"HOME": str(home)})
    assert set(needs) == {a, b, c, d, libs, jar, base / "bot.py"}


# -- a script's interpreter --------------------------------------------------------------


def test_a_script_s_interpreter_is_shown_and_found_as_outside(sandbox, write_match, tmp_path):
    shims = fake_manager(tmp_path / ".fakeenv")
    folder = bot_folder(tmp_path)
    for name, line in (("by_path", PYTHON), ("by_name", "/usr/bin/env python3")):
        (folder / name).write_text(f"#!{line}\n{BOT}")
        (folder / name).chmod(0o755)
    env = {"PATH": f"{shims}:/usr/bin:/bin"}
    bots: Bots = {n: {"cmd": [f"./{n}"], "cwd": folder, "env": env} for n in ("by_path", "by_name")}
    logs = play(write_match, bots)
    assert python_of(logs["by_path"])[0] == PYTHON, logs
    version = tmp_path / ".fakeenv" / "versions" / "1.0"
    assert python_of(logs["by_name"])[:2] == [str(version / "bin" / "python3"), str(version)]


# -- a Java class path ------------------------------------------------------------------

TAKE = (
    "public class Take { public static int of(int pile) { return pile % 4 == 0 ? 1 : pile % 4; } }"
)
PLAY = """
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Play {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.trim().split(" ");
            if (words[0].equals("move")) {
                System.out.println("take " + Take.of(Integer.parseInt(words[1])));
                System.out.flush();
            }
        }
    }
}
"""


def test_a_java_class_path_outside_the_bot_s_folder_is_shown(sandbox, write_match, tmp_path):
    javac, java = shutil.which("javac"), shutil.which("java")
    if javac is None or java is None:
        skip_unless_ci("a JDK (javac) is not installed")
    source = tmp_path / "src"
    source.mkdir()
    (source / "Take.java").write_text(TAKE)
    (source / "Play.java").write_text(PLAY)
    built = tmp_path / "built"
    subprocess.run([javac, "-d", str(built), *map(str, source.iterdir())], check=True, timeout=120)
    a, b = tmp_path / "classes" / "a", tmp_path / "classes" / "b"
    a.mkdir(parents=True)
    b.mkdir()
    (built / "Take.class").rename(a / "Take.class")
    (built / "Play.class").rename(b / "Play.class")  # the main class, in the second folder
    folder = bot_folder(tmp_path)
    bots: Bots = {
        "short": {"cmd": [java, "-Xshare:auto", "-cp", f"{a}:{b}", "Play"], "cwd": folder},
        "long": {"cmd": [java, "-Xshare:auto", f"--class-path={a}:{b}", "Play"], "cwd": folder},
    }
    play(write_match, bots)


# -- what the run hides ------------------------------------------------------------------


def test_a_path_a_command_names_in_the_logs_stays_hidden(sandbox, write_match, tmp_path):
    notes = tmp_path / "logs" / "old" / "notes.txt"
    notes.parent.mkdir(parents=True)
    notes.write_text("another bot's old stderr")
    env = {"SECRETS": json.dumps([str(notes)])}
    folder = bot_folder(tmp_path)
    bots: Bots = {
        n: {"cmd": [PYTHON, "bot.py", str(notes)], "cwd": folder, "env": env} for n in "ab"
    }
    for log in play(write_match, bots).values():
        assert "-> No such file or directory" in log and "old stderr" not in log, log


# -- the same program inside and outside ---------------------------------------------------

MANAGER = """\
#!/usr/bin/env bash
# A version manager in miniature: the version named in ./.fake-version, else 1.0.
set -e
version=1.0
if [ -f .fake-version ]; then version=$(cat .fake-version); fi
bin="$FAKEENV_ROOT/versions/$version/bin"
case "$1" in
    which) [ -x "$bin/$2" ] && echo "$bin/$2" ;;
    exec) shift; name=$1; shift; PATH="$bin:$PATH" exec "$bin/$name" "$@" ;;
esac
"""


def fake_manager(root: Path) -> Path:
    """A version manager at ``root`` with pyenv's shims (two Pythons, virtual environments
    of the arena's); its folder of shims."""
    for version in ("1.0", "2.0"):
        venv.create(root / "versions" / version, with_pip=False, symlinks=True)
    (root / "libexec").mkdir()
    (root / "libexec" / "fakeenv").write_text(MANAGER)
    shim = textwrap.dedent(
        f"""\
        #!/usr/bin/env bash
        set -e
        program="${{0##*/}}"
        export FAKEENV_ROOT="{root}"
        exec "{root}/libexec/fakeenv" exec "$program" "$@"
        """
    )
    (root / "shims").mkdir()
    (root / "shims" / "python3").write_text(shim)
    for program in (root / "libexec" / "fakeenv", root / "shims" / "python3"):
        program.chmod(0o755)
    return root / "shims"


def inside_and_outside(write_match: Callable[[str], Path], bots: Bots) -> list[list[str]]:
    """What Python each bot reported, sandboxed and not: ``[inside..., outside...]``."""
    inside = play(write_match, bots, "required")
    outside = play(write_match, bots, "none")
    return [python_of(log) for log in (*inside.values(), *outside.values())]


def test_a_version_manager_s_shim_runs_inside_the_program_it_runs_outside(
    sandbox, write_match, tmp_path
):
    shims = fake_manager(tmp_path / ".fakeenv")
    folder = bot_folder(tmp_path)
    (folder / ".fake-version").write_text("2.0\n")
    env = {"PATH": f"{shims}:/usr/bin:/bin"}
    bots: Bots = {n: {"cmd": ["python3", "bot.py"], "cwd": folder, "env": env} for n in "ab"}
    reported = inside_and_outside(write_match, bots)
    version = tmp_path / ".fakeenv" / "versions" / "2.0"
    assert reported[0][:2] == [str(version / "bin" / "python3"), str(version)], reported
    assert all(python == reported[0] for python in reported), reported


def test_the_python3_of_this_machine_s_pyenv_runs_inside_as_outside(sandbox, write_match, tmp_path):
    found = shutil.which("python3")
    if found is None or Path(found).parent.name != "shims":
        pytest.skip("python3 on this PATH is not a version manager's shim")
    bots: Bots = {n: {"cmd": ["python3", "bot.py"], "cwd": bot_folder(tmp_path)} for n in "ab"}
    reported = inside_and_outside(write_match, bots)
    assert all(python == reported[0] for python in reported), reported


def test_a_shim_named_by_its_path_is_refused_in_one_line(sandbox, write_match, tmp_path):
    shim = fake_manager(tmp_path / ".fakeenv") / "python3"
    real = tmp_path / ".fakeenv" / "versions" / "1.0" / "bin" / "python3"
    bots: Bots = {n: {"cmd": [str(shim), "bot.py"], "cwd": bot_folder(tmp_path)} for n in "ab"}
    with pytest.raises(SetupError) as refused:
        run_match(write_match(match_text(bots, "required")))
    message = str(refused.value)
    assert "\n" not in message and 'bot "a"' in message, message
    assert f"is a fakeenv shim ({shim}) that cannot run in the sandbox" in message, message
    assert f"e.g. {real}" in message, message


def test_a_program_that_would_be_another_inside_is_refused_in_one_line(
    sandbox, write_match, tmp_path
):
    outer = bot_folder(tmp_path, "outer")
    inner = bot_folder(outer, "inner")  # another bot's folder: hidden from the outer bot
    (inner / "python3").write_text(f'#!/bin/sh\nexec {PYTHON} "$@"\n')
    (inner / "python3").chmod(0o755)
    bots: Bots = {
        "outer": {"cmd": ["python3", "bot.py"], "cwd": outer, "env": {"PATH": f"{inner}:/usr/bin"}},
        "inner": {"cmd": [PYTHON, "bot.py"], "cwd": inner},
    }
    with pytest.raises(SetupError) as refused:
        run_match(write_match(match_text(bots, "required")))
    message = str(refused.value)
    assert "\n" not in message and 'bot "outer"' in message, message
    assert f'"python3" in cmd runs {inner / "python3"} outside the sandbox but ' in message
