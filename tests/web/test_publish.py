"""`ball publish` (issue 35 §4) on small events of each kind: the public pages as static
files in every language, each link a file of the folder, nothing that needs the server
(site navigation, search forms, `?lang=` switching), a second run writing only the files
whose bytes changed, files of an earlier run that are no longer made removed, and the
CLI's refusals as one line with exit status 2."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ball.cli import app
from ball.tournament.groups import Setup
from ball.tournament.service import TournamentService
from ball.web import static_site
from ball.web.static_site import page_file
from mahjong.public_event import make_event

from .published import broken_links, sheet, snapshot, swiss_event

runner = CliRunner()


def publish(db: str, out: Path, *extra: str) -> dict:
    result = runner.invoke(app, ["publish", "--db", db, "--out", str(out), "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def refused(*args: str) -> str:
    result = runner.invoke(app, ["publish", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]


def pages(out: Path) -> set[str]:
    return {str(p.relative_to(out)) for p in out.rglob("*.html")}


@pytest.fixture
def swiss(tmp_path) -> tuple[str, int, list[int]]:
    db = str(tmp_path / "swiss.sqlite")
    event_id, open_tables = swiss_event(db, entrants=30, rounds=2)
    return db, event_id, open_tables


def test_a_swiss_event_is_written_in_every_language_with_every_link_a_file(swiss, tmp_path):
    db, event_id, _ = swiss
    out = tmp_path / "site"
    report = publish(db, out, "--event", str(event_id))
    per_language = {
        "standings.html", "standings-page2.html", "pairings.html", "pairings-round1.html",
        "pairings-round2.html", "results.html", "projector.html", "projector-page2.html",
        "crosstable.html", "crosstable-page2.html",
    }  # fmt: skip
    assert pages(out) == {"index.html"} | {f"{lang}/{name}" for lang in ("en", "ko", "bg")
                                           for name in per_language}  # fmt: skip
    assert report["languages"] == ["en", "ko", "bg"] and report["dropped"] == []
    assert sorted(report["written"]) == sorted(
        str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and p.name[0] != "."
    )
    assert report["unchanged"] == [] and report["removed"] == []
    assert broken_links(out) == []
    assert (out / "static/css/base.css").is_file() and (out / "static/js/refresh.js").is_file()
    for name in pages(out):
        html = (out / name).read_text(encoding="utf-8")
        assert "<form" not in html and 'class="site-nav"' not in html, name
        assert "lang.js" not in html and "?lang=" not in html, name
    # the same page in each language: the language links name the other folders
    ko = (out / "ko/standings-page2.html").read_text(encoding="utf-8")
    assert '<html lang="ko">' in ko and 'href="../bg/standings-page2.html"' in ko
    assert (out / "ko/results.html").read_text(encoding="utf-8") != (
        out / "en/results.html"
    ).read_text(encoding="utf-8")
    # the root page is the first view in the first language, its links from the root
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="en/pairings.html"' in index and 'href="static/css/base.css"' in index
    # the pages are the live ones: the standings rank the same names in the same order
    names = re.findall(r'<td class="name">([^<]+)</td>', (out / "en/standings.html").read_text())
    ranked = TournamentService(db).ranking.standings(event=event_id).standings
    assert names == [s.name for s in ranked[: len(names)]] and len(names) == 25


def test_a_second_run_writes_only_the_pages_a_result_changed(swiss, tmp_path):
    db, event_id, open_tables = swiss
    out = tmp_path / "site"
    publish(db, out, "--event", str(event_id))
    before = snapshot(out)
    again = publish(db, out, "--event", str(event_id))
    assert again["written"] == [] and again["removed"] == []
    assert snapshot(out) == before  # nothing touched, not even a modification time

    svc = TournamentService(db)
    import random

    svc.results.enter_result(2, open_tables[0], sheet=sheet(random.Random(5)), event=event_id)
    svc.engine.dispose()
    after = publish(db, out, "--event", str(event_id))
    # what a fresh run writes: the files whose bytes differ are exactly those rewritten
    fresh = tmp_path / "fresh"
    publish(db, fresh, "--event", str(event_id))
    differ = {name for name, (data, _) in snapshot(fresh).items() if before[name][0] != data}
    assert set(after["written"]) == differ - {".ball-publish.json"}
    assert {"en/results.html", "ko/pairings-round2.html", "bg/pairings.html"} <= differ
    # round 1's pairings and the style sheets did not change: not rewritten, same mtime
    now = snapshot(out)
    for name in ("en/pairings-round1.html", "ko/pairings-round1.html", "static/css/base.css"):
        assert name not in after["written"] and now[name] == before[name]
    assert len(after["written"]) + len(after["unchanged"]) == len(before) - 1  # the manifest
    assert {name: data for name, (data, _) in now.items()} == {
        name: data for name, (data, _) in snapshot(fresh).items()
    }


def test_a_run_in_fewer_languages_removes_only_its_own_older_files(swiss, tmp_path):
    db, event_id, _ = swiss
    out = tmp_path / "site"
    out.mkdir()
    (out / "bg").mkdir()
    (out / "bg" / "notes.html").write_text("the host's own file")
    publish(db, out, "--event", str(event_id))
    report = publish(db, out, "--event", str(event_id), "--lang", "en,ko")
    assert report["removed"] and all(name.startswith("bg/") for name in report["removed"])
    assert set(report["removed"]) == {f"bg/{name}" for name in per_language_pages(out, "en")}
    assert not (out / "bg/standings.html").exists()
    assert (out / "bg/notes.html").read_text() == "the host's own file"
    assert broken_links(out) == []  # no language link names the removed folder
    assert "Български" not in (out / "en/standings.html").read_text(encoding="utf-8")
    publish(db, out, "--event", str(event_id), "--lang", "en")
    assert not (out / "ko").exists()  # no empty folder is left behind


def per_language_pages(out: Path, lang: str) -> set[str]:
    return {p.name for p in (out / lang).glob("*.html")}


def test_a_mahjong_event_has_its_seating_tables_and_standings(tmp_path):
    db = str(tmp_path / "mj.sqlite")
    svc, event_id = make_event(db)
    svc.engine.dispose()
    out = tmp_path / "site"
    report = publish(db, out, "--event", str(event_id), "--lang", "bg")
    assert pages(out) == {
        "index.html", "bg/standings.html", "bg/seating.html", "bg/seating-session1.html",
        "bg/tables.html", "bg/tables-session1.html", "bg/projector.html",
    }  # fmt: skip
    assert report["dropped"] == [] and broken_links(out) == []
    seating = (out / "bg/seating.html").read_text(encoding="utf-8")
    assert "Zoë Ångström" in seating and "<form" not in seating
    assert (out / "static/css/public_mahjong.css").is_file()


def test_a_knockout_opens_on_its_bracket(tmp_path):
    db = str(tmp_path / "ko.sqlite")
    svc = TournamentService(db)
    event_id = svc.events.create_event(
        name="KO", system="knockout", game_name="xiangqi", games_per_tie=1
    ).id
    for name in ("Ann", "Bo", "Cy", "Di"):
        svc.entrants.add_player(name, event=event_id)
    svc.knockout.draw_round(seed=7, event=event_id)
    svc.engine.dispose()
    out = tmp_path / "site"
    report = publish(db, out, "--event", str(event_id), "--lang", "en")
    assert {"en/bracket.html", "en/standings.html", "en/pairings.html"} <= pages(out)
    assert report["dropped"] == [] and broken_links(out) == []
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="en/bracket.html" aria-current="page">Bracket</a>' in index
    assert '<a href="bracket.html" aria-current="page">Bracket</a>' in (
        out / "en/bracket.html"
    ).read_text(encoding="utf-8")
    assert (out / "static/desk/formats.css").is_file()


def test_groups_and_team_events_have_their_pages(tmp_path):
    db = str(tmp_path / "formats.sqlite")
    svc = TournamentService(db)
    cup = svc.events.create_event(name="Cup", system="groups", groups=Setup(2, qualifiers=2)).id
    for i in range(8):
        svc.entrants.add_player(f"P{i + 1}", rating=2000 - i, event=cup)
    svc.rounds.pair_next_round(event=cup)
    teams = svc.events.create_event(name="T", system="round-robin", game_name="xiangqi", teams=2).id
    svc.teams.add_team("Reds", ["a1=2000", "a2=1900"], event=teams)
    svc.teams.add_team("Blues", ["b1=2100", "b2"], event=teams)
    svc.rounds.pair_next_round(event=teams)
    svc.engine.dispose()
    out = tmp_path / "cup"
    assert publish(db, out, "--event", str(cup), "--lang", "en")["dropped"] == []
    assert "en/groups.html" in pages(out) and broken_links(out) == []
    out = tmp_path / "teams"
    assert publish(db, out, "--event", "T", "--lang", "ko")["dropped"] == []
    assert "ko/teams.html" in pages(out) and broken_links(out) == []


@pytest.mark.parametrize(
    ("path", "query", "name"),
    [
        ("/public/3/standings", "", "standings.html"),
        ("/public/3/standings", "page=1", "standings.html"),
        ("/public/3/standings", "page=12", "standings-page12.html"),
        ("/public/3/projector", "page=2&rows=20", "projector-page2.html"),
        ("/public/3/projector", "rows=30&page=2", "projector-page2-rows30.html"),
        ("/public/3/tables", "session=2", "tables-session2.html"),
        ("/public/3/standings", "find=Kim", None),  # a search needs the server
        ("/public/3/standings", "page=../x", None),
        ("/public/3/standings", "page=²", None),
        ("/public/4/standings", "", None),  # another event
        ("/desk/3", "", None),
        ("/public/3/projector/../standings", "", None),
    ],
)
def test_page_file_names(path, query, name):
    assert page_file(path, query, 3) == name


def test_refusals_are_one_line(swiss, tmp_path):
    db, event_id, _ = swiss
    out = str(tmp_path / "site")
    assert "unknown event" in refused("--db", db, "--event", "99", "--out", out)
    assert "'xx'" in refused("--db", db, "--event", str(event_id), "--out", out, "--lang", "en,xx")
    afile = tmp_path / "afile"
    afile.write_text("")
    assert "is a file" in refused("--db", db, "--event", str(event_id), "--out", str(afile))
    missing = str(tmp_path / "missing.sqlite")
    assert "no database" in refused("--db", missing, "--out", out)
    assert not Path(missing).exists() and not Path(out).exists()


def test_a_result_entered_while_the_pages_render_renders_them_again(swiss, tmp_path, monkeypatch):
    """One run's pages show one state of the event: the desk's write in the middle of the
    first rendering (here at its first page) makes the run render every page again."""
    db, event_id, open_tables = swiss
    entered = []

    def named_after_a_write(path: str, query: str, event: int) -> str | None:
        if not entered:
            svc = TournamentService(db)
            svc.results.enter_result(2, open_tables[0], forfeit="B", event=event_id)
            svc.engine.dispose()
            entered.append(True)
        return page_file(path, query, event)

    monkeypatch.setattr(static_site, "page_file", named_after_a_write)
    site = static_site.publish(db, event_id, tmp_path / "site", ["en"])
    assert site.passes == 2
    monkeypatch.undo()
    # the pages are those of the event after the write, every one of them
    fresh = static_site.publish(db, event_id, tmp_path / "fresh", ["en"])
    assert fresh.passes == 1
    assert snapshot(tmp_path / "site").keys() == snapshot(tmp_path / "fresh").keys()
    for name, (data, _) in snapshot(tmp_path / "fresh").items():
        assert (tmp_path / "site" / name).read_bytes() == data, name


def test_files_are_readable_by_the_web_host_and_no_partial_file_is_left(swiss, tmp_path):
    db, event_id, _ = swiss
    out = tmp_path / "site"
    before = os.umask(0o022)  # a publisher's usual mask: the files as any file it writes
    try:
        publish(db, out, "--event", str(event_id), "--lang", "en")
    finally:
        os.umask(before)
    assert not list(out.rglob("*.partial"))
    for path in out.rglob("*"):
        if path.is_file():
            assert path.stat().st_mode & 0o044 == 0o044, path  # group and others may read


def test_publish_runs_beside_a_running_event_loop(swiss, tmp_path):
    """A caller with an event loop of its own (a notebook, Playwright's sync API) may
    publish too: the pages render on a thread of their own."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    db, event_id, _ = swiss

    async def inside() -> static_site.Site:
        return static_site.publish(db, event_id, tmp_path / "site", ["en"])

    # the caller's loop runs on a thread of the test's own: this worker's main thread may
    # hold Playwright's running loop already (a browser test ran before), where a second
    # asyncio.run of the test itself could not start
    with ThreadPoolExecutor(max_workers=1) as caller:
        site = caller.submit(asyncio.run, inside()).result()
    assert "en/standings.html" in site.written and broken_links(tmp_path / "site") == []


def test_a_round_whose_pairing_check_failed_is_not_published(tmp_path):
    """A Swiss round set by hand that is not the Dutch pairing fails its check (issue 35 §2)
    and is held back from the players: the static pages leave it out as the live ones do,
    until the arbiter publishes it anyway."""
    db = str(tmp_path / "held.sqlite")
    svc = TournamentService(db)
    event_id = svc.events.create_event(name="Held Open", system="swiss", rounds=3).id
    names = [f"Held {i}" for i in range(1, 7)]
    for i, name in enumerate(names):
        svc.entrants.add_player(name, rating=2400 - 10 * i, event=event_id)
    # 1-2, 3-4, 5-6: the Dutch system pairs the top half against the bottom half (1-4 ...)
    svc.rounds.set_pairing(1, [(names[0], names[1]), (names[2], names[3]), (names[4], names[5])],
                    event=event_id)  # fmt: skip
    assert svc.checks.round_verdict(1, event=event_id).check.ok is False
    svc.engine.dispose()
    out = tmp_path / "site"
    report = publish(db, out, "--event", str(event_id))
    assert not any("pairings-round1" in name for name in report["written"])
    assert "Held 2" not in (out / "en/pairings.html").read_text(encoding="utf-8")
    assert broken_links(out) == []

    TournamentService(db).checks.publish_round(1, override="the players asked", event=event_id)
    again = publish(db, out, "--event", str(event_id))
    assert "Held 2" in (out / "en/pairings.html").read_text(encoding="utf-8")
    assert "en/pairings.html" in again["written"]
