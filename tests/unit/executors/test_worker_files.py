"""A worker's copy of a bot against the coordinator's: the first file that differs, in
words, or nothing when the copies are the same."""

from __future__ import annotations

import hashlib

from arena_kernel.executors.remote import first_difference


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


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
    assert first_difference({}, {}) is None
