"""docs/architecture.md stays true: every file or folder it names in backquotes is there,
read from the checkout's root, kernel/, tests/ or the stones plugin (its worked example)."""

from __future__ import annotations

import re

from paths import REPO

DOC = REPO / "docs" / "architecture.md"
STONES = REPO / "plugins" / "stones"
ROOTS = (REPO, REPO / "kernel" / "arena_kernel", STONES, STONES / "arena_stones", REPO / "tests")
NAMED = re.compile(r"`([\w./-]+(?:/|\.py|\.md|\.ini|\.toml))`")


def named_paths(text: str) -> list[str]:
    return sorted(set(NAMED.findall(text)))


def test_the_check_reads_the_paths_a_doc_names() -> None:
    text = "the `kernel/` folder, `runner/run.py`, `plugins/<name>/`, `arena run x.toml`"
    assert named_paths(text) == ["kernel/", "runner/run.py"]


def test_every_path_docs_architecture_names_exists() -> None:
    named = named_paths(DOC.read_text())
    assert len(named) > 20, named
    missing = [p for p in named if not any((root / p).exists() for root in ROOTS)]
    assert not missing, f"docs/architecture.md names what is not there: {missing}"
