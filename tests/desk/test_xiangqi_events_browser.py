"""Issue 16's two events run through the browser (Debian's Chromium via Playwright): a
9-player Xiangqi round robin and a 20-player Swiss created at the desk, every round paired
and every result entered through the desk's Xiangqi result form (seeded random results, a
few forfeits, sanctions from the sanctions page), then the public standings page read and
its order checked against the test's own computation (seed 15.1/15.2: points, 18.4
sanctions, Sonneborn-Berger or Buchholz, wins, ...), and the colours from the stored
pairings (13.1 Berger tables; Swiss colour rules)."""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest

from ball.web.app import create_app
from ball.web.core.deps import service_for
from tournament.test_xiangqi_events import DRAW, WIN, Played

from .browser_steps import add_entrants, create_event
from .conftest import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.slow]

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def number(text: str) -> float | str:
    """A figure as the page writes it ("4½", "−1", "0"); other text stays text."""
    t = text.strip().replace("−", "-").replace("½", ".5")
    t = re.sub(r"^(-?)\.5$", r"\g<1>0.5", t)
    try:
        return float(t)
    except ValueError:
        return text.strip()


class Event:
    """One event driven through the desk pages, and what the test entered (`played`)."""

    def __init__(self, browser, base: str, app, forfeit_rate: float = 0.05) -> None:
        self.page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.base, self.app = base, app
        self.played = Played()
        self.forfeits: list[tuple[str, str]] = []  # (winner, loser), not games played
        self.forfeit_rate = forfeit_rate

    def create(self, name: str, system: str, names: list[str], rounds: str = "") -> None:
        fields = {"rounds": rounds} if rounds else {}
        create_event(self.page, self.base, name, system=system, game="xiangqi", fields=fields)
        add_entrants(self.page, names)

    def play_round(self, rnd: int, rng: random.Random) -> None:
        page = self.page
        page.goto(f"{self.base}/desk/1")
        page.click("#pair-next")
        page.wait_for_url(f"{self.base}/desk/1/rounds/{rnd}")
        for t in service_for(self.app).rounds.pairings(rnd, event=1):
            if t.get("b") is None:
                continue
            self.enter(rnd, t["table"], t["a"], t["b"], rng)

    def enter(self, rnd: int, table: int, red: str, black: str, rng: random.Random) -> None:
        page = self.page
        page.goto(f"{self.base}/desk/1/rounds/{rnd}/tables/{table}")
        if rng.random() < self.forfeit_rate:  # a forfeit (21.4): not a game played, no colours
            loser = rng.choice("AB")
            page.check(f"input[name=kind][value='forfeit-{loser}']")
            self.forfeits.append((black, red) if loser == "A" else (red, black))
        else:
            result = rng.choice(["1-0", "0-1", "1/2-1/2", "1/2-1/2"])
            fouls = {red: rng.choice([0, 0, 1, 2]), black: rng.choice([0, 0, 1])}
            reason = rng.choice(DRAW if result == "1/2-1/2" else WIN)
            page.check(f"input[name=xq_result][value='{result}']")
            page.select_option("select[name=xq_reason]", reason)
            page.fill("input[name=xq_fouls_A]", str(fouls[red]))
            page.fill("input[name=xq_fouls_B]", str(fouls[black]))
            self.played.games.append((red, black, POINTS[result]))
            self.played.colours[red] += "w"
            self.played.colours[black] += "b"
            for name, n in fouls.items():
                self.played.fouls[name] += n
        page.click("#save")
        page.wait_for_url(re.compile(rf".*/desk/1/rounds/{rnd}(#.*)?$"))

    def sanction(self, number: int, name: str, step: str) -> None:
        page = self.page
        page.goto(f"{self.base}/desk/1/sanctions")
        form = page.locator(f"form:has(input[name=entrant][value='{number}'])")
        form.locator("select[name=step]").select_option(step)
        form.locator("input[name=reason]").fill("arbiter's ruling")
        form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r".*/desk/1(/sanctions)?(#.*)?$"))
        self.played.sanctions[name].append(step)

    def standings(self, browser) -> list[dict]:
        """The public standings, every page of them (the projector shows a few rows a page)."""
        visitor = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        rows: list[dict] = []
        for number_ in range(1, 10):
            visitor.goto(f"{self.base}/public/1/standings?page={number_}")
            heads = visitor.locator("#standings thead th.tb").evaluate_all(
                "cells => cells.map(c => c.dataset.tiebreak)"
            )
            found = [self._row(row, heads) for row in visitor.locator("#standings tbody tr").all()]
            if any(r["name"] == found[0]["name"] for r in rows):  # past the last page
                break
            rows += found
        return rows

    @staticmethod
    def _row(row, heads: list[str]) -> dict:
        values = (number(v) for v in row.locator("td.tb").all_inner_texts())
        return {
            "rank": row.locator("td.rank").inner_text().strip(),
            "name": row.locator("td.name").inner_text().strip(),
            "points": number(row.locator("td.points").inner_text()),
            "tiebreaks": dict(zip(heads, values, strict=True)),
        }

    # What the test entered, forfeits included as results (not as games played).
    def points(self, name: str) -> float:
        return self.played.points(name) + sum(1.0 for w, _ in self.forfeits if w == name)

    def scored_against(self, name: str) -> list[tuple[str, float]]:
        out = self.played.scored_against(name)
        out += [(lo, 1.0) for w, lo in self.forfeits if w == name]
        out += [(w, 0.0) for w, lo in self.forfeits if lo == name]
        return out

    def wins(self, name: str) -> int:
        return sum(1 for _, p in self.scored_against(name) if p == 1)

    def stored_colours(self, rounds: int) -> dict[str, str]:
        """Red ("w") and Black ("b") of every entrant per round, from the stored pairings."""
        colours: dict[str, str] = defaultdict(str)
        for rnd in range(1, rounds + 1):
            for t in service_for(self.app).rounds.pairings(rnd, event=1):
                if t.get("b") is not None:
                    colours[t["a"]] += "w"
                    colours[t["b"]] += "b"
        return colours


def check_order(table: list[dict], key) -> None:
    keys = [key(row) for row in table]
    assert any(a["points"] == b["points"] for a, b in zip(table, table[1:], strict=False))
    assert keys == sorted(keys), [(r["name"], k) for r, k in zip(table, keys, strict=True)]
    for i in range(len(table) - 1):
        same_rank = table[i]["rank"] == table[i + 1]["rank"] or not table[i + 1]["rank"]
        assert same_rank == (keys[i] == keys[i + 1]), (table[i], table[i + 1])


@pytest.fixture
def app(tmp_path):
    application = create_app(str(tmp_path / "xiangqi-events.sqlite"))
    application.state.clock_time = FakeClock()
    return application


def test_a_9_player_round_robin_through_the_browser(app, serve, browser):
    event = Event(browser, serve(app), app)
    names = [f"Player {c}" for c in "ABCDEFGHI"]
    event.create("Xiangqi RR", "round-robin", names)
    rng = random.Random(16)
    for rnd in range(1, 10):  # 9 entrants: 9 rounds, each sits out once
        event.play_round(rnd, rng)
    event.sanction(3, "Player C", "warning")
    event.sanction(6, "Player F", "disqualification")
    table = event.standings(browser)
    assert len(table) == 9
    assert list(table[0]["tiebreaks"])[:5] == ["sanctions", "sonneborn-berger", "wins",
                                               "direct-encounter", "fouls"]  # fmt: skip
    points = {n: event.points(n) for n in names}
    sb = {n: sum(points[o] * p for o, p in event.scored_against(n)) for n in names}

    def prior(n: str) -> tuple:
        return (-points[n], event.played.sanction_weight(n), -sb[n], -event.wins(n))

    groups: dict[tuple, set[str]] = defaultdict(set)
    for n in names:
        groups[prior(n)].add(n)

    def key(row: dict) -> tuple:
        n = row["name"]
        assert row["points"] == points[n]
        assert row["tiebreaks"]["sonneborn-berger"] == sb[n]
        assert row["tiebreaks"]["fouls"] == event.played.fouls[n]
        group = groups[prior(n)]
        mini = sum(p for o, p in event.scored_against(n) if o in group)
        return (*prior(n), -mini if len(group) > 1 else 0, event.played.fouls[n],
                -event.played.black(n)[0], -event.played.black(n)[1])  # fmt: skip

    check_order(table, key)
    assert event.forfeits, "the seeded run has forfeits"
    # Berger tables (13.1): 8 pairings each, 4 with Red and 4 with Black.
    colours = event.stored_colours(9)
    assert {n: (c.count("w"), c.count("b")) for n, c in colours.items()} == {
        n: (4, 4) for n in names
    }
    assert event.errors == []


def test_a_20_player_swiss_through_the_browser(app, serve, browser):
    # No forfeits here: Buchholz adjusts an unplayed game's opponent score (the CLI run's
    # reference computation has no forfeits either); the round robin has them.
    event = Event(browser, serve(app), app, forfeit_rate=0.0)
    names = [f"S{i:02d}" for i in range(1, 21)]
    event.create("Xiangqi Swiss", "swiss", names, rounds="6")
    rng = random.Random(1616)
    for rnd in range(1, 7):
        event.play_round(rnd, rng)
        if rnd == 3:
            event.sanction(5, "S05", "warning")
            event.sanction(12, "S12", "warning")
            event.sanction(12, "S12", "warning")
    table = event.standings(browser)
    assert len(table) == 20
    assert list(table[0]["tiebreaks"])[:3] == ["sanctions", "buchholz", "wins"]
    points = {n: event.points(n) for n in names}
    buchholz = {n: sum(points[o] for o, _ in event.scored_against(n)) for n in names}

    def key(row: dict) -> tuple:
        n = row["name"]
        assert row["points"] == points[n]
        assert row["tiebreaks"]["buchholz"] == buchholz[n]
        black = event.played.black(n)
        return (-points[n], event.played.sanction_weight(n), -buchholz[n], -event.wins(n),
                event.played.fouls[n], -black[0], -black[1])  # fmt: skip

    check_order(table, key)
    # Colour balance (Swiss, Red = White): 6 pairings each, a colour difference of at most
    # 2 and never the same colour three times running.
    colours = event.stored_colours(6)
    for name in names:
        c = colours[name]
        assert len(c) == 6, (name, c)
        assert abs(c.count("w") - c.count("b")) <= 2, (name, c)
        assert "www" not in c and "bbb" not in c, (name, c)
    assert event.errors == []
