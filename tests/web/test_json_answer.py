"""Issue 15: the simulator's answers are written by orjson (`ball.web.api.json_answer`), byte
for byte as Starlette's `JSONResponse` (json.dumps) wrote them before.

The oracle is Starlette's own `JSONResponse(...).body` for the same content: on every
answer of recorded games in the three languages (the narration holds non-ASCII text), and
on generated documents of the kinds a state is made of. What orjson would write but
json.dumps refuses still fails as before.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

import pytest
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from ball.games.ball.engine import Game
from ball.web.api.json_answer import StateResponse, encode


def starlette(content) -> bytes:
    return JSONResponse(content).body


def moving(legal: list[str], rng: random.Random) -> str:
    return rng.choice([a for a in legal if a != "end"] or legal)


@pytest.mark.parametrize("lang", ["en", "ko", "bg"])
def test_every_answer_of_a_recorded_game_is_starlettes_bytes(client: TestClient, lang):
    """Create, 40 actions with and without `since`, undo, redo, read: each answer's body is
    what JSONResponse writes for the same JSON, and the state is the engine's (replayed)."""
    rng = random.Random(11)
    q = f"?lang={lang}"
    r = client.post(f"/api/games{q}", json={"mode": "free", "title": "Ünïcode ✓ 한국"})
    answers = [r]
    state, played = r.json(), []
    for ply in range(40):
        if state["over"]:
            break
        action = moving(state["legal"], rng)
        since = f"&since={ply}" if ply % 2 else ""
        r = client.post(f"/api/games/{state['id']}/actions{q}{since}", json={"action": action})
        assert r.status_code == 200, r.text
        answers.append(r)
        state, played = r.json(), [*played, action]
    answers.append(client.post(f"/api/games/{state['id']}/undo{q}"))
    answers.append(client.post(f"/api/games/{state['id']}/redo{q}&since=3"))
    answers.append(client.get(f"/api/games/{state['id']}{q}"))
    for answer in answers:
        assert answer.status_code in (200, 201), answer.text
        assert answer.content == starlette(answer.json())
        assert answer.headers["content-length"] == str(len(answer.content))
    replay = Game.new()
    for action in played:
        replay.apply(action)
    assert answers[-1].json()["position"] == replay.to_json()
    texts = [e["text"] for e in answers[-1].json()["log"]]
    assert any(not t.isascii() for t in texts) == (lang != "en")  # the reader's language


def test_the_language_of_the_answer_follows_cookie_and_accept_language(client: TestClient):
    """The API takes the language the middleware chose (query, cookie, Accept-Language)."""
    gid = client.post("/api/games").json()["id"]
    action = client.get(f"/api/games/{gid}").json()["legal"][0]
    by_query = client.post(f"/api/games/{gid}/actions?lang=ko", json={"action": action}).json()
    text = by_query["applied"]["text"]
    assert not text.isascii()
    fresh = TestClient(client.app)
    by_header = fresh.get(f"/api/games/{gid}", headers={"accept-language": "ko"}).json()
    assert by_header["log"][-1]["text"] == text
    fresh.cookies.set("ball_lang", "ko")
    assert fresh.get(f"/api/games/{gid}").json()["log"][-1]["text"] == text
    english = TestClient(client.app).get(f"/api/games/{gid}").json()
    assert english["log"][-1]["text"] != text and english["log"][-1]["text"].isascii()


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.text(st.characters(exclude_categories=("Cs",)))  # any text but lone surrogates
)
json_documents = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(st.characters(exclude_categories=("Cs",))), inner, max_size=5)
    ),
    max_leaves=30,
)


@pytest.mark.hypothesis
@given(json_documents)
def test_any_state_like_document_is_written_as_json_dumps_writes_it(doc):
    assert encode(doc) == starlette(doc)
    assert StateResponse(doc).body == starlette(doc)


@dataclass
class Entry:
    ply: int


@pytest.mark.parametrize(
    "content",
    [{"too big": 2**64}, {1: "int key"}, {"nested": [-(2**63) - 1]}, {"none": None}],
    ids=["past 64 bits", "int key", "negative past 64 bits", "plain"],
)
def test_what_orjson_refuses_is_written_by_json_dumps(content):
    assert encode(content) == starlette(content)


@pytest.mark.parametrize(
    "content", [{"entry": Entry(1)}, {"day": date(2026, 1, 1)}, {"set": {1, 2}}, "\ud800"]
)
def test_what_json_dumps_refuses_still_fails(content):
    with pytest.raises((TypeError, ValueError)) as expected:
        starlette(content)
    with pytest.raises(expected.type):
        encode(content)
