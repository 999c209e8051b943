"""`ball publish` on a 500-entrant Swiss (issue 35 §4, "what must be shown"): every page
written in en, ko and bg, every internal link naming a file of the folder, a second run
after one changed result writing only the pages whose bytes changed, and the pages served
as plain files (a loopback static server: what a web host does) passing the same axe-core
checks as the live public pages (tests/desk/test_accessibility.py), at 390x844 and
1366x768, with the refresh's pause button working from the static copy."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament.service import TournamentService

from .published import broken_links, sheet, snapshot, static_server, swiss_event

ENTRANTS = 500
ROUNDS = 3
runner = CliRunner()
VIEWPORTS = {"phone": (390, 844), "desktop": (1366, 768)}


def publish(db: str, event_id: int, out: Path) -> dict:
    args = ["publish", "--db", db, "--event", str(event_id), "--out", str(out), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[str, int, list[int], Path]:
    folder = tmp_path_factory.mktemp("publish500")
    db = str(folder / "open.sqlite")
    event_id, open_tables = swiss_event(db, ENTRANTS, ROUNDS)
    out = folder / "site"
    publish(db, event_id, out)
    return db, event_id, open_tables, out


@pytest.mark.slow
def test_every_page_of_500_entrants_is_written_and_every_link_resolves(site):
    db, event_id, _, out = site
    standings_pages = -(-ENTRANTS // 25)
    for lang in ("en", "ko", "bg"):
        names = {p.name for p in (out / lang).glob("*.html")}
        assert {"standings.html", "results.html", "pairings.html", "projector.html"} <= names
        assert {f"standings-page{n}.html" for n in range(2, standings_pages + 1)} <= names
        assert {f"pairings-round{n}.html" for n in range(1, ROUNDS + 1)} <= names
        assert f"standings-page{standings_pages + 1}.html" not in names
    assert broken_links(out) == []
    # every entrant is on one standings page of each language, in the ranking's order
    ranked = [s.name for s in TournamentService(db).ranking.standings(event=event_id).standings]
    for lang in ("en", "ko", "bg"):
        shown = []
        for n in range(1, standings_pages + 1):
            name = "standings.html" if n == 1 else f"standings-page{n}.html"
            html = (out / lang / name).read_text(encoding="utf-8")
            shown += re.findall(r'<td class="name">([^<]+)</td>', html)
        assert shown == ranked
    # each round's results: one row per table of the 250
    results = (out / "en/results.html").read_text(encoding="utf-8")
    assert results.count('<td class="num">') == ROUNDS * ENTRANTS // 2


@pytest.mark.slow
def test_a_second_run_after_one_result_writes_only_the_changed_pages(site, tmp_path):
    db, event_id, open_tables, out = site
    before = snapshot(out)
    assert publish(db, event_id, out)["written"] == []
    svc = TournamentService(db)
    svc.results.enter_result(ROUNDS, open_tables[-1], sheet=sheet(random.Random(9)), event=event_id)
    svc.engine.dispose()
    report = publish(db, event_id, out)
    fresh = tmp_path / "fresh"
    publish(db, event_id, fresh)
    new = snapshot(fresh)
    differ = {name for name, (data, _) in new.items() if before[name][0] != data}
    assert set(report["written"]) == differ - {".ball-publish.json"}
    # the result's round and the rankings changed; the earlier rounds' pairings did not
    assert {"en/results.html", f"ko/pairings-round{ROUNDS}.html"} <= differ
    assert not any("pairings-round1" in name for name in report["written"])
    now = snapshot(out)
    for name in set(before) - set(report["written"]) - {".ball-publish.json"}:
        assert now[name] == before[name], name  # bytes and mtime: never rewritten
    assert {n: d for n, (d, _) in now.items()} == {n: d for n, (d, _) in new.items()}
    assert broken_links(out) == []


@pytest.mark.slow
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_static_pages_pass_axe_from_a_plain_file_server(site, browser, axe, viewport):
    _, _, _, out = site
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    findings = {}
    with static_server(out) as base:
        for name in ("index.html", "en/standings-page3.html", "ko/pairings.html",
                     "bg/results.html", "en/projector-page2.html",
                     "ko/crosstable-page2.html"):  # fmt: skip
            answer = page.goto(f"{base}/{name}")
            assert answer is not None and answer.status == 200
            findings[name] = axe(page)
        # a reader moves through the static pages by their links: tab, page, language
        page.goto(f"{base}/en/standings.html")
        page.click("nav.page-links a:text-is('2')")
        page.wait_for_url("**/en/standings-page2.html")
        page.click("a.lang-link[hreflang=bg]")
        page.wait_for_url("**/bg/standings-page2.html")
        page.click("nav.tabs a[href='pairings.html']")
        page.wait_for_url("**/bg/pairings.html")
        assert page.locator("html").get_attribute("lang") == "bg"
        # the refresh (refresh.js, loaded from the copy) offers its pause button
        pause = page.locator(".refresh-pause")
        assert pause.is_visible() and pause.get_attribute("aria-pressed") == "false"
        pause.click()
        assert pause.get_attribute("aria-pressed") == "true"
    context.close()
    assert {k: v for k, v in findings.items() if v} == {}
    assert errors == []


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_mahjong_and_knockout_static_pages_pass_axe(tmp_path, browser, axe, viewport):
    """The other games' and formats' pages (seating, table results, bracket) as static
    files pass the same checks."""
    from ball.web.static_site import publish as write_site
    from mahjong.public_event import make_event

    mahjong_db = str(tmp_path / "mj.sqlite")
    svc, mahjong_id = make_event(mahjong_db)
    svc.engine.dispose()
    write_site(mahjong_db, mahjong_id, tmp_path / "site" / "mj", ["ko", "en"])
    knockout_db = str(tmp_path / "ko.sqlite")
    svc = TournamentService(knockout_db)
    knockout_id = svc.events.create_event(name="KO", system="knockout", game_name="xiangqi").id
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        svc.entrants.add_player(name, event=knockout_id)
    svc.knockout.draw_round(seed=7, event=knockout_id)
    svc.engine.dispose()
    write_site(knockout_db, knockout_id, tmp_path / "site" / "ko", ["bg"])
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    findings = {}
    with static_server(tmp_path / "site") as base:
        for name in ("mj/ko/seating.html", "mj/en/tables.html", "mj/ko/standings.html",
                     "ko/index.html", "ko/bg/pairings.html"):  # fmt: skip
            answer = page.goto(f"{base}/{name}")
            assert answer is not None and answer.status == 200
            findings[name] = axe(page)
    context.close()
    assert {k: v for k, v in findings.items() if v} == {}
