"""Access: the PIN, sessions, CSRF, cross-site posts, escaping of user text."""

from __future__ import annotations

import warnings

from sqlalchemy import select

from ball.web.core.models import DeskAccess, DeskSession

from .conftest import PIN, create_event, csrf_of, post

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient


def test_pin_is_stored_hashed_and_the_session_only_as_a_digest(client, app):
    event_id = create_event(client)
    token = client.cookies.get(f"ball_desk_{event_id}")
    with app.state.sessions() as s:
        access = s.get(DeskAccess, event_id)
        sessions = list(s.scalars(select(DeskSession)))
    assert PIN not in access.pin_hash and access.pin_hash.startswith("scrypt$")
    assert token and all(token not in row.token_hash for row in sessions)


def test_a_write_without_the_pin_is_refused_and_changes_nothing(client, other_client):
    event_id = create_event(client)
    refused = other_client.post(f"/desk/{event_id}/entrants", data={"name": "Mallory"})
    assert refused.status_code == 401
    assert "PIN" in refused.json()["detail"]
    page = client.get(f"/desk/{event_id}")
    assert "Mallory" not in page.text


def test_desk_pages_without_a_session_go_to_the_pin_page(other_client, client):
    event_id = create_event(client)
    for page in ("", "/rounds/1", "/rounds/1/tables/1", "/sanctions"):
        path = f"/desk/{event_id}{page}"
        response = other_client.get(path, follow_redirects=False)
        assert response.status_code == 303, path
        login = response.headers["location"]
        assert login.startswith(f"/desk/{event_id}/login?next=") and page.split("/")[-1] in login
    assert other_client.get("/desk/999/sanctions", follow_redirects=False).status_code == 404


def test_wrong_pin_is_refused_and_the_right_one_opens_the_desk(client, other_client):
    event_id = create_event(client)
    wrong = other_client.post(f"/desk/{event_id}/login", data={"pin": "0000"})
    assert wrong.status_code == 403
    right = other_client.post(f"/desk/{event_id}/login", data={"pin": PIN}, follow_redirects=False)
    assert right.status_code == 303
    assert post(other_client, event_id, "/entrants", {"name": "Eve"}).status_code == 303


def test_a_write_with_the_session_but_without_the_csrf_token_is_refused(client):
    event_id = create_event(client)
    response = client.post(f"/desk/{event_id}/entrants", data={"name": "Zed"})
    assert response.status_code == 403
    wrong = client.post(f"/desk/{event_id}/entrants", data={"name": "Zed", "csrf": "x" * 43})
    assert wrong.status_code == 403
    assert "Zed" not in client.get(f"/desk/{event_id}").text


def test_a_cross_site_form_post_is_refused_even_with_the_cookie(client):
    event_id = create_event(client)
    token = csrf_of(client, f"/desk/{event_id}")
    for headers in (
        {"Origin": "http://evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},
    ):
        response = client.post(
            f"/desk/{event_id}/entrants",
            data={"name": "Forged", "csrf": token},
            headers=headers,
        )
        assert response.status_code == 403, headers
    created = client.post(
        "/desk/events",
        data={"name": "Forged event", "system": "swiss", "pin": PIN, "pin2": PIN},
        headers={"Origin": "http://evil.example"},
    )
    assert created.status_code == 403
    assert "Forged" not in client.get(f"/desk/{event_id}").text
    assert "Forged event" not in client.get("/desk").text


def test_same_origin_post_passes_the_origin_check(client):
    event_id = create_event(client)
    token = csrf_of(client, f"/desk/{event_id}")
    response = client.post(
        f"/desk/{event_id}/entrants",
        data={"name": "Local", "csrf": token},
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    assert response.status_code == 303


def test_a_script_name_is_shown_as_text_everywhere(client, other_client):
    event_id = create_event(client, name="<b>Cup</b>")
    evil = "<script>alert(1)</script>"
    assert post(client, event_id, "/entrants", {"name": evil}).status_code == 303
    assert post(client, event_id, "/entrants", {"name": "Bob"}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    pages = [
        client.get(f"/desk/{event_id}").text,
        client.get(f"/desk/{event_id}/rounds/1").text,
        client.get(f"/desk/{event_id}/rounds/1/tables/1").text,
        client.get(f"/desk/{event_id}/sanctions").text,
        other_client.get(f"/public/{event_id}/standings").text,
        other_client.get(f"/public/{event_id}/pairings").text,
        other_client.get("/public").text,
    ]
    for text in pages:
        assert evil not in text
        assert "<b>Cup</b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[4]


def test_logout_ends_the_session(client):
    event_id = create_event(client)
    token = csrf_of(client, f"/desk/{event_id}")
    stolen = client.cookies.get(f"ball_desk_{event_id}")
    assert post(client, event_id, "/logout").status_code == 303
    with TestClient(client.app) as replay:
        replay.cookies.set(f"ball_desk_{event_id}", stolen)
        response = replay.post(f"/desk/{event_id}/entrants", data={"name": "X", "csrf": token})
    assert response.status_code == 401


def test_a_session_is_bound_to_its_event(client):
    first = create_event(client, name="First")
    second = create_event(client, name="Second", pin="9753")
    cookie = client.cookies.get(f"ball_desk_{first}")
    with TestClient(client.app) as other:
        other.cookies.set(f"ball_desk_{second}", cookie)
        response = other.post(f"/desk/{second}/entrants", data={"name": "X", "csrf": "y"})
    assert response.status_code == 401


def test_public_pages_need_no_pin(client, other_client):
    event_id = create_event(client)
    for path in ("standings", "pairings", "results"):
        assert other_client.get(f"/public/{event_id}/{path}").status_code == 200


def test_a_short_pin_is_refused_with_its_reason(client):
    response = client.post(
        "/desk/events", data={"name": "X", "system": "swiss", "pin": "12", "pin2": "12"}
    )
    assert response.status_code == 400
    assert "pin: 4 to 64 characters" in response.text


def test_guessing_the_pin_is_slowed_down(client, other_client, clock):
    from ball.web.core.security import LOCK_SECONDS, MAX_FAILURES

    event_id = create_event(client)
    for _ in range(MAX_FAILURES):
        assert other_client.post(f"/desk/{event_id}/login", data={"pin": "0000"}).status_code == 403
    locked = other_client.post(f"/desk/{event_id}/login", data={"pin": PIN})
    assert locked.status_code == 429 and "try again in 60 seconds" in locked.text
    clock.advance(LOCK_SECONDS)
    opened = other_client.post(f"/desk/{event_id}/login", data={"pin": PIN}, follow_redirects=False)
    assert opened.status_code == 303
