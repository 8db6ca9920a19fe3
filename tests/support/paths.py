"""Where the kernel's tests find the checkout and the bot programs they share."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
BOTS = TESTS / "bots"
"""Bot programs in several languages that the tests start (tests/bots/)."""
SUPPORT = Path(__file__).resolve().parent
"""This folder: on pytest's path; a test's ``arena`` subprocess needs it on PYTHONPATH."""
OLD_SCHEMAS = SUPPORT / "old_schemas"
"""The store's SQL schemas of earlier versions (schema_v1.sql...), for migration tests."""
