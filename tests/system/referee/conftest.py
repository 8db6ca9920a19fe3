"""Every referee test runs twice: on the compiled round trip (where the extension is built)
and on the channel's Python code alone, which is its reference."""

from __future__ import annotations

import pytest

from arena_kernel.codecs import compiled
from arena_kernel.referee import hot_path


@pytest.fixture(autouse=True, params=["compiled", "python"])
def round_trip(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which code the channels of the test run on."""
    if request.param == "python":
        monkeypatch.setattr(hot_path, "COMPILED", None)
        monkeypatch.setattr(compiled, "COMPILED", None)
    elif hot_path.COMPILED is None:
        pytest.skip("the extension is not built here")
    return request.param
