"""The desk's use cases on `TournamentService` (issue 12): one transaction each, plain data
out (no ORM row escapes), NotFound for what does not exist, half ends all or nothing."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import select

from ball.tournament import TournamentService
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.models import HalfEnd
from ball.tournament.views import EventView, PairingView

T0 = 1_800_000_000.0


@pytest.fixture
def svc(tmp_path) -> tuple[TournamentService, int]:
    service = TournamentService(tmp_path / "t.sqlite")
    event_id = service.events.create_event(name="Open", system="round-robin")["id"]
    for name in ("Ann", "Bob", "Cid"):  # odd: one bye a round
        service.entrants.add_player(name, event=event_id)
    service.rounds.pair_next_round(event=event_id)
    return service, event_id


def _is_plain(value) -> bool:
    """Only dataclasses, containers and scalars: nothing bound to a database session."""
    if dataclasses.is_dataclass(value):
        return all(_is_plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, dict):
        return all(_is_plain(k) and _is_plain(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_is_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def test_page_reads_return_plain_data(svc):
    service, event_id = svc
    event = service.desk.event_page(event_id)
    assert isinstance(event, EventView) and _is_plain(event)
    assert [e.name for e in event.entrants] == ["Ann", "Bob", "Cid"]
    page = service.desk.round_page(event_id, 1, T0, 600.0)
    assert _is_plain(dataclasses.replace(page, control=None))
    assert page.editable and [e.name for e in page.players] == ["Ann", "Bob", "Cid"]
    played = next(p for p in page.round.pairings if p.b is not None)
    table = service.desk.table_page(event_id, 1, played.table)
    assert _is_plain(table) and table.version == 0 and table.steals == []
    assert isinstance(service.desk.table(event_id, 1, played.table), PairingView)
    event, rows = service.desk.sanctions_page(event_id)
    assert _is_plain(rows) and [r.suggest for r in rows] == ["warning"] * 3


def test_what_does_not_exist_is_not_found(svc):
    service, event_id = svc
    bye = next(p.table for p in service.desk.round_view(event_id, 1).pairings if p.b is None)
    cases = [
        (service.desk.event_page, (999,), "no event 999"),
        (service.desk.event_page, (2**80,), "no event"),
        (service.desk.round_page, (event_id, 7, T0, 0.0), "round 7 is not paired"),
        (service.desk.round_control, (event_id, 7, T0, 0.0), "round 7 is not paired"),
        (service.desk.table_page, (event_id, 1, 42), "round 1 has no table 42"),
        (service.desk.table, (event_id, 1, bye), f"table {bye} is a bye"),
        (service.desk.entrant, (event_id, 999), f"no entrant 999 in event {event_id}"),
    ]
    for call, args, message in cases:
        with pytest.raises(NotFound, match=message):
            call(*args)


def test_entrant_of_another_event_is_not_found(svc):
    service, event_id = svc
    other = service.events.create_event(name="Other", system="swiss")["id"]
    ann = service.desk.event_page(event_id).entrants[0]
    with pytest.raises(NotFound):
        service.desk.entrant(other, ann.id)


def test_half_end_in_the_future_is_refused(svc):
    service, event_id = svc
    service.arbiter.give_signal(1, 1, at=T0, gap=0.0, event=event_id)
    table = next(p.table for p in service.desk.round_view(event_id, 1).pairings if p.b is not None)
    with pytest.raises(TournamentError, match="cannot end in the future"):
        service.desk.record_half_end_by(
            event_id, 1, table, at=T0 + 60, now=T0 + 30, source="arbiter"
        )
    service.desk.record_half_end_by(event_id, 1, table, at=T0 + 20, now=T0 + 30, source="arbiter")
    control = service.desk.round_control(event_id, 1, T0 + 30, 0.0)
    assert [(t.table, t.first_half_end, t.source) for t in control.tables] == [
        (table, T0 + 20, "arbiter")
    ]


def test_reported_half_ends_are_all_or_nothing(tmp_path):
    service = TournamentService(tmp_path / "t.sqlite")
    event_id = service.events.create_event(name="Four", system="round-robin")["id"]
    for name in ("Ann", "Bob", "Cid", "Dan"):
        service.entrants.add_player(name, event=event_id)
    service.rounds.pair_next_round(event=event_id)
    service.arbiter.give_signal(1, 1, at=T0, gap=0.0, event=event_id)
    # Table 2's report is before signal 1: refused, and table 1's good one is not kept.
    with pytest.raises(TournamentError, match="before signal 1"):
        service.desk.record_reported_half_ends(event_id, 1, {1: T0 + 10, 2: T0 - 10})
    with service.store.sessions() as s:
        assert list(s.scalars(select(HalfEnd))) == []
    service.desk.record_reported_half_ends(event_id, 1, {1: T0 + 10, 2: T0 + 12, 9: T0})
    control = service.desk.round_control(event_id, 1, T0 + 30, 0.0)
    assert {t.table: (t.first_half_end, t.source) for t in control.tables} == {
        1: (T0 + 10, "table"),
        2: (T0 + 12, "table"),
    }
