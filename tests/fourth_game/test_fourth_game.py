"""The contract for the next game (issue 31): a game defined in this folder only, registered
with one line, runs a whole event through the shared code — created and paired at the desk,
results entered at the desk and by the CLI, public standings, printed forms, TRF export, and
the game's own `ball` commands.
Nothing outside tests/fourth_game knows tic-tac-toe."""

from __future__ import annotations

import json
import re

import pytest

from ball import games

from .conftest import ball
from .rules import IllegalGame, ending

PIN = "2468"
PLAYERS = ("Ann", "Bo", "Cy", "Di")
CSRF = re.compile(r'name="csrf" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="([^"]*)"')


def desk_post(client, event_id: int, path: str, data: dict[str, str] | None = None):
    token = CSRF.search(client.get(f"/desk/{event_id}").text)
    assert token is not None
    form = {"csrf": token.group(1), **(data or {})}
    return client.post(f"/desk/{event_id}{path}", data=form, follow_redirects=False)


def paired_event(client) -> int:
    """A round robin of the fourth game, created, filled and paired through the desk."""
    answer = client.post(
        "/desk/events",
        data={"name": "Noughts open", "system": "round-robin", "game": "tictactoe",
              "pin": PIN, "pin2": PIN},
        follow_redirects=False,
    )  # fmt: skip
    assert answer.status_code == 303, answer.text
    event_id = int(answer.headers["location"].rsplit("/", 1)[1])
    for name in PLAYERS:
        assert desk_post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert desk_post(client, event_id, "/rounds").status_code == 303
    return event_id


def table_players(client, event_id: int, table: int) -> tuple[str, str]:
    page = client.get(f"/desk/{event_id}/rounds/1/tables/{table}")
    assert page.status_code == 200
    sides = re.search(r"X: <strong>([^<]+)</strong> – O: <strong>([^<]+)</strong>", page.text)
    assert sides is not None
    return sides.group(1), sides.group(2)


def save_at_desk(client, event_id: int, table: int, form: dict[str, str]):
    page = client.get(f"/desk/{event_id}/rounds/1/tables/{table}").text
    version = VERSION.search(page)
    assert version is not None
    path = f"/rounds/1/tables/{table}"
    return desk_post(client, event_id, path, {**form, "version": version.group(1)})


def test_the_rules_decide_a_win_a_draw_and_refuse_a_game_that_is_no_game():
    assert ending([1, 4, 2, 5, 3]) == ("X", "1")
    assert ending([5, 1, 9, 3, 2, 8, 7, 4, 6]) == (None, "2")
    for moves in ([1, 1], [1, 4, 2, 5, 3, 6], [1, 2], [0]):
        with pytest.raises(IllegalGame):
            ending(moves)


def test_the_fourth_game_runs_a_whole_event(client, db):
    event_id = paired_event(client)
    assert games.game("tictactoe").desk_form is not None

    # The desk shows the game's own form (its template, from this folder) and decides it.
    x1, o1 = table_players(client, event_id, 1)
    form = client.get(f"/desk/{event_id}/rounds/1/tables/1")
    assert 'id="tictactoe-result-form"' in form.text and 'name="ttt_moves"' in form.text
    checked = save_at_desk(client, event_id, 1, {"kind": "sheet", "ttt_moves": "1 4 2 5 3",
                                                 "action": "check"})  # fmt: skip
    assert checked.status_code == 200 and f"{x1} wins (three-in-a-row, 1)" in checked.text
    refused = save_at_desk(client, event_id, 1, {"kind": "sheet", "ttt_moves": "1 1"})
    assert refused.status_code == 400 and "cell 1 is taken" in refused.text
    saved = save_at_desk(client, event_id, 1, {"kind": "sheet", "ttt_moves": "1 4 2 5 3"})
    assert saved.status_code == 303, saved.text
    # The round shows the result as the game decided it.
    shown = client.get(f"/desk/{event_id}/rounds/1").text
    assert "<strong>1-0</strong>" in shown and f"{x1} wins" in shown
    # A correction opens the form filled from the stored document.
    assert 'value="1 4 2 5 3"' in client.get(f"/desk/{event_id}/rounds/1/tables/1").text

    # The CLI enters table 2 on the same database: O wins.
    x2, o2 = table_players(client, event_id, 2)
    sheet = json.dumps({"players": [x2, o2], "moves": [1, 5, 2, 3, 9, 7]})
    path = f"{db}.table2.json"
    with open(path, "w", encoding="utf-8") as f:
        f.write(sheet)
    entered = ball("result", "enter", "--db", db, "--round", "1", "--table", "2", "--sheet", path)
    assert entered.exit_code == 0, entered.output
    assert f"{o2} wins" in entered.output
    wrong = json.dumps({"players": [o2, x2], "moves": [1, 5, 2, 3, 9, 7]})
    with open(path, "w", encoding="utf-8") as f:
        f.write(wrong)
    refused_cli = ball("result", "correct", "--db", db, "--round", "1", "--table", "2",
                       "--sheet", path, "--reason", "swapped")  # fmt: skip
    assert refused_cli.exit_code == 2 and "this table is" in refused_cli.output

    # Public standings: the two winners first (1 point each), the tie-break of the game
    # (moves per win) puts the quicker win above; the losers below.
    standings = client.get(f"/public/{event_id}/standings")
    assert standings.status_code == 200
    order = [name for name in re.findall(r'class="name">([^<]+)<', standings.text)]
    assert order[:2] == [x1, o2] and set(order[2:4]) == {o1, x2}, order
    as_json = ball("standings", "--db", db, "--json")
    assert as_json.exit_code == 0, as_json.output
    rows = json.loads(as_json.output)
    assert [r["name"] for r in rows][:2] == [x1, o2]
    assert "moves-per-win" in json.dumps(rows)

    # The public results name the sides as the game does.
    results = client.get(f"/public/{event_id}/results")
    assert results.status_code == 200 and x1 in results.text

    # Printed forms of the round (the shared pairing list and result slips).
    forms = client.get(f"/print/forms?round=1&event={event_id}")
    assert forms.status_code == 200 and x1 in forms.text and o2 in forms.text

    # TRF export: the four players and the two decided games, 1 and 0 for each winner.
    trf = ball("export", "trf", "--db", db)
    assert trf.exit_code == 0, trf.output
    lines = [line for line in trf.output.splitlines() if line.startswith("001")]
    assert len(lines) == len(PLAYERS)
    by_name = {name: next(line for line in lines if name in line) for name in PLAYERS}
    assert re.search(r" [0-9]+ [wb] 1", by_name[x1]) and re.search(r" [0-9]+ [wb] 0", by_name[o1])
    assert re.search(r" [0-9]+ [wb] 1", by_name[o2]) and re.search(r" [0-9]+ [wb] 0", by_name[x2])


def test_the_fourth_games_printed_forms_render_as_pdf(client):
    event_id = paired_event(client)
    pdf = client.get(f"/print/forms.pdf?round=1&event={event_id}")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_fourth_game_brings_its_own_commands(fourth_game):
    listed = ball("--help")
    assert listed.exit_code == 0 and "tictactoe" in listed.output
    assert "Tic-tac-toe: judge a game from its moves." in listed.output
    judged = ball("tictactoe", "judge", "1", "4", "2", "5", "3")
    assert judged.exit_code == 0 and judged.output == "X wins (article 1)\n"
    drawn = ball("tictactoe", "judge", "5", "1", "9", "3", "2", "8", "7", "4", "6")
    assert drawn.output == "draw (article 2)\n"
    refused = ball("tictactoe", "judge", "1", "1")
    assert refused.exit_code == 2 and "cell 1 is taken" in refused.output


def test_without_the_fourth_game_ball_has_no_such_command():
    assert "tictactoe" not in ball("--help").output
    assert ball("tictactoe", "judge", "1").exit_code == 2


def test_the_registry_takes_one_game_per_name_and_lets_it_go(fourth_game):
    with pytest.raises(ValueError, match="registered already"):
        games.register(fourth_game)
    assert games.pairs_players("tictactoe") and not games.runs_sessions("tictactoe")
    games.unregister("tictactoe")
    assert "tictactoe" not in games.GAMES
    games.register(fourth_game)  # the fixture takes it out again
