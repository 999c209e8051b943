"""A forfeit's stored result is one row shape wherever it comes from (issue 12): entered
(`--forfeit`, `--double-forfeit`), a withdrawn entrant left in a round robin, or a TRF's
`+`/`-` on import; its figures are the game's (`Game.forfeit`, `double_forfeit`)."""

from __future__ import annotations

import json

from sqlalchemy import select

from ball.games import game
from ball.tournament import TournamentService
from ball.tournament.forfeits import forfeit_result
from ball.tournament.models import Pairing, Result, Round


def stored(svc: TournamentService, event: str, number: int) -> dict[int, tuple]:
    """(kind, forfeit_by, outcome, decision) of each result of round `number`, by table."""
    with svc.store.sessions() as s:
        rows = s.execute(
            select(Pairing.table, Result)
            .join(Result, Result.pairing_id == Pairing.id)
            .join(Round, Round.id == Pairing.round_id)
            .where(Round.number == number, Round.event_id == svc.events.event_info(event).id)
        )
        return {t: (r.kind, r.forfeit_by, r.outcome, json.loads(r.decision)) for t, r in rows}


def expected(by: str | None) -> tuple:
    """What the game says a forfeit by `by` (None: both) is, written out by hand."""
    plugin = game("ball")
    if by is None:
        return ("double-forfeit", None, "N", {"figures": plugin.double_forfeit()})
    winner = "B" if by == "A" else "A"
    return ("forfeit", by, winner, {"figures": plugin.forfeit(winner)})


def test_the_builder_gives_the_games_figures():
    plugin = game("ball")
    for by in ("A", "B", None):
        r = forfeit_result(plugin, by, 12.5)
        assert (r.kind, r.forfeit_by, r.outcome, json.loads(r.decision)) == expected(by)
        assert r.entered_at == 12.5 and r.pairing_id is None and not r.sheet


def test_entered_withdrawn_and_imported_forfeits_are_stored_alike(tmp_path):
    svc = TournamentService(tmp_path / "e.db")
    svc.events.create_event(name="RR", system="round-robin", date_start="2026-11-28")
    for name in ("W", "X", "Y", "Z"):
        svc.entrants.add_player(name)
    svc.rounds.pair_next_round()
    svc.results.enter_result(1, 1, forfeit="A")
    svc.results.enter_result(1, 2, double_forfeit=True)
    assert stored(svc, "RR", 1) == {1: expected("A"), 2: expected(None)}
    # Exported and imported again, the forfeits of round 1 are the same rows. (Before the
    # withdrawal below: an entrant who then leaves having played no game has every result
    # cancelled by article 20.3, so the TRF would no longer hold that forfeit.)
    copy = svc.trf.import_trf(svc.trf.export_trf(), name="Copy")
    assert stored(svc, copy.name, 1) == stored(svc, "RR", 1)
    # A round robin keeps its schedule: the withdrawn entrant's next game is stored at
    # pairing as lost by forfeit.
    gone = svc.rounds.pairings(1, event="RR")[0].a
    svc.entrants.withdraw(gone, event="RR")
    svc.rounds.pair_next_round(event="RR")
    (row,) = [t for t in svc.rounds.pairings(2, event="RR") if gone in (t.a, t.b)]
    assert stored(svc, "RR", 2)[row.table] == expected("A" if row.a == gone else "B")
