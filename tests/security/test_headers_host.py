"""Issue 11 item 7: security headers on every response, and the Host check that stops a
DNS-rebinding page (its requests carry the attacker's host name) from passing the desk's
same-origin test. In process, against a live `ball serve`, and in Chromium (the policy
must not break a page)."""

from __future__ import annotations

import re
import warnings

import httpx
import pytest
from typer.testing import CliRunner

from ball.cli import app as cli
from ball.web.app import create_app
from ball.web.core.headers import host_name, serve_hosts

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

PIN = "2468"
PATHS = ["/", "/rulebook", "/desk", "/public", "/clock", "/api/games", "/print/forms",
         "/static/css/site.css", "/no/such/page", "/openapi.json"]


def _assert_protected(response) -> None:
    csp = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";")[0]
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "same-origin"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(str(tmp_path / "w.sqlite"))) as c:
        yield c


def test_every_response_carries_the_security_headers(client):
    for path in PATHS:
        _assert_protected(client.get(path))


def test_the_api_docs_page_allows_only_its_own_inline_script(client):
    page = client.get("/docs")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/=]+'", csp)
    assert "'unsafe-inline'" not in csp.split("script-src", 1)[1].split(";")[0]


def test_a_foreign_host_is_refused(client):
    refused = client.get("/desk", headers={"Host": "evil.example"})
    assert refused.status_code == 400
    assert "unknown Host 'evil.example'" in refused.json()["detail"]
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000", "testserver"):
        assert client.get("/desk", headers={"Host": host}).status_code == 200, host


def test_an_allowed_name_is_accepted_and_only_it(tmp_path):
    app = create_app(str(tmp_path / "w.sqlite"), allowed_hosts=["ball.local", "10.1.2.3"])
    with TestClient(app) as c:
        assert c.get("/", headers={"Host": "ball.local:8000"}).status_code == 200
        assert c.get("/", headers={"Host": "10.1.2.3"}).status_code == 200
        assert c.get("/", headers={"Host": "testserver"}).status_code == 400


def test_host_names_are_read_strictly():
    assert host_name("Ball.Local:8000") == "ball.local"
    assert host_name("[::1]:80") == "::1"
    assert host_name("evil.example:80@127.0.0.1") is None
    assert host_name("::1") is None
    assert host_name("") is None


def test_serve_answers_to_loopback_its_address_and_allowed_names():
    assert set(serve_hosts("127.0.0.1", 8000)) == {"127.0.0.1", "localhost", "::1"}
    assert "192.168.7.7" in serve_hosts("192.168.7.7", 8000)
    assert "ball.local" in serve_hosts("127.0.0.1", 8000, ["ball.local"])


def test_serve_refuses_an_allowed_host_with_a_scheme(tmp_path):
    result = CliRunner().invoke(
        cli, ["serve", "--db", str(tmp_path / "x.sqlite"), "--allowed-host", "http://x:80"]
    )
    assert result.exit_code == 2
    assert result.output.strip().startswith("error: --allowed-host 'http://x:80'")


def test_live_server_refuses_a_rebinding_page_and_sends_the_headers(server_process):
    server = server_process()
    port = server.url.rsplit(":", 1)[1]
    evil = f"evil.example:{port}"
    with httpx.Client(timeout=30) as c:
        # The rebinding page's form post: Origin and Host agree, so only the Host check
        # can tell that the browser thinks it is talking to evil.example.
        forged = c.post(
            server.url + "/desk/events",
            data={"name": "Forged", "system": "swiss", "pin": PIN, "pin2": PIN},
            headers={"Host": evil, "Origin": f"http://{evil}"},
        )
        assert forged.status_code == 400 and "unknown Host" in forged.text
        assert "Forged" not in c.get(server.url + "/desk").text
        _assert_protected(c.get(server.url + "/desk"))


def test_live_server_accepts_an_allowed_host(server_process):
    server = server_process(extra=("--allowed-host", "ball.local"))
    with httpx.Client(timeout=30) as c:
        assert c.get(server.url + "/", headers={"Host": "ball.local"}).status_code == 200
        assert c.get(server.url + "/", headers={"Host": "other.local"}).status_code == 400


@pytest.mark.browser
def test_pages_run_under_the_policy_in_chromium(browser, serve, tmp_path):
    """The pages' own scripts under the real policy (bypass_csp=False): no violation
    reported, and the script-driven parts appear."""
    app = create_app(str(tmp_path / "w.sqlite"), demo=True)
    base = serve(app)
    page = browser.new_page(bypass_csp=False)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    for path in ["/", "/rulebook", "/clock", "/clock/1", "/public", "/print/forms",
                 "/print/regulation", "/desk"]:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
    page.goto(base + "/desk/1/login")
    page.fill("input[name=pin]", "1234")
    page.click("#login button[type=submit]")
    page.goto(base + "/desk/1/rounds/2")
    page.wait_for_load_state("networkidle")
    page.goto(base + "/")
    page.wait_for_selector("svg")
    page.close()
    assert violations == []
