"""Meta-tests: every hook has a docstring, a section in docs/plugins.md, and a test."""

from __future__ import annotations

import inspect
import re

import pytest
from paths import REPO

from arena_kernel import hookspecs

HOOKS = sorted(
    name
    for name, obj in vars(hookspecs).items()
    if name.startswith("arena_") and inspect.isfunction(obj)
)


def test_hooks_are_found() -> None:
    assert "arena_register_games" in HOOKS and len(HOOKS) == 10


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_has_docstring(hook: str) -> None:
    doc = inspect.getdoc(getattr(hookspecs, hook))
    assert doc and len(doc) > 40, f"{hook} needs a docstring that says what a plugin does"


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_documented(hook: str) -> None:
    docs = (REPO / "docs" / "plugins.md").read_text()
    signature = inspect.signature(getattr(hookspecs, hook))
    params = ", ".join(signature.parameters)
    assert f"### {hook}({params})" in docs, f"docs/plugins.md has no section for {hook}"


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_has_a_test(hook: str) -> None:
    tests = "\n".join(p.read_text() for p in (REPO / "tests").rglob("test_*.py"))
    assert re.search(rf"def test_hook_{hook}\b", tests), f"no test named test_hook_{hook}"


def test_the_replay_and_step_reference_is_the_code() -> None:
    """docs/plugins.md's table of Replay and Step fields is what the dataclasses declare."""
    from arena_kernel.report.renderer import Step, field_table, reference

    docs = (REPO / "docs" / "plugins.md").read_text()
    found = re.search(
        r"<!-- Replay and Step fields: .*?-->\n(.*?)<!-- end of Replay and Step fields -->",
        docs,
        re.DOTALL,
    )
    assert found, "docs/plugins.md has no table of Replay and Step fields between its markers"
    expected = reference()
    assert found.group(1) == expected, (
        "docs/plugins.md's Replay and Step table is out of date: regenerate it with "
        "python -m arena_kernel.report.renderer"
    )
    assert [row.split("`")[1] for row in field_table(Step).splitlines()[2:]] == [
        "label",
        "events",
        "caption",
        "picture",
    ]
