"""Properties of the result form's lateness fields (seed 004 articles 21-22): the form reads
back exactly the arrivals it was given, and what the desk shows is the core's ruling."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ball.tournament import lateness
from ball.tournament.errors import TournamentError
from ball.web.desk.lateness import late_from_form

arrival = st.one_of(st.none(), st.integers(0, lateness.MAX_MINUTES))
lates = st.dictionaries(st.sampled_from(lateness.SIDES), arrival, max_size=2)


def form_of(late: dict[str, int | None]) -> dict[str, str]:
    form = {}
    for side, minutes in late.items():
        if minutes is None:
            form[f"absent_{side}"] = "1"
        else:
            form[f"late_{side}"] = str(minutes)
    return form


@pytest.mark.hypothesis
@given(lates)
def test_the_form_reads_back_the_arrivals_it_was_given(late):
    assert late_from_form(form_of(late)) == late


@pytest.mark.hypothesis
@given(lates, st.integers(0, 120))
def test_a_forfeit_falls_exactly_on_the_sides_past_the_default_time(late, default_time):
    """21.1 / 21.3 / 22.1: who loses is who arrived past the default time (E-19: at it is
    within), whatever the form's other side says."""
    if not late:
        with pytest.raises(TournamentError):
            lateness.rule(late_from_form(form_of(late)), default_time)
        return
    ruling = lateness.rule(late_from_form(form_of(late)), default_time)
    over = {s for s, m in late.items() if m is None or m > default_time}
    expected = None if not over else "both" if len(over) == 2 else next(iter(over))
    assert ruling.forfeit == expected


@pytest.mark.hypothesis
@given(st.sampled_from(lateness.SIDES), st.integers(-10_000, -1))
def test_negative_minutes_are_refused_naming_the_field(side, minutes):
    with pytest.raises(TournamentError, match=f"late_{side}: must be at least 0"):
        late_from_form({f"late_{side}": str(minutes)})
