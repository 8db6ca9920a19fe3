"""The ``slow`` marker: tests that build virtual environments and install into them.

They run in the normal test command; ``-m "not slow"`` leaves them out for a quick pass.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: builds a fresh venv and pip-installs into it (needs PyPI or a cache)"
    )
