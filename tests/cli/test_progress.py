"""The progress report of ``arena run`` on stderr: where stderr is no terminal (a CI log, a
pipe) it is the run's header (its sandbox) and one line naming the run and its games, with
no warning of arena's own; ``--quiet``, nothing (test_sandbox_record.py: but a warning)."""

from __future__ import annotations

from pathlib import Path

from arena_cli import arena

ROOT = Path(__file__).resolve().parents[2]


def test_progress_is_one_line_on_stderr_and_warns_of_nothing(tmp_path: Path) -> None:
    match = tmp_path / "nim.toml"
    text = (ROOT / "examples" / "nim.toml").read_text()
    text = text.replace("rounds = 5", "rounds = 1") + '[sandbox]\nmode = "none"\n'
    match.write_text('name = "progress"\n' + text)
    # Deprecation warnings are shown (Python hides them outside __main__ by default).
    result = arena("run", str(match), cwd=tmp_path, env={"PYTHONWARNINGS": "default"})
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [
        'sandbox: none (bots run with your rights, as [sandbox] mode = "none" asks)',
        "progress: 6 games",
    ], result.stderr

    (tmp_path / "nim.sqlite").unlink()  # so that the quiet run plays its games too
    quiet = arena("run", "--quiet", str(match), cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert "6 games played now" in quiet.stdout
