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

CASES = [(7, 5, 1), (10, 6, 2), (15, 7, 3), (22, 7, 4), (31, 9, 5), (12, 5, 6), (9, 7, 7)]


def gacrux(module: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", f"gacrux.{module}", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def gacrux_tiebreaks(path) -> dict[int, dict[str, float]]:
    run = gacrux("tiebreakchecker", "-i", str(path), "-s", "-t", *SHARED.values(), "-d", "T")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [line.split("\t") for line in run.stdout.splitlines() if line.strip()]
    header = rows[0]
    out = {}
    for row in rows[1:]:
        values = dict(zip(header, row, strict=True))
        out[int(values["StartNo"])] = {k: float(values[v]) for k, v in SHARED.items()}
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("players", "rounds", "seed"), CASES)
def test_generated_swiss_passes_gacrux(tmp_path, players, rounds, seed):
    svc = generate_swiss(tmp_path / "swiss.db", players=players, rounds=rounds, seed=seed)
    chain = list(SHARED)
    trf_path = tmp_path / "event.trf"
    trf_path.write_text(svc.export_trf(), encoding="utf-8")

    check = gacrux("pairingchecker", "-i", str(trf_path), "-c", "-d", "T")
    assert check.returncode == 0 and "Check: True" in check.stdout, check.stdout[-3000:]

    # Same event, our values for the shared tie-breaks, against gacrux's.
    from ball.tournament import service as service_module

    with svc._tx() as s:
        ev = svc._event(s, None)
        ev.tiebreaks = service_module.json.dumps(chain)
    ours = {x["number"]: x["tiebreaks"] for x in svc.standings()["standings"]}
    theirs = gacrux_tiebreaks(trf_path)
    assert set(ours) == set(theirs)
    for number, values in theirs.items():
        for name, value in values.items():
            assert ours[number][name] == pytest.approx(value), (number, name)
