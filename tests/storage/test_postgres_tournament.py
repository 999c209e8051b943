"""The tournament service on PostgreSQL runs an event exactly as it does on SQLite, and bad
input is refused there too without touching what is stored."""

from __future__ import annotations

import threading

import pytest

from ball.tournament import TournamentService
from ball.tournament.errors import TournamentError

PLAYERS = [("Ann", 2100, "Sofia"), ("Bora", 2000, "Seoul"), ("Cvet", 1900, ""), ("Dae", 1800, "")]


def sheet(td_first: str | None, td_second: str | None, pb: int) -> dict:
    """A legal score sheet: A attacks first; touchdowns (or none) per half, PB per half."""
    return {
        "coaches": ["A", "B"],
        "forfeit": None,
        "halves": [
            {
                "atk_first": atk,
                "td": td,
                "pb": {"A": {"atk": pb, "def": pb + 1}, "B": {"atk": pb + 1, "def": pb}},
            }
            for atk, td in (("A", td_first), ("B", td_second))
        ],
    }


def play_round_robin(db: str) -> dict:
    """Create, register, pair every round and enter sheets, a forfeit and a double forfeit;
    return everything a reader sees: pairings, standings, the TRF and the event summary."""
    svc = TournamentService(db)
    svc.events.create_event(
        name="Club RR", system="round-robin", draw_lots=11, date_start="2026-11-28"
    )
    for name, rating, club in PLAYERS:
        svc.entrants.add_player(name, rating=rating, club=club)
    results = [
        [{"sheet": sheet("A", None, 2)}, {"forfeit": "B"}],
        [{"sheet": sheet(None, None, 3)}, {"sheet": sheet("B", "B", 1)}],
        [{"double_forfeit": True}, {"sheet": sheet("A", "B", 4)}],
    ]
    rounds = []
    for number, entries in enumerate(results, start=1):
        tables = svc.rounds.pair_next_round()
        rounds.append(tables)
        for table, entry in zip(tables, entries, strict=True):
            svc.results.enter_result(number, table["table"], **entry)
    return {
        "rounds": rounds,
        "standings": svc.ranking.standings(),
        "after_round_2": svc.ranking.standings(upto=2),
        "trf": svc.trf.export_trf(),
    }


def test_round_robin_standings_equal_sqlite(fresh_postgres_url, tmp_path):
    on_postgres = play_round_robin(fresh_postgres_url)
    on_sqlite = play_round_robin(str(tmp_path / "rr.sqlite"))
    assert len(on_postgres["rounds"]) == 3
    assert all(len(tables) == 2 for tables in on_postgres["rounds"])
    table = on_postgres["standings"]["standings"]
    assert sorted(row["name"] for row in table) == sorted(p[0] for p in PLAYERS)
    # Six tables: one double forfeit (nobody scores), five with a winner (a forfeit, and
    # four sheets decided by touchdowns or, without any, by PB): one point each.
    assert sum(row["points"] for row in table) == 5.0
    assert on_postgres == on_sqlite


def test_second_result_for_a_table_is_refused_and_the_first_stays(fresh_postgres_url):
    svc = TournamentService(fresh_postgres_url)
    svc.events.create_event(name="Guarded", system="round-robin", draw_lots=3)
    for name, rating, club in PLAYERS:
        svc.entrants.add_player(name, rating=rating, club=club)
    tables = svc.rounds.pair_next_round()
    first = tables[0]["table"]
    svc.results.enter_result(1, first, sheet=sheet("A", None, 2))
    before = svc.ranking.standings()
    with pytest.raises(TournamentError, match="already has a result"):
        svc.results.enter_result(1, first, forfeit="A")
    with pytest.raises(TournamentError, match="out of range"):
        svc.ranking.standings(upto=2**40)  # beyond PostgreSQL's INTEGER: refused before the query
    assert svc.ranking.standings() == before
    assert TournamentService(fresh_postgres_url).ranking.standings() == before


@pytest.mark.parametrize(
    ("name", "club", "why"),
    [
        # SQLite ignores VARCHAR(200), PostgreSQL refuses it: both are refused before the
        # database, by the length rule, with the field and the limit named
        ("N" * 201, "", "entrant name is at most 200 characters, got 201"),
        ("Eve", "C" * 201, "club is at most 200 characters, got 201"),
    ],
)
def test_values_postgres_refuses_are_a_clear_error_and_write_nothing(
    fresh_postgres_url, name, club, why
):
    svc = TournamentService(fresh_postgres_url)
    svc.events.create_event(name="Strict", system="swiss", rounds=3)
    svc.entrants.add_player("Ann", club="Sofia")
    before = svc.events.event_info()
    with pytest.raises(TournamentError, match=why) as refused:
        svc.entrants.add_player(name, club=club)
    assert "\n" not in str(refused.value).strip()
    assert TournamentService(fresh_postgres_url).events.event_info() == before


def test_a_nul_byte_is_refused_before_the_database(fresh_postgres_url):
    # PostgreSQL text holds no NUL byte; the name rule (one line of printable text) refuses
    # it first, on every database, with the field named.
    svc = TournamentService(fresh_postgres_url)
    svc.events.create_event(name="Strict", system="swiss", rounds=3)
    before = svc.events.event_info()
    with pytest.raises(TournamentError, match=r"entrant name .*U\+0000"):
        svc.entrants.add_player("Nul\x00Byte")
    assert TournamentService(fresh_postgres_url).events.event_info() == before


def test_a_name_with_a_nul_byte_names_no_entrant(fresh_postgres_url):
    # The writes that name an entrant look it up by a query, and PostgreSQL refuses a NUL
    # byte in a text parameter: the refusal is still the one SQLite gives, nothing written.
    svc = TournamentService(fresh_postgres_url)
    svc.events.create_event(name="Strict", system="swiss", rounds=3)
    svc.entrants.add_player("Ann")
    before = svc.events.event_info(), svc.arbiter.log()
    for write in (
        lambda: svc.entrants.withdraw("Ann\x00"),
        lambda: svc.entrants.request_bye("Ann\x00", 1),
        lambda: svc.arbiter.record("note", "x", name="Ann\x00"),
        lambda: svc.arbiter.give_sanction("warning", "x", player="Ann\x00"),
    ):
        with pytest.raises(TournamentError) as refused:
            write()
        assert str(refused.value) == "no entrant named 'Ann\\x00' in event 'Strict'"
    assert (svc.events.event_info(), svc.arbiter.log()) == before


def test_racing_results_for_one_table_land_once(fresh_postgres_url):
    """No SQLite write lock here: the unique result per pairing stops the second writer."""
    svc = TournamentService(fresh_postgres_url)
    svc.events.create_event(name="Race", system="round-robin", draw_lots=2)
    for name, rating, club in PLAYERS:
        svc.entrants.add_player(name, rating=rating, club=club)
    table = svc.rounds.pair_next_round()[0]["table"]
    writers = {f"{side}{i}": TournamentService(fresh_postgres_url) for i, side in enumerate("ABAB")}
    start = threading.Barrier(len(writers), timeout=60)
    outcomes: dict[str, str] = {}

    def enter(key: str) -> None:
        start.wait()
        try:
            writers[key].results.enter_result(1, table, forfeit=key[0])
            outcomes[key] = "ok"
        except TournamentError as exc:
            outcomes[key] = str(exc)

    threads = [threading.Thread(target=enter, args=(key,)) for key in writers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [key for key, outcome in outcomes.items() if outcome == "ok"]
    assert len(winners) == 1, outcomes
    assert all(
        "already has a result" in o or "rejected by the database" in o
        for o in outcomes.values()
        if o != "ok"
    ), outcomes
    stored = next(t for t in svc.rounds.pairings(1) if t["table"] == table)
    assert stored["result"]["forfeit_by"] == winners[0][0]
