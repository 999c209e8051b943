"""Generated Swiss events: their TRF export passes gacrux's pairing checker, and our
tie-break values equal gacrux's tie-break checker for the tie-breaks both know."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .generator import generate_swiss

# ours -> gacrux's rank-order specifier
SHARED = {
    "buchholz": "BH",
    "buchholz-cut1": "BH/C1",
    "buchholz-median": "BH/M1",
    "sonneborn-berger": "SB",
    "wins": "WIN",
    "progressive": "PS",
    "koya": "KS",
}

# Direct encounter first: its groups are then the entrants tied on points in both programs.
WITH_DE = {"direct-encounter": "DE", **SHARED}

CASES = [
    (7, 5, 1, "fide-2024"),
    (10, 6, 2, "fide-2024"),
    (15, 7, 3, "fide-2024"),
    (22, 7, 4, "fide-2024"),
    (31, 9, 5, "fide-2024"),
    (12, 5, 6, "fide-2024"),
    (9, 7, 7, "fide-2024"),
    (14, 7, 8, "fide-2026"),
    (19, 8, 9, "fide-2026"),
    (11, 6, 10, "three-one-zero"),
]
# gacrux reads the organiser's points from the 162 record of the export.
SCORING = {
    "three-one-zero": {
        "win": 3,
        "draw": 1,
        "forfeit_win": 3,
        "pab": 3,
        "half_bye": 1,
        "full_bye": 3,
    }
}
DATES = {"fide-2024": "2025-06-01", "fide-2026": "2026-06-01"}  # gacrux picks rules by date


def gacrux(module: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", f"gacrux.{module}", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def gacrux_tiebreaks(path) -> dict[int, dict[str, float]]:
    codes = ["PTS", "DE", *SHARED.values()]
    run = gacrux("tiebreakchecker", "-i", str(path), "-s", "-t", *codes, "-d", "T")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [line.split("\t") for line in run.stdout.splitlines() if line.strip()]
    header = rows[0]
    out = {}
    for row in rows[1:]:
        values = dict(zip(header, row, strict=True))
        out[int(values["StartNo"])] = {k: float(values[v]) for k, v in WITH_DE.items()}
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("players", "rounds", "seed", "rules"), CASES)
def test_generated_swiss_passes_gacrux(tmp_path, players, rounds, seed, rules):
    svc = generate_swiss(
        tmp_path / "swiss.db",
        players=players,
        rounds=rounds,
        seed=seed,
        rules=rules if rules in DATES else "fide-2024",
        date=DATES.get(rules, "2025-06-01"),
        scoring=SCORING.get(rules),
        byes=0.08,
        withdrawals=0.03,
    )
    chain = list(WITH_DE)
    trf_path = tmp_path / "event.trf"
    trf_path.write_text(svc.trf.export_trf(), encoding="utf-8")

    check = gacrux("pairingchecker", "-i", str(trf_path), "-c", "-d", "T")
    assert check.returncode == 0 and "Check: True" in check.stdout, check.stdout[-3000:]

    # Same event, our values for the shared tie-breaks, against gacrux's.
    import json

    with svc.store.tx() as s:
        ev = svc.store.event(s, None)
        ev.tiebreaks = json.dumps(chain)
    ours = {x["number"]: x["tiebreaks"] for x in svc.ranking.standings()["standings"]}
    theirs = gacrux_tiebreaks(trf_path)
    assert set(ours) == set(theirs)
    for number, values in theirs.items():
        for name, value in values.items():
            assert ours[number][name] == pytest.approx(value), (number, name)


RR_SHARED = {"sonneborn-berger": "SB", "wins": "WIN", "koya": "KS", "buchholz": "BH"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "seed", "system"),
    [(7, 5, "round-robin"), (8, 6, "round-robin"), (5, 7, "double-round-robin")],
)
def test_generated_round_robin_passes_gacrux(tmp_path, players, seed, system):
    import random

    from ball.tournament import TournamentError, TournamentService

    from .generator import enter_random_results

    svc = TournamentService(tmp_path / "rr.db")
    chain = ["direct-encounter", *RR_SHARED]
    svc.events.create_event(name="RR", system=system, date_start="2025-06-01", tiebreaks=chain)
    for i in range(players):
        svc.entrants.add_player(f"P{i}")
    rng = random.Random(seed)
    number = 0
    while True:
        try:
            tables = svc.rounds.pair_next_round()
        except TournamentError as exc:
            assert "rounds are paired" in str(exc)
            break
        number += 1
        enter_random_results(svc, number, tables, rng, forfeits=0.15)
    assert number == (players - 1 if players % 2 == 0 else players) * (
        2 if system.startswith("double") else 1
    )
    path = tmp_path / "rr.trf"
    path.write_text(svc.trf.export_trf(), encoding="utf-8")
    if system == "round-robin":  # gacrux's Berger checker knows single round robins
        check = gacrux("pairingchecker", "-i", str(path), "-c", "-m", "berger", "-d", "T")
        assert check.returncode == 0 and "Check: True" in check.stdout, check.stdout[-3000:]

    run = gacrux(
        "tiebreakchecker", "-i", str(path), "-p", "-t", "PTS", "DE", *RR_SHARED.values(), "-d", "T"
    )
    rows = [line.split("\t") for line in run.stdout.splitlines() if line.strip()]
    theirs = {int(r[0]): dict(zip(rows[0], r, strict=True)) for r in rows[1:]}
    ours = {x["number"]: x for x in svc.ranking.standings()["standings"]}
    for number_, row in theirs.items():
        for name, code in RR_SHARED.items():
            assert ours[number_]["tiebreaks"][name] == pytest.approx(float(row[code])), (
                number_,
                name,
            )
    for number_, row in theirs.items():
        assert ours[number_]["tiebreaks"]["direct-encounter"] == float(row["DE"]), number_
