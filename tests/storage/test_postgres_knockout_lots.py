"""A knockout paired by the drawing of lots with mini-match ties (migration
tournament_0003_e) runs on PostgreSQL exactly as on SQLite."""

from __future__ import annotations

import json

from ball.tournament import TournamentService


def play(db: str) -> dict:
    svc = TournamentService(db)
    svc.events.create_event(name="Lots KO", system="knockout", games_per_tie=3, tie_extra_games=1)
    for i in range(5):
        svc.entrants.add_player(f"K{i + 1}", rating=2000 - i)
    svc.knockout.draw_round(seed=17)
    svc.knockout.record_tie_game(1, 1, 1, forfeit="B")
    svc.knockout.record_tie_game(1, 1, 2, forfeit="B")  # 1-1
    svc.knockout.record_tie_game(1, 1, 3, forfeit="A")  # game 3: side A forfeits, B goes through
    svc.knockout.record_tie_game(1, 2, 1, forfeit="A")  # side B wins game 1
    # side B, first colour in game 2, forfeits: 1-1
    svc.knockout.record_tie_game(1, 2, 2, forfeit="A")
    svc.knockout.record_tie_game(1, 2, 3, sheet=None, double_forfeit=True)  # nobody goes through
    svc.knockout.draw_round(cards={n: c for n, c in zip(_field(svc), ["1R", "1B"], strict=True)})
    rounds = [svc.rounds.pairings(r) for r in (1, 2)]
    log = [(e["kind"], e["round"], json.loads(e["detail"])) for e in svc.arbiter.log()]
    return {"rounds": rounds, "log": log, "standings": svc.ranking.standings()["standings"]}


def _field(svc: TournamentService) -> list[str]:
    first = svc.rounds.pairings(1)
    winners = [t["tie"]["winner"] for t in first if t["b"] is not None and t["tie"]["winner"]]
    return sorted(winners + [t["a"] for t in first if t["b"] is None])


def test_drawn_knockout_with_ties_equals_sqlite(fresh_postgres_url, tmp_path):
    on_postgres = play(fresh_postgres_url)
    on_sqlite = play(str(tmp_path / "ko.db"))
    assert on_postgres == on_sqlite
    assert [kind for kind, _, _ in on_postgres["log"]] == ["draw", "draw"]
    assert all("tie" in t for t in on_postgres["rounds"][0] if t["b"] is not None)
