"""A built-in bot run as a program finds its package where arena found it: a plugin
loaded from its source folder passes that folder on, an installed one passes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arena_kernel.games.base import BuiltinBot


def test_a_bot_of_a_package_in_a_source_folder_is_told_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "arena_fromsource" / "bots"
    package.mkdir(parents=True)
    for folder in (package.parent, package):
        (folder / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = BuiltinBot("a bot", "arena_fromsource.bots.plain")
    assert bot.env() == {"PYTHONPATH": str(tmp_path.resolve())}
    assert "arena_fromsource" not in sys.modules, "found, not imported"


def test_a_bot_of_the_standard_library_or_nowhere_needs_nothing() -> None:
    assert BuiltinBot("", "json.tool").env() == {}
    assert BuiltinBot("", "no_such_package_here.bot").env() == {}
