"""The simulator's announcements and plain-language log (issue 13), through the HTTP API.

The match result must be `ball.games.ball.match.result.decide` on the sheet of the two halves (spec
13)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ball.games.ball.engine import Game
from ball.games.ball.match.result import decide
from ball.games.ball.web.rulebook import diagrams


def make(client: TestClient, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def play(client: TestClient, gid: str, action: str, lang: str = "en") -> dict:
    r = client.post(f"/api/games/{gid}/actions?lang={lang}", json={"action": action})
    assert r.status_code == 200, r.text
    return r.json()


def test_each_log_entry_has_plain_language_beside_the_notation(client):
    s = make(client)
    out = play(client, s["id"], "F10-E9")
    assert out["applied"]["action"] == "F10-E9"
    assert out["applied"]["text"].startswith("North ") and "F10 to E9" in out["applied"]["text"]
    ko = client.get(f"/api/games/{s['id']}?lang=ko").json()
    assert ko["log"][0]["text"] != out["applied"]["text"] and "F10" in ko["log"][0]["text"]


def test_touchdown_announced_with_half_time_then_the_match_result(client):
    touchdown = diagrams()["touchdown"]["position"]
    first = make(client, position=touchdown)
    over = play(client, first["id"], "G15-I17")
    ann = over["announce"]
    assert ann["kind"] == "touchdown" and ann["side"] == "S" and ann["half"] == 1
    assert "switch" in ann["half_time"]["text"]
    early = client.get(f"/api/games/{over['id']}/result?first={first['id']}")
    assert early.status_code == 400  # half 1 is not a second half
    # half 2 loaded as a position near its end (the editor's way): South scores again
    second = make(client, position={**touchdown, "half": 2})
    done = play(client, second["id"], "G15-I17")
    assert done["announce"]["kind"] == "touchdown" and "half_time" not in done["announce"]
    r = client.get(f"/api/games/{second['id']}/result?first={first['id']}")
    assert r.status_code == 200, r.text
    res = r.json()
    assert res["decision"] == decide(res["sheet"]).as_dict()
    # the sheet holds what the two games hold: A is South in half 1, North in half 2
    g1, g2 = Game.from_json(over["position"]), Game.from_json(done["position"])
    h1, h2 = res["sheet"]["halves"]
    assert h1["td"] == "A" and h2["td"] == "B"
    assert h1["pb"]["A"] == g1.pb["S"] and h2["pb"]["A"] == g2.pb["N"]
    assert res["text"].startswith("Reason: ") and "Touchdowns 1–1." in res["text"]


def test_result_refuses_unfinished_or_unrelated_games(client):
    a, b = make(client), make(client)
    r = client.get(f"/api/games/{b['id']}/result?first={a['id']}")
    assert r.status_code == 400 and "not a finished first half" in r.json()["detail"]
    assert client.get(f"/api/games/{b['id']}/result?first=nope").status_code == 404


def test_a_second_half_made_by_next_half_finds_its_first_half_on_record(client):
    """The link between the halves is the server's, so the result is found from any tab (or
    after a reload), without naming the first half."""
    touchdown = diagrams()["touchdown"]["position"]
    first = make(client, position=touchdown)
    assert play(client, first["id"], "G15-I17")["over"]
    made = client.post(f"/api/games/{first['id']}/next-half")
    assert made.status_code == 201, made.text
    second = made.json()
    assert second["position"]["half"] == 2
    # the record names half 1 (finished), so what is refused is half 2, not yet played
    r = client.get(f"/api/games/{second['id']}/result")
    assert r.status_code == 400 and "not a finished second half" in r.json()["detail"], r.text
    # a half 2 set up in the editor has no first half on record: the request must name it
    loaded = make(client, position={**touchdown, "half": 2})
    play(client, loaded["id"], "G15-I17")
    r = client.get(f"/api/games/{loaded['id']}/result")
    assert r.status_code == 400 and "no first half on record" in r.json()["detail"]
    assert client.get(f"/api/games/{loaded['id']}/result?first={first['id']}").status_code == 200
    too_long = client.get(f"/api/games/{loaded['id']}/result?first={'x' * 33}")
    assert too_long.status_code == 422
