"""Issue 30 items 4, 5, 6 and 10: the stranger's campaign against a live `ball serve`.

A stranger's connections come from 127.0.0.2 (and other 127.0.0.x addresses), the arbiter's
from 127.0.0.1, the server's own machine. Each test is one hole the campaign found:

- 4: strangers' wrong PINs, then one typo by the arbiter, locked the arbiter out (429). The
  event's recovery code, shown once at creation, still signs the arbiter in and lifts the
  lock; it is then spent and its successor shown.
- 5: 40 simultaneous wrong PINs from one address were 14 PIN checks; they are 5.
- 6: wrong PINs from 127.0.0.1, each with another `X-Forwarded-For`, were all checked; no
  proxy header is believed unless `ball serve --proxy ADDRESS` names the proxy, and then
  only from that address.
- 10: one address's flood meets the request budget; another address, and the arbiter on
  127.0.0.1, do not.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import httpx

from ball.web.core import security

PIN = "2468"
CODE = re.compile(r'<p class="recovery-code"><code>([0-9A-Z-]+)</code>')


def _from(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=60)


def _event(server) -> tuple[str, str]:
    """A new event made at the desk from 127.0.0.1: its login URL and the recovery code the
    desk shows once."""
    with _from("127.0.0.1") as arbiter:
        made = arbiter.post(
            server.url + "/desk/events",
            data={"name": "Campaign", "system": "swiss", "pin": PIN, "pin2": PIN},
        )
        assert made.status_code == 303, made.text
        page = arbiter.get(server.url + made.headers["location"])
        assert page.status_code == 200
        shown = CODE.search(page.text)
        return server.url + made.headers["location"] + "/login", shown.group(1) if shown else ""


def _wrong(client: httpx.Client, login: str, **headers: str) -> int:
    return client.post(login, data={"pin": "0000"}, headers=headers).status_code


# ------------------------------------------------------------------------------ item 4


def test_strangers_wrong_pins_never_keep_the_arbiter_out(server_process):
    server = server_process()
    login, code = _event(server)
    assert code, "the new event's desk page shows its recovery code"
    # More wrong PINs than the event's cap, from seven other addresses.
    for n in range(2, 9):
        with _from(f"127.0.0.{n}") as stranger:
            for _ in range(security.MAX_FAILURES):
                _wrong(stranger, login)
    # A stranger's wrong recovery codes slow only the stranger's own address.
    with _from("127.0.0.2") as stranger:
        for _ in range(2 * security.MAX_FAILURES):
            assert stranger.post(login, data={"pin": "ABCDE-FGHJK-MNPQR-STVWX"}).status_code in (
                403,
                429,
            )
    with _from("127.0.0.1") as arbiter:
        assert arbiter.post(login, data={"pin": "2469"}).status_code == 403  # one typo
        locked = arbiter.post(login, data={"pin": PIN})
        assert locked.status_code == 429  # guessing stays as slow as it was
        assert int(locked.headers["retry-after"]) == int(security.EVENT_LOCK_SECONDS)
        came = arbiter.post(login, data={"pin": code.lower().replace("-", " ")})
        assert came.status_code == 303
        sheet = arbiter.get(server.url + came.headers["location"])
        assert sheet.status_code == 200  # signed in: the recovery sheet with the new code
        successor = CODE.search(sheet.text)
        assert successor is not None and successor.group(1) != code
        arbiter.cookies.clear()
        assert arbiter.post(login, data={"pin": PIN}).status_code == 303  # the lock is lifted
        arbiter.cookies.clear()
        assert arbiter.post(login, data={"pin": code}).status_code == 403  # spent
        arbiter.cookies.clear()
        assert arbiter.post(login, data={"pin": successor.group(1)}).status_code == 303


def test_the_recovery_sheet_needs_the_desk_session(server_process):
    server = server_process()
    login, _code = _event(server)
    event_path = login.removeprefix(server.url).removesuffix("/login")
    with _from("127.0.0.2") as stranger:
        sheet = stranger.get(server.url + event_path + "/recovery")
        assert sheet.status_code == 303 and "/login" in sheet.headers["location"]
        made = stranger.post(server.url + event_path + "/recovery", data={})
        assert made.status_code == 401


# ------------------------------------------------------------------------------ item 5


def test_forty_simultaneous_wrong_pins_from_one_address_are_five_checks(server_process):
    server = server_process()
    login, _code = _event(server)
    with _from("127.0.0.2") as stranger, ThreadPoolExecutor(40) as pool:
        answers = list(pool.map(lambda _: _wrong(stranger, login), range(40)))
    assert answers.count(403) == security.MAX_FAILURES, answers
    assert answers.count(429) == 40 - security.MAX_FAILURES, answers


# ------------------------------------------------------------------------------ item 6


def test_forwarded_for_is_not_believed_without_a_named_proxy(server_process):
    server = server_process()
    login, _code = _event(server)
    with _from("127.0.0.1") as local:
        answers = [
            _wrong(local, login, **{"X-Forwarded-For": f"10.9.0.{n}", "X-Real-IP": f"10.8.0.{n}"})
            for n in range(12)
        ]
    assert answers == [403] * security.MAX_FAILURES + [429] * (12 - security.MAX_FAILURES)


def test_a_named_proxy_is_believed_and_only_that_proxy(server_process):
    server = server_process(extra=("--proxy", "127.0.0.1"))
    login, _code = _event(server)
    with _from("127.0.0.1") as proxy:  # each forwarded client: one wrong PIN each
        assert [_wrong(proxy, login, **{"X-Forwarded-For": f"10.9.0.{n}"}) for n in range(8)] == [
            403
        ] * 8
    with _from("127.0.0.2") as stranger:  # not the proxy: its header is ignored
        answers = [_wrong(stranger, login, **{"X-Forwarded-For": f"10.7.0.{n}"}) for n in range(8)]
    assert answers == [403] * security.MAX_FAILURES + [429] * (8 - security.MAX_FAILURES)


def test_serve_refuses_a_proxy_that_is_not_an_address(tmp_path):
    from typer.testing import CliRunner

    from ball.cli import app

    run = CliRunner().invoke(
        app, ["serve", "--db", str(tmp_path / "x.sqlite"), "--proxy", "proxy.example"]
    )
    assert run.exit_code == 2
    assert "--proxy 'proxy.example'" in run.output and len(run.output.strip().splitlines()) == 1


# ----------------------------------------------------------------------------- item 10


def test_a_flood_meets_the_budget_but_other_addresses_and_the_arbiter_do_not(
    server_process, monkeypatch
):
    monkeypatch.setenv("BALL_REQUEST_BURST", "60")
    monkeypatch.setenv("BALL_REQUEST_RATE", "2")
    server = server_process()
    login, _code = _event(server)
    public = server.url + "/public"
    with _from("127.0.0.2") as flood:
        answers = [flood.get(public) for _ in range(150)]
    statuses = [a.status_code for a in answers]
    assert 429 in statuses and statuses.count(200) < 100, statuses
    refused = answers[statuses.index(429)]
    assert int(refused.headers["retry-after"]) >= 1 and "too many requests" in refused.text
    with _from("127.0.0.3") as phone:
        assert phone.get(public).status_code == 200
    with _from("127.0.0.1") as arbiter:  # the server's own machine
        assert all(arbiter.get(public).status_code == 200 for _ in range(150))
        assert arbiter.post(login, data={"pin": PIN}).status_code == 303
        desk_cookies = dict(arbiter.cookies)
    # The arbiter's own device behind the flooding address: its desk session passes.
    with _from("127.0.0.2") as device:
        assert 429 in [device.get(public).status_code for _ in range(100)]
        assert device.get(public).status_code == 429
        event_page = login.removesuffix("/login")
        device.cookies.update(desk_cookies)
        assert device.get(event_page).status_code == 200
