"""Typed results (issue 12): the signal, first-half end and sanction use cases return frozen
dataclasses read by attribute, whose `asdict` keeps the keys the service's dicts had."""

from __future__ import annotations

import dataclasses
import time

import pytest

from ball.tournament import TournamentService, signals
from ball.tournament.summaries import HalfEnd, SanctionGiven, SignalGiven

from .test_cli_log import paired_event


def test_signal_half_end_and_sanction_are_frozen_dataclasses(tmp_path):
    svc = TournamentService(paired_event(tmp_path))
    start = time.time() - signals.gap_seconds() - 1800
    given = svc.arbiter.give_signal(1, 1, at=start)
    assert isinstance(given, SignalGiven)
    assert (given.round, given.signal, given.at) == (1, 1, start)
    ended = svc.arbiter.record_half_end(1, 2, at=start + 1200)
    assert isinstance(ended, HalfEnd)
    assert dataclasses.asdict(ended) == {
        "round": 1,
        "table": 2,
        "at": start + 1200,
        "source": "arbiter",
    }
    name = svc.rounds.pairings(1)[0]["a"]
    sanction = svc.arbiter.give_sanction("warning", "late", player=name, round_number=1, table=1)
    assert isinstance(sanction, SanctionGiven)
    assert (sanction.step, sanction.reason, sanction.round, sanction.table) == (
        "warning",
        "late",
        1,
        1,
    )
    assert list(dataclasses.asdict(sanction)) == [
        "entrant_id",
        "step",
        "reason",
        "round",
        "table",
        "at",
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        given.round = 2  # type: ignore[misc]
