"""Fixtures: the fake games' registries, and loading a match file written to tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from match_fakes import Nim, Rps, Stones, make_registries

from arena_kernel.errors import MatchFileError
from arena_kernel.match.loader import load_match
from arena_kernel.match.spec import MatchSpec
from arena_kernel.registries.registry import Registries


@pytest.fixture
def registries() -> Registries:
    return make_registries(Stones, Nim, Rps)


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str], Path]:
    def write(text: str) -> Path:
        path = tmp_path / "match.toml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def load(write: Callable[[str], Path], registries: Registries) -> Callable[[str], MatchSpec]:
    def load(text: str) -> MatchSpec:
        return load_match(write(text), lambda plugins: registries)

    return load


@pytest.fixture
def fails(load: Callable[[str], MatchSpec], tmp_path: Path) -> Callable[[str], str]:
    """The error message for ``text``, with the file's folder cut off for readability."""

    def fails(text: str) -> str:
        with pytest.raises(MatchFileError) as caught:
            load(text)
        return str(caught.value).replace(f"{tmp_path}/", "")

    return fails
