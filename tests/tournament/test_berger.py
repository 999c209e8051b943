"""Round robin pairings equal the FIDE Berger tables (gacrux's copy as the oracle)."""

from __future__ import annotations

import pytest
from gacrux.berger import bergertables

from ball.tournament import TournamentService
from ball.tournament.berger import berger_round, berger_rounds, round_robin_round


def fide_table(n: int, r: int) -> list[tuple[int, int | None]]:
    table = bergertables(n)
    size = table["players"]
    pairs = [(p["white"], p["black"]) for _, p in sorted(table["pairing"][r].items())]
    out = []
    for w, b in pairs:
        if b > n:
            out.append((w, None))
        elif w > n:
            out.append((b, None))
        else:
            out.append((w, b))
    assert size - 1 == (n - 1 if n % 2 == 0 else n)
    return out


@pytest.mark.parametrize("n", range(3, 17))
def test_berger_rounds_equal_fide_tables(n):
    rounds = n - 1 if n % 2 == 0 else n
    for r in range(1, rounds + 1):
        assert berger_round(n, r) == fide_table(n, r)


@pytest.mark.parametrize("n", [3, 6, 9, pytest.param(16, marks=pytest.mark.slow)])  # 16: big event
def test_service_pairs_round_robin_by_berger(tmp_path, n):
    svc = TournamentService(tmp_path / "rr.db")
    svc.events.create_event(name="RR", system="round-robin")
    for i in range(n):
        svc.entrants.add_player(f"P{i + 1}")
    rounds = n - 1 if n % 2 == 0 else n
    for r in range(1, rounds + 1):
        tables = svc.rounds.pair_next_round()
        got = [(int(t["a"][1:]), int(t["b"][1:]) if t["b"] else None) for t in tables]
        assert got == fide_table(n, r)
        for t in tables:
            if t["b"]:
                svc.results.enter_result(r, t["table"], forfeit="B")
    with pytest.raises(Exception, match="all .* rounds are paired"):
        svc.rounds.pair_next_round()


def test_double_round_robin_reverses_colours():
    first = round_robin_round(4, 1, cycles=2)
    second = round_robin_round(4, 4, cycles=2)
    assert second == [(b, w) for w, b in first]


def test_drawn_lots_are_seeded_and_recorded(tmp_path):
    orders = []
    for run in range(2):
        svc = TournamentService(tmp_path / f"lots{run}.db")
        svc.events.create_event(name="RR", system="round-robin", draw_lots=42)
        for i in range(6):
            svc.entrants.add_player(f"P{i + 1}")
        svc.rounds.pair_next_round()
        info = svc.events.event_info()
        assert info["lots"]["seed"] == 42
        orders.append(info["lots"]["order"])
        assert [e["name"] for e in info["entrants"]] == info["lots"]["order"]
    assert orders[0] == orders[1]
    assert orders[0] != [f"P{i + 1}" for i in range(6)]


@pytest.mark.slow  # six Swiss pairings by the engine
def test_swiss_draw_of_lots_sets_the_initial_colour(tmp_path):
    colours = set()
    for seed in range(6):
        svc = TournamentService(tmp_path / f"s{seed}.db")
        info = svc.events.create_event(name="S", system="swiss", rounds=2, draw_lots=seed)
        colours.add(info["initial_colour"])
        svc.entrants.add_player("Top", rating=2000)
        svc.entrants.add_player("Low", rating=1000)
        (table,) = svc.rounds.pair_next_round()
        # Pairing number 1 (the top rating) has the drawn colour in round 1.
        assert table["a"] == ("Top" if info["initial_colour"] == "white1" else "Low")
        assert f"XXC {info['initial_colour']}" in svc.trf.export_trf()
        assert svc.events.event_info()["lots"]["seed"] == seed
    assert colours == {"white1", "black1"}


def colour_runs(n: int, cycles: int) -> dict[int, list[str]]:
    """Each entrant's colours over the whole event (byes skipped)."""
    colours: dict[int, list[str]] = {i: [] for i in range(1, n + 1)}
    for r in range(1, berger_rounds(n) * cycles + 1):
        for w, b in round_robin_round(n, r, cycles):
            if b is not None:
                colours[w].append("w")
                colours[b].append("b")
    return colours


@pytest.mark.parametrize("n", range(4, 17, 2))
def test_double_round_robin_never_gives_three_same_colours_in_a_row(n):
    for number, colours in colour_runs(n, 2).items():
        runs = ["".join(colours[k : k + 3]) for k in range(len(colours) - 2)]
        assert "www" not in runs and "bbb" not in runs, (n, number, "".join(colours))


@pytest.mark.parametrize("n", range(3, 17))
def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle(n):
    c = berger_rounds(n)
    order = [*range(1, c - 1), c, c - 1]
    for r, table in enumerate(order, start=1):
        assert round_robin_round(n, r, cycles=2) == berger_round(n, table)
    for r in range(1, c + 1):  # the second cycle: the tables in order, colours reversed
        reversed_ = [(b, w) if b is not None else (w, None) for w, b in berger_round(n, r)]
        assert round_robin_round(n, c + r, cycles=2) == reversed_
        assert round_robin_round(n, r, cycles=1) == berger_round(n, r)
