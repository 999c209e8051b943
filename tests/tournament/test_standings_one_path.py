"""Every view of the standings agrees at every step of random events (issue 36, item 1):
`ball standings --json`, the desk's standings page, the public standings page and its
projector view (every page of it), the printed standings of the latest round and the TRF
export's points and ranks, after pairing a round, after each result and after corrections,
for a Swiss, a round robin, a knockout and a groups event. They rank through one path
(`standings.after_round`), so they also agree on the round their figures are after: the
last one with every result in."""

from __future__ import annotations

import json
import random
import re
import time
from html import unescape

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ball.cli import app as cli
from ball.printing.from_event import forms_from_sessions
from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError
from ball.tournament.groups import Setup
from ball.web.app import create_app
from ball.web.core import security

from .generator import random_sheet

pytestmark = pytest.mark.slow  # a few hundred views of several events

runner = CliRunner()
PIN = "2468"
Row = tuple[int | None, str, float, tuple[float | None, ...]]


def _value(text: str) -> float | None:
    """A figure as a page or a printed form writes it: 2½, ½, 1.75, – or nothing."""
    text = text.strip()
    if text in ("", "–", "-"):
        return None
    if text.endswith("½"):
        return float(text[:-1] or 0) + 0.5
    return float(text)


def _two(value: float | None) -> float | None:
    return None if value is None else round(float(value), 2)


def cli_view(db: str, event_id: int) -> tuple[int, list[Row]]:
    out = runner.invoke(cli, ["standings", "--db", db, "--event", str(event_id), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    rows = data["standings"] if isinstance(data, dict) else data
    text = runner.invoke(cli, ["standings", "--db", db, "--event", str(event_id)]).output
    after = int(re.search(r" after round (\d+)\n", text).group(1))
    return after, [
        (r["rank"], r["name"], _two(r["points"]), tuple(_two(v) for v in r["tiebreaks"].values()))
        for r in rows
        if r["rank"] is not None
    ]


_ROW = re.compile(
    r'<tr><td class="rank num">(\d+)</td><td class="name">(.*?)</td>'
    r'<td class="num points">(.*?)</td>(.*?)</tr>',
    re.S,
)


def public_view(client: TestClient, event_id: int, refresh: bool) -> tuple[int, list[Row]]:
    """Every page of the public standings (the projector's view with `?refresh=`)."""
    rows: list[Row] = []
    after, page, pages = -1, 1, 1
    while page <= pages:
        params: dict[str, int] = {"page": page} | ({"refresh": 30} if refresh else {})
        answer = client.get(f"/public/{event_id}/standings", params=params)
        assert answer.status_code == 200, answer.text
        html = answer.text
        after = int(re.search(r"Standings after round (\d+)", html).group(1))
        found = re.search(r"page (\d+) of (\d+)", html)
        pages = int(found.group(2)) if found else 1
        for rank, name, points, rest in _ROW.findall(html):
            cells = re.findall(r'<td class="num tb">(.*?)</td>', rest)
            rows.append((int(rank), unescape(name), _value(points),
                         tuple(_value(c) for c in cells)))  # fmt: skip
        page += 1
    return after, rows


def desk_view(client: TestClient, event_id: int) -> tuple[int, list[Row]]:
    """The desk's standings page (signed in with the event's PIN)."""
    answer = client.get(f"/desk/{event_id}/standings", follow_redirects=False)
    assert answer.status_code == 200, answer.text
    after = int(re.search(r"Standings after round (\d+)", answer.text).group(1))
    return after, [
        (int(rank), unescape(name), _value(points),
         tuple(_value(c) for c in re.findall(r'<td class="num tb">(.*?)</td>', rest)))
        for rank, name, points, rest in _ROW.findall(answer.text)
    ]  # fmt: skip


def printed_view(app, event_id: int, latest: int) -> tuple[int, list[Row]]:
    """The standings printed with the latest round's forms."""
    printed = forms_from_sessions(app.state.sessions, latest, event_id=event_id).standings
    after = int(printed.after_round)
    if after == 0:  # a blank form: names and no figure yet, no rank
        assert all(r.points == "0" for r in printed.rows)
        return 0, []
    return after, [
        (int(r.rank), r.name, _value(r.points), tuple(_value(v) for v in r.tiebreaks))
        for r in printed.rows
    ]


def trf_view(svc: TournamentService, event_id: int) -> tuple[int, dict[str, tuple[int, float]]]:
    """The TRF's rounds (result columns), and each player's points and rank."""
    players = [x for x in svc.trf.export_trf(event=event_id).splitlines() if x.startswith("001 ")]
    after = max((len(x[91:]) + 2) // 10 for x in players) if players else 0
    return after, {x[14:47].strip(): (int(x[85:89]), float(x[80:84])) for x in players}


def assert_views_agree(db: str, app, client: TestClient, svc: TournamentService, event_id: int):
    after, rows = cli_view(db, event_id)
    latest = len(svc.desk.event_page(event_id).rounds_)
    assert desk_view(client, event_id) == (after, rows)
    for refresh in (False, True):
        assert public_view(client, event_id, refresh) == (after, rows)
    if latest:
        printed_after, printed = printed_view(app, event_id, latest)
        assert printed_after == after
        if after:
            assert printed == rows
    trf_after, trf = trf_view(svc, event_id)
    assert trf_after == after
    assert trf == {name: (rank, points) for rank, name, points, _ in rows}
    # the figures are after the last round with every result in, and say so
    table = svc.ranking.standings(event=event_id)
    assert table.rounds == after
    assert after == (latest if table.in_progress is None else table.in_progress - 1)


XIANGQI = [("1-0", "checkmate"), ("0-1", "resignation"), ("1/2-1/2", "agreement")]


def _result(svc: TournamentService, rng: random.Random, number: int, table: int, event_id: int,
            xiangqi: bool, reason: str | None = None) -> None:  # fmt: skip
    roll = rng.random()
    if roll >= 0.22 and xiangqi:  # a Xiangqi game's result document (its players by name)
        tables = {t.table: t for t in svc.rounds.pairings(number, event=event_id)}
        result, why = rng.choice(XIANGQI)
        sheet = {"players": [tables[table].a, tables[table].b], "result": result, "reason": why}
        svc.results.record_table_result(
            number, table, sheet=sheet, reason=reason or "", event=event_id
        )
        return
    kind: dict = (
        {"forfeit": rng.choice("AB")}
        if roll < 0.15
        else {"double_forfeit": True}
        if roll < 0.22
        else {"sheet": random_sheet(rng)}
    )
    if reason is None:
        svc.results.enter_result(number, table, event=event_id, **kind)
    else:
        svc.results.correct_result(number, table, reason=reason, event=event_id, **kind)


def play(db: str, event_id: int, seed: int, max_rounds: int, xiangqi: bool = False) -> int:
    """Pair and enter every round of the event in a random order, with corrections (and,
    in Xiangqi, sanctions, a tie-break of 18.4), checking every view after each step; the
    number of checks made."""
    rng = random.Random(seed)
    app = create_app(db)
    client = TestClient(app)
    with app.state.sessions.begin() as session:
        security.set_pin(session, event_id, PIN, time.time())
    signed_in = client.post(f"/desk/{event_id}/login", data={"pin": PIN}, follow_redirects=False)
    assert signed_in.status_code == 303, signed_in.text
    svc = TournamentService(db)  # writes from another process's service: the CLI's way
    checks = 0
    entered: list[tuple[int, int]] = []
    for number in range(1, max_rounds + 1):
        try:
            tables = svc.rounds.pair_next_round(event=event_id)
        except TournamentError:  # the knockout or the groups event is over
            break
        assert_views_agree(db, app, client, svc, event_id)
        checks += 1
        games = [t.table for t in tables if t.b is not None]
        rng.shuffle(games)
        for table in games:
            _result(svc, rng, number, table, event_id, xiangqi)
            entered.append((number, table))
            if xiangqi and rng.random() < 0.3:  # given in the round being played
                who = rng.choice([t.a for t in tables])
                svc.arbiter.give_sanction("warning", "phone rang", player=who, round_number=number,
                                  event=event_id)  # fmt: skip
            assert_views_agree(db, app, client, svc, event_id)
            checks += 1
            if rng.random() < 0.2:  # a correction, in this round or an earlier one
                where = rng.choice(entered)
                try:
                    _result(svc, rng, *where, event_id, xiangqi, reason="wrong sheet")
                except TournamentError:  # a knockout stage already decided by it
                    continue
                assert_views_agree(db, app, client, svc, event_id)
                checks += 1
    svc.engine.dispose()
    return checks


def _event(db: str, players: int, **options) -> int:
    svc = TournamentService(db)
    event_id = svc.events.create_event(name=options.pop("name"), **options)["id"]
    for i in range(players):
        svc.entrants.add_player(f"Coach {i + 1}", rating=2000 - 7 * i, event=event_id)
    svc.engine.dispose()
    return event_id


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_swiss_views_agree(tmp_path, seed):
    db = str(tmp_path / "swiss.db")
    players = random.Random(seed).randint(5, 11)  # odd fields give byes
    event_id = _event(db, players, name="Swiss", system="swiss", rounds=4)
    assert play(db, event_id, seed, 4) > 4 * players // 2


@pytest.mark.parametrize("seed", [4, 5])
def test_round_robin_views_agree(tmp_path, seed):
    db = str(tmp_path / "rr.db")
    players = random.Random(seed).randint(4, 6)
    event_id = _event(db, players, name="Berger", system="round-robin")
    assert play(db, event_id, seed, players) > players


@pytest.mark.parametrize("seed", [6])
def test_knockout_views_agree(tmp_path, seed):
    db = str(tmp_path / "ko.db")
    event_id = _event(db, 7, name="Cup", system="knockout")
    assert play(db, event_id, seed, 12) > 3


@pytest.mark.parametrize("seed", [7])
def test_groups_views_agree(tmp_path, seed):
    db = str(tmp_path / "groups.db")
    event_id = _event(db, 8, name="Groups", system="groups", groups=Setup(2, qualifiers=2))
    assert play(db, event_id, seed, 12) > 6


@pytest.mark.parametrize("seed", [8])
def test_xiangqi_swiss_views_agree(tmp_path, seed):
    db = str(tmp_path / "xq.db")
    event_id = _event(db, 7, name="Xiangqi", system="swiss", rounds=4, game_name="xiangqi")
    assert play(db, event_id, seed, 4, xiangqi=True) > 12
