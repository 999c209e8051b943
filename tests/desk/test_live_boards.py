"""Live boards at the desk and on the public pages (issue 35 §5), without the stream: the
desk's switch (desk session and CSRF token), nothing public before it, the broadcast page
listing the round's recorded games, the live board page and its PGN download, which reads
back through the Xiangqi PGN reader as the game recorded."""

from __future__ import annotations

from ball.games.xiangqi.engine import pgn

from .conftest import post
from .test_xiangqi_record import device_of, game_of, record

MOVES = ("h2e2", "h9g7", "h0g2")


def publish(client, event_id, on=True, number=1):
    return post(client, event_id, f"/rounds/{number}/broadcast", {"publish": "1" if on else "0"})


def play(client, event_id, moves=MOVES, table=1):
    opened = record(client, event_id, table=table)
    gid, device = game_of(opened), device_of(opened)
    for move in moves:
        played = client.post(f"/api/xiangqi/games/{gid}/moves", json={"move": move}, headers=device)
        assert played.status_code == 200, played.text
    return gid, device


def test_nothing_is_public_until_the_desk_publishes_the_round(client, other_client, xiangqi4):
    event_id, tables = xiangqi4
    play(client, event_id)
    for path in ("", "/1", "/1/record", "/1/stream"):
        answer = other_client.get(f"/public/{event_id}/live/1{path}")
        assert answer.status_code == 404, path
        assert "not broadcast" in answer.json()["detail"]
    # The desk's round page offers the switch; a stranger cannot use it.
    page = client.get(f"/desk/{event_id}/rounds/1").text
    assert 'id="broadcast-toggle"' in page and "Publish the live boards" in page
    refused = other_client.post(f"/desk/{event_id}/rounds/1/broadcast", data={"publish": "1"})
    assert refused.status_code in (401, 403)
    assert other_client.get(f"/public/{event_id}/live/1").status_code == 404
    assert publish(client, event_id).status_code == 303
    assert other_client.get(f"/public/{event_id}/live/1").status_code == 200
    assert "Stop the broadcast" in client.get(f"/desk/{event_id}/rounds/1").text


def test_the_switch_refuses_a_bad_choice_and_a_round_not_paired(client, xiangqi4):
    event_id, _ = xiangqi4
    answer = post(client, event_id, "/rounds/1/broadcast", {"publish": "yes"})
    assert answer.status_code == 400 and "publish: give 1" in answer.json()["detail"]
    assert publish(client, event_id, number=9).status_code == 404
    assert client.get(f"/public/{event_id}/live/9").status_code == 404


def test_the_broadcast_page_links_the_recorded_games_only(client, other_client, xiangqi4):
    event_id, tables = xiangqi4
    play(client, event_id, table=2)
    publish(client, event_id)
    page = other_client.get(f"/public/{event_id}/live/1").text
    assert f'href="/public/{event_id}/live/1/2"' in page
    assert f'href="/public/{event_id}/live/1/1"' not in page and "not recorded" in page
    for t in tables:
        assert t["a"] in page and t["b"] in page
    # A table without a game has no board; a recorded one has its board and its stream.
    assert other_client.get(f"/public/{event_id}/live/1/1").status_code == 404
    board = other_client.get(f"/public/{event_id}/live/1/2").text
    assert f'data-live="/public/{event_id}/live/1/2/stream"' in board
    assert f'href="/public/{event_id}/live/1/2/record"' in board


def test_the_record_download_is_the_games_pgn(client, other_client, xiangqi4):
    event_id, tables = xiangqi4
    gid, device = play(client, event_id)
    publish(client, event_id)
    answer = other_client.get(f"/public/{event_id}/live/1/1/record")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert 'filename="event' in answer.headers["content-disposition"]
    read = pgn.read(answer.text)
    assert [m.iccs() for m in read.game().moves] == list(MOVES)
    assert read.tags["Red"] == tables[0]["a"] and read.tags["Black"] == tables[0]["b"]
    assert read.tags["Round"] == "1" and read.result == "*"
    # Once the board ends the game, the record says how.
    ended = client.post(
        f"/api/xiangqi/games/{gid}/ending", json={"ending": "resign-red"}, headers=device
    )
    assert ended.status_code == 200, ended.text
    read = pgn.read(other_client.get(f"/public/{event_id}/live/1/1/record").text)
    assert read.result == "0-1"
    assert read.rulings[-1]["reason"] == "resignation"


def test_hiding_the_round_again_hides_its_boards(client, other_client, xiangqi4):
    event_id, _ = xiangqi4
    play(client, event_id)
    publish(client, event_id)
    assert other_client.get(f"/public/{event_id}/live/1/1").status_code == 200
    assert publish(client, event_id, on=False).status_code == 303
    assert other_client.get(f"/public/{event_id}/live/1/1").status_code == 404
    assert other_client.get(f"/public/{event_id}/live/1/1/record").status_code == 404


def test_the_public_pairings_link_the_live_boards_once_published(client, other_client, xiangqi4):
    event_id, _ = xiangqi4
    pairings = f"/public/{event_id}/pairings?round=1"
    assert 'id="live-link"' not in other_client.get(pairings).text
    publish(client, event_id)
    # Publishing is a write of the event: the cached page is rendered again with the link.
    page = other_client.get(pairings).text
    assert 'id="live-link"' in page and f'href="/public/{event_id}/live/1"' in page
    publish(client, event_id, on=False)
    assert 'id="live-link"' not in other_client.get(pairings).text
