"""Issue 17 at the desk and on the public pages, through HTTP: a knockout drawn by lots
(seed 004 §9: the seed shown and logged, or the cards as drawn at the venue), its
mini-match ties game by game (colours per game, 13.5), extra games and the lots of a tie
still level (article 6), the bracket on the desk and the public page; a team event's teams,
line-ups with a substitute (12.2, 12.3), the team match card (13.2, 13.3) and the public
team standings (14.2). Bad input: a 400 naming the fault, nothing stored."""

from __future__ import annotations

import json
import re

from ball.tournament import lots
from ball.web.core.deps import service_for

from .conftest import create_event, post, sheet_form

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def knockout(client, names=NAMES, games="3", extra="2") -> int:
    event_id = create_event(
        client, "KO", "knockout", game="xiangqi", games_per_tie=games, extra_games=extra
    )
    for name in names:
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    return event_id


def error_of(response) -> str:
    found = re.search(r'id="desk-error">([^<]*)<', response.text)
    return found.group(1) if found else ""


def game(client, event_id, table, number, result, reason="checkmate", kind="sheet"):
    data = {"game": str(number), "kind": kind, "xq_result": result, "xq_reason": reason}
    return post(client, event_id, f"/rounds/1/ties/{table}/games", data)


def test_seeded_draw_pairs_and_shows_the_seed(client):
    event_id = knockout(client)
    assert post(client, event_id, "/draw", {"how": "seed", "seed": "7"}).status_code == 303
    expected = lots.draw_from_seed(list(NAMES), 7)  # dealt in pairing-number order
    svc = service_for(client.app)
    rnd = svc.formats.bracket(event_id).rounds[0]
    assert [(t.a, t.b) for t in rnd.ties] == expected.pairs()
    assert rnd.bye == expected.bye()
    page = client.get(f"/desk/{event_id}/bracket").text
    assert "seed 7" in page and f'data-bye="{expected.bye()}"' in page
    public = client.get(f"/public/{event_id}/bracket").text
    assert "seed 7" in public and 'id="bracket"' in public
    # the arbiter's log holds the record that replays the draw
    log = [e for e in svc.arbiter.log(event=event_id) if e.kind == "draw"]
    assert lots.replay(json.loads(log[0].detail)).pairs() == expected.pairs()


def test_cards_drawn_at_the_venue_and_their_faults(client):
    event_id = knockout(client, names=NAMES[:4])
    cards = {"Ann": "1R", "Bo": "2B", "Cy": "1B", "Di": "1B"}
    form = {"how": "cards"}
    for i, (name, card) in enumerate(cards.items(), start=1):
        form |= {f"name_{i}": name, f"card_{i}": card}
    refused = post(client, event_id, "/draw", form)
    assert refused.status_code == 400 and "1B drawn twice" in error_of(refused)
    assert service_for(client.app).formats.bracket(event_id).rounds == []  # nothing stored
    form["card_4"] = "2R"
    assert post(client, event_id, "/draw", form).status_code == 303
    rnd = service_for(client.app).formats.bracket(event_id).rounds[0]
    assert [(t.a, t.b) for t in rnd.ties] == [("Ann", "Cy"), ("Di", "Bo")]
    assert rnd.draw is not None and rnd.draw.seed is None


def test_tie_games_colours_extra_games_and_lots(client):
    event_id = knockout(client, names=NAMES[:4])
    form = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": "1B"}
    form |= {"name_3": "Cy", "card_3": "2R", "name_4": "Di", "card_4": "2B"}
    assert post(client, event_id, "/draw", form).status_code == 303
    round_page = client.get(f"/desk/{event_id}/rounds/1").text  # a tie takes its games
    assert f'href="/desk/{event_id}/rounds/1/ties/1"' in round_page
    assert f'href="/desk/{event_id}/rounds/1/tables/1"' not in round_page
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "Game 1: Ann (Red) – Bo (Black)" in page
    assert game(client, event_id, 1, 1, "1-0").status_code == 303  # Ann wins with Red
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "Game 2: Bo (Red) – Ann (Black)" in page  # colours alternate (13.5)
    # a game out of turn is refused, naming the game due
    wrong = game(client, event_id, 1, 3, "1-0")
    assert wrong.status_code == 400 and "the next game is game 2" in error_of(wrong)
    assert game(client, event_id, 1, 2, "1-0").status_code == 303  # Bo wins with Red
    assert game(client, event_id, 1, 3, "1/2-1/2", "agreement").status_code == 303
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "extra games" in page and "Game 4: Bo (Red)" in page
    assert game(client, event_id, 1, 4, "1/2-1/2", "agreement").status_code == 303
    assert game(client, event_id, 1, 5, "1/2-1/2", "agreement").status_code == 303
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert 'id="lots-seed"' in page and "Game 6" not in page
    no_winner = post(client, event_id, "/rounds/1/ties/1/lots", {"how": "winner"})
    assert no_winner.status_code == 400  # on the tie page, beside the winner's field
    assert 'id="err-winner">Choose who won the drawing of lots.<' in no_winner.text
    assert 'name="winner" aria-invalid="true" aria-describedby="err-winner"' in no_winner.text
    done = post(client, event_id, "/rounds/1/ties/1/lots", {"how": "winner", "winner": "Bo"})
    assert done.status_code == 303
    tie = service_for(client.app).formats.bracket(event_id).rounds[0].ties[0]
    assert (tie.winner, tie.how, tie.points, tie.extra_points) == ("Bo", "lots", (1.5, 1.5), (1, 1))
    # the other tie: 2-0 ends a best of three (E-08)
    assert game(client, event_id, 2, 1, "1-0").status_code == 303
    assert game(client, event_id, 2, 2, "0-1").status_code == 303  # Cy wins with Black
    bracket = service_for(client.app).formats.bracket(event_id)
    assert bracket.rounds[0].ties[1].how == "games" and bracket.can_draw
    assert sorted(bracket.field) == ["Bo", "Cy"]


def test_bracket_pages_of_other_events_are_not_found(client):
    event_id = create_event(client, "RR", "round-robin")
    assert client.get(f"/desk/{event_id}/bracket").status_code == 404
    assert client.get(f"/public/{event_id}/bracket").status_code == 404
    assert client.get(f"/public/{event_id}/teams").status_code == 404
    assert client.get("/public/999/bracket").status_code == 404
    refused = post(client, event_id, "/draw", {"how": "seed"})
    assert refused.status_code == 400 and "not a round-robin" in error_of(refused)


def test_team_event_lineups_card_and_standings(client):
    event_id = create_event(client, "Teams", "round-robin", game="xiangqi", teams="2")
    players = {"Reds": "a1=2000\na2=1900\na3", "Blues": "b1=2100\nb2\nb3"}
    for name, lines in players.items():
        assert post(client, event_id, "/teams", {"name": name, "players": lines}).status_code == 303
    reversed_ = post(client, event_id, "/teams/lineup",
                     {"team": "Reds", "board_1": "a3", "board_2": "a1"})  # fmt: skip
    assert reversed_.status_code == 400 and "12.2" in error_of(reversed_)
    sub = {"team": "Reds", "board_1": "a1", "board_2": "a3"}  # a3 replaces a2 (12.2)
    assert post(client, event_id, "/teams/lineup", sub).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    card = client.get(f"/desk/{event_id}/rounds/1/matches/1").text
    rows = re.findall(r'<tr data-board="(\d)">(.*?)</tr>', card, re.S)
    assert len(rows) == 2
    assert re.search(r"a1 <span[^>]*>\(Red\)", rows[0][1]) and "b1" in rows[0][1]
    assert re.search(r"a3 <span[^>]*>\(Black\)", rows[1][1])  # 13.3: board 2 swaps
    svc = service_for(client.app)
    tables = {(t.a, t.b): t.table for t in svc.rounds.pairings(1, event=event_id)}
    assert set(tables) == {("a1", "b1"), ("b2", "a3")}
    doc = {"kind": "sheet", "xq_reason": "checkmate"}
    for pair, result in ((("a1", "b1"), "1-0"), (("b2", "a3"), "1/2-1/2")):
        reason = {} if result == "1-0" else {"xq_reason": "agreement"}
        form = doc | {"xq_result": result, "version": "0"} | reason
        saved = post(client, event_id, f"/rounds/1/tables/{tables[pair]}", form)
        assert saved.status_code == 303, saved.text
    public = client.get(f"/public/{event_id}/teams").text
    standings = re.findall(r'<td class="name">(\w+)</td><td class="num mp">(\d)</td>'
                           r'<td class="num gp">([\d½]+)</td>', public)  # fmt: skip
    assert standings == [("Reds", "2", "1½"), ("Blues", "0", "½")]
    assert 'class="mp">2 – 0<' in public


def test_a_ball_tie_takes_each_game_as_a_sheet(client):
    """A BALL mini-match: the game form is the half sheet, coach A being the game's first
    colour (side B in game 2, 13.5); the sheet decides the game (R-forfeit aside)."""
    event_id = create_event(client, "BALL KO", "knockout", games_per_tie="2", extra_games="0")
    for name in ("Ann", "Bo"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    form = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": "1B"}
    assert post(client, event_id, "/draw", form).status_code == 303
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "Game 1: Ann (coach A, ATK first) – Bo (coach B)" in page
    saved = post(client, event_id, "/rounds/1/ties/1/games", sheet_form(td1="A") | {"game": "1"})
    assert saved.status_code == 303, error_of(saved)
    page = client.get(f"/desk/{event_id}/rounds/1/ties/1").text
    assert "Game 2: Bo (coach A, ATK first) – Ann (coach B)" in page
    faulty = sheet_form(td1="A") | {"game": "2", "h1_A_def": "9"}  # dual entry broken
    refused = post(client, event_id, "/rounds/1/ties/1/games", faulty)
    assert refused.status_code == 400 and "(dual entry)" in refused.text
    assert 'aria-describedby="err-h1_B_atk"' in refused.text and 'value="9"' in refused.text
    saved = post(client, event_id, "/rounds/1/ties/1/games", sheet_form(td1="A") | {"game": "2"})
    assert saved.status_code == 303, error_of(saved)
    tie = service_for(client.app).formats.bracket(event_id).rounds[0].ties[0]
    assert [g.winner for g in tie.games] == ["Ann", "Bo"]  # coach A scored in both games
    assert tie.phase == "lots" and tie.points == (1.0, 1.0)
    assert post(client, event_id, "/rounds/1/ties/1/lots", {"seed": "5"}).status_code == 303
    tie = service_for(client.app).formats.bracket(event_id).rounds[0].ties[0]
    assert tie.winner == lots.toss(["Ann", "Bo"], 5) and tie.lots_seed == 5


def test_the_new_pages_keep_the_desk_locked(client, other_client):
    event_id = knockout(client)
    for path in ("/bracket", "/rounds/1/ties/1", "/teams", "/rounds/1/matches/1"):
        answer = other_client.get(f"/desk/{event_id}{path}", follow_redirects=False)
        assert answer.status_code in (303, 404), path
        if answer.status_code == 303:
            assert "/login" in answer.headers["location"]
    seed = {"how": "seed", "seed": "1"}
    assert other_client.post(f"/desk/{event_id}/draw", data=seed).status_code == 401
    assert client.post(f"/desk/{event_id}/draw", data=seed).status_code == 403  # no CSRF
    cross = post(client, event_id, "/draw", seed, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    assert service_for(client.app).formats.bracket(event_id).rounds == []
