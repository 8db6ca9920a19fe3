"""docs/sandbox.md names exactly the variables of the organiser's environment a bot gets."""

from __future__ import annotations

import re

from paths import REPO

from arena_kernel.transports.process import PASSED_ENV, passed_environment


def test_the_documented_variables_are_the_passed_ones() -> None:
    text = (REPO / "docs" / "sandbox.md").read_text()
    paragraph = text.split("**Environment.**")[1].split("then its own `env` table")[0]
    named = set(re.findall(r"`([A-Z_*]+)`", paragraph))
    assert named == {*PASSED_ENV, "LC_*"}


def test_nothing_else_of_the_organisers_environment_is_passed() -> None:
    organiser = {"PATH": "/bin", "LC_ALL": "C", "PYTHONUNBUFFERED": "1", "AWS_SECRET": "x"}
    assert passed_environment(organiser) == {"PATH": "/bin", "LC_ALL": "C"}
