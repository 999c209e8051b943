"""Digits that `str.isdigit` accepts and `int` refuses ("²", "①") are bad input with a clear
message (400 on the desk, exit 2 on the command line, TournamentError in the service), never a
crash; a rating written in them adds nobody."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ball.cli import app as cli_app
from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.core.deps import service_for
from ball.web.desk.forms import parse_entrants_csv

from .conftest import create_event, post

ODD_DIGITS = ["²", "①", "1²", "٣"]  # superscript, circled, mixed, Arabic-Indic


@pytest.mark.parametrize("rating", ODD_DIGITS)
def test_csv_rating_in_odd_digits_names_the_line(rating):
    with pytest.raises(TournamentError, match=rf"CSV line 3: rating '{rating}' is not a whole"):
        parse_entrants_csv(f"name,rating\nAnn,1500\nBo,{rating}\n")


@pytest.mark.parametrize("rating", ODD_DIGITS)
def test_csv_import_with_odd_digits_is_a_400_and_adds_nobody(client, app, rating):
    event_id = create_event(client)
    response = post(client, event_id, "/entrants/import", {"csv": f"name,rating\nBo,{rating}\n"})
    assert response.status_code == 400
    assert "is not a whole number" in response.text
    assert service_for(app).ranking.standings(event=event_id)["standings"] == []


@pytest.mark.parametrize("ref", ["²", "①"])
def test_service_event_named_in_odd_digits_is_unknown(tmp_path, ref):
    svc = TournamentService(str(tmp_path / "t.sqlite"))
    svc.events.create_event(name="Open", system="swiss")
    with pytest.raises(TournamentError, match="unknown event"):
        svc.entrants.add_player("Ann", event=ref)


def test_cli_event_in_odd_digits_is_exit_2_with_one_line(tmp_path):
    db = str(tmp_path / "t.sqlite")
    runner = CliRunner()
    create = ["event", "create", "--db", db, "--name", "Open", "--system", "swiss"]
    made = runner.invoke(cli_app, create)
    assert made.exit_code == 0, made.output
    result = runner.invoke(cli_app, ["event", "add-player", "--db", db, "Ann", "--event", "²"])
    assert result.exit_code == 2, result.output
    assert "unknown event" in result.output and "Traceback" not in result.output
