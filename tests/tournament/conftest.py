"""Fixtures shared by the tournament tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def swiss_trf(tmp_path_factory) -> str:
    """The TRF text of the default `small_swiss` (6 players, 2 of 3 rounds played), built once
    per test worker: pairing it runs the Swiss engine round by round, several seconds, and
    the tests that take it only read or edit the text."""
    from .test_trf_import import small_swiss

    return small_swiss(tmp_path_factory.mktemp("swiss") / "a.db").trf.export_trf()
