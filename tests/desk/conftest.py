"""The web app on a temporary database with a fake clock; helpers to act as the arbiter."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from ball import pin_hash
from ball.web.app import create_app
from built_once import copy_of_built

T0 = 1_800_000_000.0  # an arbitrary wall-clock instant
PIN = "2468"


class FakeClock:
    """The app's time source (`app.state.clock_time`): moves only when the test says so."""

    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


# event4's database and the arbiter's cookie, when `app` started from a copy (see event4).
EVENT4_BUILT = pytest.StashKey[tuple[int, tuple[str, str, str, str]]]()


@pytest.fixture
def app(request, tmp_path, clock):
    path = str(tmp_path / "desk.sqlite")
    if "event4" in request.fixturenames:  # the file must be there before the app opens it
        request.node.stash[EVENT4_BUILT] = copy_of_built(path, built_event4, pin_hash.COST)
    application = create_app(path)
    application.state.clock_time = clock
    return application


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture
def other_client(app):
    """A second browser (another arbiter's laptop, or a visitor)."""
    with TestClient(app) as c:
        yield c


_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(client, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, page.text
    match = _CSRF.search(page.text)
    assert match, f"no CSRF field on {path}"
    return match.group(1)


def create_event(client, name="Open", system="round-robin", pin=PIN, **extra) -> int:
    response = client.post(
        "/desk/events",
        data={"name": name, "system": system, "pin": pin, "pin2": pin, **extra},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


def desk_token(client, event_id: int) -> str:
    """The CSRF token of the client's desk session for the event. The token belongs to the
    session (one per sign-in), so it is read from the event page once per session cookie
    rather than before every POST (each read is a full page render, and the desk tests post
    a few thousand times)."""
    cookie = client.cookies.get(f"ball_desk_{event_id}")
    tokens = client.__dict__.setdefault("_desk_tokens", {})
    if cookie is None or (event_id, cookie) not in tokens:
        token = csrf_of(client, f"/desk/{event_id}")
        if cookie is None:
            return token
        tokens[(event_id, cookie)] = token
    return tokens[(event_id, cookie)]


def post(client, event_id: int, path: str, data: dict | None = None, **kwargs):
    """POST as the logged-in arbiter (with the session's CSRF token)."""
    token = desk_token(client, event_id)
    return client.post(
        f"/desk/{event_id}{path}",
        data={"csrf": token, **(data or {})},
        follow_redirects=False,
        **kwargs,
    )


def sheet_form(td1="", td2="", pb=(2, 3, 2, 3), **extra) -> dict:
    """Result-form fields: pb = (A's PBATK in half 1, B's PBATK in half 1, B's PBATK in half 2,
    A's PBATK in half 2); each PBDEF is filled in as the opponent's PBATK (dual entry)."""
    a1, b1, b2, a2 = pb
    return {
        "kind": "sheet",
        "h1_td": td1,
        "h1_A_atk": a1,
        "h1_A_def": b1,
        "h1_B_atk": b1,
        "h1_B_def": a1,
        "h2_td": td2,
        "h2_B_atk": b2,
        "h2_B_def": a2,
        "h2_A_atk": a2,
        "h2_A_def": b2,
        **extra,
    }


def seat_event4(client) -> int:
    """Through the desk's forms: a 4-entrant round robin with round 1 paired."""
    event_id = create_event(client)
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    return event_id


def built_event4(path: str, _pin_cost: pin_hash.ScryptCost) -> tuple[int, tuple[str, ...]]:
    """event4 built at `path` by its own app (at the fake clock's start, as a test's is) and
    closed: the event id and the arbiter's session cookie (name, value, domain, path). The
    PIN's hash cost is part of the build's key."""
    application = create_app(path)
    application.state.clock_time = FakeClock()
    with TestClient(application) as builder:
        event_id = seat_event4(builder)
        cookie = next(c for c in builder.cookies.jar if c.name == f"ball_desk_{event_id}")
    application.state.engine.dispose()
    return event_id, (cookie.name, cookie.value or "", cookie.domain, cookie.path)


@pytest.fixture
def event4(request, client):
    """A 4-entrant round robin with round 1 paired; returns (event id, round-1 tables). The
    desk's forms build it once per test process (~0.1 s of CPU, 35 quick-lane tests): `app`
    starts from a copy of that database and the client gets the arbiter's session cookie,
    whose session is in the copy. An `app` of a test file's own builds it through the forms."""
    built = request.node.stash.get(EVENT4_BUILT, None)
    if built is not None and client.app is request.getfixturevalue("app"):
        event_id, (name, value, domain, path) = built
        client.cookies.set(name, value, domain=domain, path=path)
    else:
        event_id = seat_event4(client)
    from ball.web.desk import service_for

    tables = service_for(client.app).pairings(1, event=event_id)
    return event_id, tables
