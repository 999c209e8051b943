"""A fuzzer of the arbiter desk's HTML forms against a live `ball serve --demo` process:
hypothesis makes form bodies (the forms' own field names and a few strangers, with odd
numbers, odd digits, NUL bytes and long text) and posts them, signed in with the PIN and
repeating the session's CSRF token, to every form route of the demo event. Every answer
must be below 500, and the server must still serve the event afterwards."""

from __future__ import annotations

import re

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ball.storage.ids import MAX_ID

pytestmark = pytest.mark.slow

DEMO_PIN = "1234"
EXAMPLES = 30  # per route: 11 routes stay within a minute or two on a shared machine

NUMBERS = ["", "0", "1", "2", "3", "4", "-1", " 7 ", "1.5", "1e3", "²", "①", "٣",
           str(MAX_ID), str(MAX_ID + 1), str(2**63), str(2**64), "9" * 40]
WORDS = ["A", "B", "yes", "no", "sheet", "forfeit", "double-forfeit", "warning",
         "loss-of-turn", "loss-of-match", "12:30", "23:59:59", "25:99", "\x00", "Ann"]
SHEET = [f"h{h}_{s}_{c}" for h in (1, 2) for s in "AB" for c in ("atk", "def")]
STEALS = [f"h{h}_steal{r}_{f}" for h in (1, 2) for r in range(4) for f in ("by", "choice")]
SANCTIONS = [f"sanction{r}_{f}" for r in range(2) for f in ("side", "step", "reason")]
RESULT = ["kind", "h1_td", "h2_td", "version", *SHEET, *STEALS, *SANCTIONS]

values = st.one_of(st.sampled_from(NUMBERS), st.sampled_from(WORDS), st.text(max_size=60))
csv_texts = st.builds(  # an entrants CSV whose rating is any of NUMBERS
    "name,club,rating\n{},C,{}\n".format,
    st.text(alphabet="ABCabc²①", min_size=1, max_size=8),
    st.sampled_from(["1500", "", "²", "①", "٣", "-1", "10000", "1e3"]),
)
numbers = st.sampled_from([1, 2, 3, 4, 0, MAX_ID + 1, 2**64])

# Each form route with the fields of its form (each sent or not) and one stranger field.
ROUTES: dict[str, list[str]] = {
    "/entrants": ["name", "rating", "club", "federation"],
    "/entrants/import": [],
    "/entrants/{a}/withdraw": ["confirm", "reason"],
    "/rounds": ["source"],
    "/rounds/{a}/swap": ["x", "y", "confirm", "action"],
    "/rounds/{a}/signals/{b}": ["at"],
    "/rounds/{a}/tables/{b}/half-end": ["at"],
    "/rounds/{a}/half-ends/from-clocks": [],
    "/rounds/{a}/tables/{b}/check": RESULT,
    "/rounds/{a}/tables/{b}": RESULT,
    "/sanctions": ["entrant", "round", "table", "step", "reason", "action"],
    "/rounds/{a}/tables/{b}/approve": [],  # issue 35 §1: the players' confirmed entry
    "/table-links": ["auto", "round"],
}


def form_for(route: str) -> st.SearchStrategy[dict[str, str]]:
    required = {"csv": st.one_of(csv_texts, values)} if route.endswith("/import") else {}
    optional = {name: values for name in [*ROUTES[route], "stranger"]}
    return st.fixed_dictionaries(required, optional=optional)


_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _signed_in(base: str, event_id: int) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=base, timeout=60)
    login = client.post(f"/desk/{event_id}/login", data={"pin": DEMO_PIN})
    assert login.status_code == 303, login.text
    page = client.get(f"/desk/{event_id}")
    assert page.status_code == 200
    token = _CSRF.search(page.text)
    assert token, "no CSRF token on the event page"
    return client, token.group(1)


def test_desk_forms_never_answer_5xx(server_process):
    server = server_process(demo=True)
    event_id = 1  # the demo event: four entrants, round 1 decided, round 2 under way
    client, csrf = _signed_in(server.url, event_id)
    failures: list[str] = []
    statuses: set[int] = set()

    def fuzz(route: str) -> None:
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(form=form_for(route), a=numbers, b=numbers)
        def post(form: dict[str, str], a: int, b: int) -> None:
            path = f"/desk/{event_id}" + route.format(a=a, b=b)
            try:
                answer = client.post(path, data={**form, "csrf": csrf})
            except httpx.TransportError as exc:  # a crash may drop the connection instead
                failures.append(f"{path} {form!r}: connection lost ({exc!r})")
                return
            statuses.add(answer.status_code)
            if answer.status_code >= 500:
                failures.append(f"{path} {form!r}: {answer.status_code} {answer.text[:300]}")

        post()

    for route in ROUTES:
        fuzz(route)
    # Signed in all along (no 401/403), and the forms were read: some saved, some refused.
    assert not statuses & {401, 403} and {303, 400} <= statuses, statuses
    # New events (same-origin only, no session needed) and the PIN form last: a right PIN
    # would start a new session and change the token the routes above repeat.
    for path in ("/desk/events", f"/desk/{event_id}/login"):
        for body in ({"name": "²", "system": "swiss", "pin": "\x00\x00\x00\x00", "rounds": "①"},
                     {"name": "x" * 5000, "system": "knockout", "pin": "1234", "pin2": "12345"},
                     {"pin": "9" * 70, "next": "//evil.example/"}):
            answer = client.post(path, data=body)
            if answer.status_code >= 500:
                failures.append(f"{path} {body!r}: {answer.status_code} {answer.text[:300]}")
    assert not failures, "\n".join(failures)
    assert client.get(f"/desk/{event_id}").status_code == 200  # still up, still signed in
