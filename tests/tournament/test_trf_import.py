"""TRF import: every number checked with the line named, record 162's scoring, withdrawals
and the tie-break rules of the event's date (issue 11, items 11 and 21)."""

from __future__ import annotations

import pytest

from ball.tournament import TournamentError, TournamentService

from .test_cli import ball, one_line_error


def small_swiss(
    db, *, scoring=None, date="2025-06-01", players=6, rounds=3, withdraw=(), played=2, bye=None
):
    """A Swiss of `players` with rounds 1..played decided by forfeits, a bye in an odd field,
    and `bye` (a name) given a requested half-point bye in round 1."""
    svc = TournamentService(db)
    svc.events.create_event(
        name="Open", system="swiss", rounds=rounds, date_start=date, scoring=scoring
    )
    for i in range(players):
        svc.entrants.add_player(f"P{i + 1}", rating=2000 - 10 * i)
    if bye:
        svc.entrants.request_bye(bye, 1, "half")
    for number in range(1, played + 1):
        for t in svc.rounds.pair_next_round():
            if t["b"] is not None:
                svc.results.enter_result(number, t["table"], forfeit="B" if t["table"] % 2 else "A")
    for name in withdraw:
        svc.entrants.withdraw(name)
    return svc


def replace_record(text: str, code: str, value: str) -> str:
    lines = [f"{code} {value}" if x.startswith(code) else x for x in text.splitlines()]
    return "\n".join(lines) + "\n"


def write(tmp_path, text: str) -> str:
    path = tmp_path / "in.trf"
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ item 11: numbers


@pytest.mark.parametrize("value", ["99999999999999999999", "-3", "0", "three", "1000"])
def test_a_bad_number_of_rounds_is_a_clear_error(tmp_path, value, swiss_trf):
    text = replace_record(swiss_trf, "XXR", value)
    db = str(tmp_path / "b.db")
    msg = one_line_error(ball("event", "import", "trf", "--db", db, write(tmp_path, text)))
    assert "(XXR)" in msg and "number of rounds" in msg and repr(value) in msg
    assert TournamentService(db).events.list_events() == []


def test_fewer_rounds_declared_than_held_is_refused(tmp_path, swiss_trf):
    text = swiss_trf
    for code in ("XXR", "142"):
        text = replace_record(text, code, "1")
    with pytest.raises(TournamentError, match="1 rounds declared, but the player records hold 2"):
        TournamentService(tmp_path / "b.db").trf.import_trf(text)


def first_player(text: str) -> tuple[list[str], int]:
    lines = text.splitlines()
    return lines, next(i for i, x in enumerate(lines) if x.startswith("001"))


@pytest.mark.parametrize(
    ("start", "end", "value", "label"),
    [
        (4, 8, "  -1", "starting number"),
        (48, 52, " -20", "rating"),
        (48, 52, "1e99", "rating"),
        (91, 95, "  -3", "opponent"),
        (91, 95, "99x9", "opponent"),
    ],
)
def test_bad_numbers_in_a_player_record_name_the_line(
    tmp_path, start, end, value, label, swiss_trf
):
    lines, first = first_player(swiss_trf)
    row = lines[first]
    lines[first] = row[:start] + value + row[end:]
    target = TournamentService(tmp_path / "b.db")
    with pytest.raises(TournamentError, match=rf"TRF line {first + 1} \(001\).*{label}"):
        target.trf.import_trf("\n".join(lines) + "\n")
    assert target.events.list_events() == []


@pytest.mark.parametrize(
    ("code", "value", "needle"),
    [
        ("162", " W nan    D 0.5", "points for W"),
        ("162", " W 1.0    D -1", "points for D"),
        ("162", " W 1e9", "points for W"),
        ("042", "2025/13/45", "date"),
        ("XXW", "77", "no player has number 77"),
        ("XXW", "-2", "pairing number"),
        ("XXZ", "1 99999999999999999999", "pairing number"),
    ],
)
def test_bad_header_values_are_clear_errors(tmp_path, code, value, needle, swiss_trf):
    text = swiss_trf
    text = replace_record(text, code, value) if code in text else text + f"{code} {value}\n"
    db = str(tmp_path / "b.db")
    msg = one_line_error(ball("event", "import", "trf", "--db", db, write(tmp_path, text)))
    assert needle in msg, msg
    assert TournamentService(db).events.list_events() == []


# ------------------------------------------------------------------ item 21: scoring


def points(svc: TournamentService) -> dict[str, float]:
    return {x["name"]: x["points"] for x in svc.ranking.standings()["standings"]}


def test_record_162_scoring_is_imported(tmp_path):
    scoring = {"win": 3, "draw": 1, "forfeit_win": 2, "pab": 1.5, "half_bye": 1, "zero_bye": 0.5}
    # One round: gacrux, the Swiss engine, scores a forfeit win as a win, so a second round
    # with these points could not be paired.
    svc = small_swiss(tmp_path / "a.db", scoring=scoring, players=6, played=1, bye="P6")
    imported = TournamentService(tmp_path / "b.db")
    info = imported.trf.import_trf(svc.trf.export_trf())
    for key, value in scoring.items():
        assert info["scoring"][key] == value, key
    assert info["scoring"]["loss"] == 0 and info["scoring"]["full_bye"] == 3  # follows win
    assert points(imported) == points(svc)
    # forfeit win 2, PAB 1.5, half-point bye 1: none is what the default scoring gives
    assert sorted(set(points(imported).values())) == [0.0, 1.0, 1.5, 2.0]


def test_a_round_robin_bye_keeps_its_zero_points(tmp_path):
    svc = TournamentService(tmp_path / "a.db")
    svc.events.create_event(name="RR", system="round-robin", date_start="2025-06-01")
    for i in range(5):
        svc.entrants.add_player(f"P{i + 1}")
    for t in svc.rounds.pair_next_round():
        if t["b"] is not None:
            svc.results.enter_result(1, t["table"], forfeit="B")
    text = svc.trf.export_trf()
    imported = TournamentService(tmp_path / "b.db")
    assert imported.trf.import_trf(text)["scoring"]["pab"] == 0
    assert points(imported) == points(svc)
    # A file without record 162: a round robin's bye is still worth nothing.
    bare = "\n".join(x for x in text.splitlines() if not x.startswith("162")) + "\n"
    again = TournamentService(tmp_path / "c.db")
    assert again.trf.import_trf(bare)["scoring"]["pab"] == 0
    assert points(again) == points(svc)


def test_gacrux_scores_the_imported_event_as_we_do(tmp_path):
    from .test_swiss_gacrux import gacrux

    svc = small_swiss(
        tmp_path / "a.db", scoring={"win": 3, "draw": 1, "forfeit_win": 3, "pab": 1.5}, players=5
    )
    imported = TournamentService(tmp_path / "b.db")
    imported.trf.import_trf(svc.trf.export_trf())
    path = tmp_path / "b.trf"
    path.write_text(imported.trf.export_trf(), encoding="utf-8")
    run = gacrux("tiebreakchecker", "-i", str(path), "-s", "-t", "PTS", "-d", "T")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [line.split("\t") for line in run.stdout.splitlines() if line.strip()]
    theirs = {int(r[0]): float(dict(zip(rows[0], r, strict=True))["PTS"]) for r in rows[1:]}
    ours = {x["number"]: x["points"] for x in imported.ranking.standings()["standings"]}
    assert theirs == ours and 1.5 in ours.values()


# ------------------------------------------------------------------ item 21: withdrawals


def test_withdrawals_survive_the_round_trip(tmp_path):
    svc = small_swiss(tmp_path / "a.db", withdraw=("P2", "P5"))
    text = svc.trf.export_trf()
    imported = TournamentService(tmp_path / "b.db")
    imported.trf.import_trf(text)
    status = {e["name"]: e["status"] for e in imported.events.event_info()["entrants"]}
    assert status == {f"P{i}": "withdrawn" if i in (2, 5) else "active" for i in range(1, 7)}
    tables = imported.rounds.pair_next_round()
    seated = {t["a"] for t in tables} | {t["b"] for t in tables if t["b"]}
    assert seated == {"P1", "P3", "P4", "P6"}
    assert imported.trf.export_trf().count("XXW") == text.count("XXW") == 1


# ------------------------------------------------------------------ item 21: rule version


@pytest.mark.parametrize(
    ("date", "rules"),
    [("2026-02-28", "fide-2024"), ("2026-03-01", "fide-2026"), ("2025-06-01", "fide-2024")],
)
def test_rules_follow_the_start_date(tmp_path, date, rules):
    svc = TournamentService(tmp_path / "a.db")
    assert svc.events.create_event(
        name="E", system="swiss", date_start=date
    )["tiebreak_rules"] == rules
    text = small_swiss(tmp_path / "b.db", date=date).trf.export_trf()
    imported = TournamentService(tmp_path / "c.db")
    assert imported.trf.import_trf(text)["tiebreak_rules"] == rules


def test_the_organisers_choice_of_rules_is_kept(tmp_path):
    svc = TournamentService(tmp_path / "a.db")
    info = svc.events.create_event(
        name="E", system="swiss", date_start="2026-06-01", tiebreak_rules="fide-2024"
    )
    assert info["tiebreak_rules"] == "fide-2024"
    text = small_swiss(tmp_path / "b.db", date="2026-06-01").trf.export_trf()
    db = str(tmp_path / "c.db")
    r = ball(
        "event", "import", "trf", "--db", db, "--tiebreak-rules", "fide-2024", write(tmp_path, text)
    )
    assert r.exit_code == 0, r.output
    assert TournamentService(db).events.event_info()["tiebreak_rules"] == "fide-2024"
    msg = one_line_error(
        ball(
            "event",
            "import",
            "trf",
            "--db",
            db,
            "--tiebreak-rules",
            "fide-1999",
            write(tmp_path, text),
        )
    )
    assert "fide-1999" in msg


def test_cli_create_defaults_to_the_rules_of_the_date(tmp_path):
    db = str(tmp_path / "e.db")
    for name, date in (("Old", "2025-12-01"), ("New", "2026-04-01")):
        r = ball(
            "event", "create", "--db", db, "--name", name, "--system", "swiss", "--start", date
        )
        assert r.exit_code == 0, r.output
    svc = TournamentService(db)
    assert svc.events.event_info("Old")["tiebreak_rules"] == "fide-2024"
    assert svc.events.event_info("New")["tiebreak_rules"] == "fide-2026"
