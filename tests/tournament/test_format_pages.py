"""The bracket and team-card reads of `format_pages` (issue 17), on events built through the
service: a drawn knockout of mini-matches (seed 004 §9, art. 6, 13.5) and a two-team event
(12.2, 13.2/13.3, 14.2). Also: a Xiangqi mini-match's even game is recorded with Red = the
side that has the first colour in that game (13.5), so its result is not turned round."""

from __future__ import annotations

import pytest

from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.service import TournamentService


def doc(red: str, black: str, result: str) -> dict:
    reason = "agreement" if result == "1/2-1/2" else "checkmate"
    return {"players": [red, black], "result": result, "reason": reason}


@pytest.fixture
def svc(tmp_path) -> TournamentService:
    return TournamentService(tmp_path / "e.sqlite")


def knockout(svc: TournamentService, names: str = "Ann Bo Cy Di Ed") -> int:
    summary = svc.events.create_event(
        name="KO", system="knockout", game_name="xiangqi", games_per_tie=3,
        tie_extra_games=2, tie_break="lots",
    )  # fmt: skip
    for n in names.split():
        svc.entrants.add_player(n, event=summary.id)
    return summary.id


def test_draw_shows_seed_cards_and_bye(svc):
    ev = knockout(svc)
    drawn = svc.knockout.draw_round(seed=7, event=ev)
    bracket = svc.formats.bracket(ev)
    rnd = bracket.rounds[0]
    assert rnd.draw is not None and rnd.draw.seed == 7
    assert dict(rnd.draw.cards) == drawn["cards"]
    # cards listed red 1.., black 1.., then K (seed 004 §9)
    suits = [card[-1] for _, card in rnd.draw.cards]
    assert suits == sorted(suits, key="RBK".index)
    king = next(name for name, card in drawn["cards"].items() if card == "K")
    assert rnd.bye == king == rnd.draw.bye
    assert len(rnd.ties) == 2 and not bracket.can_draw  # ties still to play


def test_even_xiangqi_game_keeps_its_winner(svc):
    ev = knockout(svc)
    svc.knockout.draw_round(seed=7, event=ev)
    tie = svc.formats.bracket(ev).rounds[0].ties[0]
    svc.knockout.record_tie_game(1, tie.table, 1, sheet=doc(tie.a, tie.b, "1-0"), event=ev)
    # game 2: side B has Red (13.5); Red wins
    svc.knockout.record_tie_game(1, tie.table, 2, sheet=doc(tie.b, tie.a, "1-0"), event=ev)
    after = svc.formats.bracket(ev).rounds[0].ties[0]
    assert [g.winner for g in after.games] == [tie.a, tie.b]
    assert after.points == (1.0, 1.0) and after.next_first == tie.a
    with pytest.raises(TournamentError, match="Red"):
        # the document of game 3 must name its Red (side A) first
        svc.knockout.record_tie_game(1, tie.table, 3, sheet=doc(tie.b, tie.a, "1-0"), event=ev)


def test_level_tie_goes_to_lots_and_the_next_draw(svc):
    ev = knockout(svc, "Ann Bo Cy Di")
    svc.knockout.draw_round(seed=3, event=ev)
    for tie in svc.formats.bracket(ev).rounds[0].ties:
        sides = (tie.a, tie.b)
        for game in range(1, 6):  # 3 games + 2 extra games, all drawn
            red, black = sides if game % 2 else sides[::-1]
            svc.knockout.record_tie_game(
                1, tie.table, game, sheet=doc(red, black, "1/2-1/2"), event=ev
            )
        assert svc.formats.bracket(ev).rounds[0].ties[tie.table - 1].phase == "lots"
        svc.knockout.draw_tie_lots(1, tie.table, seed=11, event=ev)
    bracket = svc.formats.bracket(ev)
    done = bracket.rounds[0].ties
    assert all(t.how == "lots" and t.lots_seed == 11 for t in done)
    assert [g.extra for g in done[0].games] == [False, False, False, True, True]
    assert bracket.can_draw and sorted(bracket.field) == sorted(t.winner for t in done)


def test_bracket_of_a_round_robin_is_not_found(svc):
    ev = svc.events.create_event(name="RR", system="round-robin").id
    with pytest.raises(NotFound):
        svc.formats.bracket(ev)
    with pytest.raises(NotFound):
        svc.formats.teams_page(ev)


def test_team_card_colours_and_points(svc):
    ev = svc.events.create_event(name="T", system="round-robin", game_name="xiangqi", teams=2).id
    svc.teams.add_team("Reds", ["a1=2000", "a2=1900", "a3"], event=ev)
    svc.teams.add_team("Blues", ["b1=2100", "b2", "b3"], event=ev)
    svc.teams.set_lineup("Reds", 1, ["a1", "a3"], event=ev)  # a substitute on board 2 (12.2)
    page = svc.formats.teams_page(ev)
    assert page.teams[0].lineup == ["a1", "a3"] and page.teams[0].declared
    assert page.teams[1].lineup == ["b1", "b2"] and not page.teams[1].declared
    svc.rounds.pair_next_round(event=ev)
    card = svc.formats.match_card(ev, 1, 1)
    # 13.2/13.3: the first-named team has the first colour on board 1 only
    assert [b.first_has_first_colour for b in card.boards] == [True, False]
    assert [(b.first_player, b.second_player) for b in card.boards] == [("a1", "b1"), ("a3", "b2")]
    assert card.game_points is None
    svc.results.record_table_result(1, 1, sheet=doc("a1", "b1", "0-1"), event=ev)
    svc.results.record_table_result(1, 2, sheet=doc("b2", "a3", "0-1"), event=ev)  # a3 (Black) wins
    card = svc.formats.match_card(ev, 1, 1)
    assert [b.result for b in card.boards] == ["0-1", "1-0"]
    assert card.game_points == (1.0, 1.0) and card.match_points == (1, 1)
    standings = svc.formats.teams_page(ev).standings
    assert [(r["team"], r["match_points"]) for r in standings] == [("Blues", 1), ("Reds", 1)]
    with pytest.raises(NotFound):
        svc.formats.match_card(ev, 1, 2)
