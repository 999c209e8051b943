"""The web app on a temporary database with a fake clock; helpers to act as the arbiter."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any

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


# Events that desk tests build through the forms, by fixture name: each is built once per
# test process and copied for each test (see `built_desk_event`). A test file adds its own in
# a module-level `BUILT_EVENTS` of the same shape.
BUILT: pytest.StashKey[tuple[Callable[[Any], int], tuple[int, tuple[str, ...], str]]] = \
    pytest.StashKey()


@pytest.fixture
def app(request, tmp_path, clock):
    path = str(tmp_path / "desk.sqlite")
    builds = {**DESK_BUILT_EVENTS, **getattr(request.module, "BUILT_EVENTS", {})}
    wanted = [seat for name, seat in builds.items() if name in request.fixturenames]
    if len(wanted) == 1:  # the file must be there before the app opens it
        built = copy_of_built(path, built_desk_event, wanted[0], pin_hash.COST)
        request.node.stash[BUILT] = (wanted[0], built)
    application = create_app(path)
    application.state.clock_time = clock
    # No warm-up at the start (`ball.web.public.display.warm`, run by `page_cache.lifespan` when
    # the client enters): it ranks and reads the newest events so that a restarted server's
    # first phones do not wait, ~20-30 ms of CPU per start on a copied event, i.e. most of
    # an app's cost here, paid by each of ~180 desk tests that start one and then test the
    # desk. It changes no page (tests/web/test_public_warm_up.py compares every page with
    # a server that did not warm up, and tests what it fills); the public pages read here
    # compute what they share on their reader's time, as after any write.
    # tests/desk/test_public_cache.py and test_public_render_after_write.py build their
    # own apps and keep it.
    application.state.warm_up = None
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


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(client, path: str) -> str:
    page = client.get(path)
    assert page.status_code == 200, page.text
    match = CSRF.search(page.text)
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
    tokens = _desk_tokens(client)
    if cookie is None or (event_id, cookie) not in tokens:
        token = csrf_of(client, f"/desk/{event_id}")
        if cookie is None:
            return token
        tokens[(event_id, cookie)] = token
    return tokens[(event_id, cookie)]


def _desk_tokens(client) -> dict[tuple[int, str], str]:
    """The client's known CSRF tokens by (event id, session cookie)."""
    tokens: dict[tuple[int, str], str] = client.__dict__.setdefault("_desk_tokens", {})
    return tokens


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


def built_desk_event(path: str, seat: Callable[[Any], int],
                     _pin_cost: pin_hash.ScryptCost) -> tuple[int, tuple[str, ...], str]:
    """`seat(client)`'s event built at `path` by an app of its own (at the fake clock's start,
    as a test's is) and closed: the event id, the arbiter's session cookie (name, value,
    domain, path) and that session's CSRF token (stored in its session row, so the same in
    every copy). The PIN's hash cost is part of the build's key."""
    application = create_app(path)
    application.state.clock_time = FakeClock()
    with TestClient(application) as builder:
        event_id = seat(builder)
        cookie = next(c for c in builder.cookies.jar if c.name == f"ball_desk_{event_id}")
        token = desk_token(builder, event_id)
    application.state.engine.dispose()
    return event_id, (cookie.name, cookie.value or "", cookie.domain, cookie.path), token


def desk_event(request, client, seat: Callable[[Any], int]) -> int:
    """The event `seat(client)` makes through the desk's forms (~0.1-0.2 s of CPU each): when
    `app` started from a copy of it, only the arbiter's session cookie and its CSRF token
    are given to the client (its session row is in the copy), as `seat` left them in the
    builder; an `app` of a test file's own seats it here.

    The token is not read from the desk page again in each test (a full render, ~15 ms,
    before the first POST of ~120 tests): reading it from the page is still asserted where
    an event is created in the test (`post` after `create_event`, e.g.
    test_security.py::test_wrong_pin_is_refused_and_the_right_one_opens_the_desk) and by
    test_security.py::test_same_origin_post_passes_the_origin_check; a wrong token would be
    a 403 on the test's first POST."""
    copied_seat, built = request.node.stash.get(BUILT, (None, None))
    if copied_seat is seat and built and client.app is request.getfixturevalue("app"):
        event_id, (name, value, domain, path), token = built
        client.cookies.set(name, value, domain=domain, path=path)
        _desk_tokens(client)[(event_id, value)] = token
        return event_id
    return seat(client)


@pytest.fixture
def event4(request, client):
    """A 4-entrant round robin with round 1 paired; returns (event id, round-1 tables)."""
    event_id = desk_event(request, client, seat_event4)
    from ball.web.core.deps import service_for

    tables = service_for(client.app).rounds.pairings(1, event=event_id)
    return event_id, tables


def seat_xiangqi4(client, players=("Wang", "Li", "Zhao", "Qian")) -> int:
    """Through the desk's forms: a 4-entrant Xiangqi round robin with round 1 paired."""
    event_id = create_event(client, name="Xiangqi Open", game="xiangqi")
    for name in players:
        assert post(client, event_id, "/entrants", {"name": name}).status_code == 303
    assert post(client, event_id, "/rounds").status_code == 303
    return event_id


@pytest.fixture
def xiangqi4(request, client):
    """`seat_xiangqi4`'s event; returns (event id, round-1 tables)."""
    event_id = desk_event(request, client, seat_xiangqi4)
    from ball.web.core.deps import service_for

    return event_id, service_for(client.app).rounds.pairings(1, event=event_id)


DESK_BUILT_EVENTS: dict[str, Callable[[Any], int]] = {
    "event4": seat_event4, "xiangqi4": seat_xiangqi4,
}
