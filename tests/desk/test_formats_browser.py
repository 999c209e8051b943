"""Issue 17 through the browser (Debian's Chromium via Playwright), at the desk only:

* a 13-entrant Xiangqi knockout of best-of-3 mini-matches (seed 004 §9, articles 6 and
  13.5): each round paired by the drawing of lots — from a seed typed at the desk, or the
  cards as drawn at the venue — every game entered on the tie's page with the colours the
  test expects (side A, the red card, has Red in odd games), one tie decided by extra games,
  one by the lots, on to the final; the public bracket is checked against the test's own
  record of who won what;
* a 4-team round robin of 4 boards: teams added, a line-up with a substitute declared
  (12.2, 12.3), every board's result entered from the team match card, colours by board
  (13.2, 13.3) checked on the card and on each board's result form, and the public team
  standings checked against the test's own computation of match and game points and the
  15.3 order (match points, game points, match wins, direct encounter).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest

from ball.tournament import lots
from ball.web.app import create_app

from .browser_steps import add_entrants, create_event
from .conftest import FakeClock

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIN_REASONS = ("checkmate", "resignation", "time")


@pytest.fixture
def app(tmp_path):
    application = create_app(str(tmp_path / "formats.sqlite"))
    application.state.clock_time = FakeClock()
    return application


def create(page, base: str, name: str, system: str, **options: str) -> None:
    create_event(page, base, name, system=system, game="xiangqi", format_options=options)


# ------------------------------------------------------------------------------ knockout


class Knockout:
    """The knockout driven through the desk, and the test's own record of it."""

    def __init__(self, page, base: str) -> None:
        self.page, self.base = page, base
        self.winners: dict[int, dict[frozenset[str], str]] = defaultdict(dict)
        self.byes: dict[int, str] = {}
        self.how: dict[tuple[int, int], str] = {}

    def draw_by_seed(self, seed: int, field: list[str]) -> lots.Draw:
        page = self.page
        page.goto(f"{self.base}/desk/1/bracket")
        shown = page.locator("#draw p").first.inner_text()
        assert all(name in shown for name in field)
        page.fill("#draw-seed input[name=seed]", str(seed))
        page.click("#draw-seed button[type=submit]")
        page.wait_for_url(re.compile(r".*/desk/1/bracket#draws$"))
        return lots.draw_from_seed(field, seed)  # dealt in pairing-number order

    def draw_by_cards(self, cards: dict[str, str]) -> lots.Draw:
        page = self.page
        page.goto(f"{self.base}/desk/1/bracket")
        for name, card in cards.items():
            page.get_by_label(f"Card drawn by {name}").fill(card)
        page.click("#draw-cards button[type=submit]")
        page.wait_for_url(re.compile(r".*/desk/1/bracket#draws$"))
        return lots.check(list(cards), cards)

    def play_tie(self, rnd: int, table: int, a: str, b: str, plan: list[str]) -> str:
        """Enter the games of a tie as `plan` says (A, B or D per game, from the sides),
        checking each game's colours; returns the winner the test expects."""
        page = self.page
        url = f"{self.base}/desk/1/rounds/{rnd}/ties/{table}"
        points = {"A": 0.0, "B": 0.0}
        extra = {"A": 0.0, "B": 0.0}
        names = {"A": a, "B": b}
        for number, result in enumerate(plan, start=1):
            red, black = ("A", "B") if number % 2 else ("B", "A")  # 13.5: alternate
            page.goto(url)
            heading = page.locator("#next-game h2").inner_text()
            assert heading.startswith(f"Game {number}: {names[red]} (Red) – {names[black]}")
            block = points if number <= 3 else extra
            if result == "D":
                page.check("input[name=xq_result][value='1/2-1/2']")
                page.select_option("select[name=xq_reason]", "agreement")
                block["A"] += 0.5
                block["B"] += 0.5
            else:
                value = "1-0" if result == red else "0-1"
                page.check(f"input[name=xq_result][value='{value}']")
                page.select_option("select[name=xq_reason]", random.choice(WIN_REASONS))
                block[result] += 1
            page.click("#game-form button[type=submit]")
            page.wait_for_url(url)
        page.goto(url)
        if points["A"] != points["B"]:
            self.how[rnd, table] = "games"
            return a if points["A"] > points["B"] else b
        if extra["A"] != extra["B"]:
            self.how[rnd, table] = "extra games"
            return a if extra["A"] > extra["B"] else b
        # level after 3 games and 2 extra games: the lots, drawn at the venue
        assert page.locator("#lots").count() == 1 and page.locator("#next-game").count() == 0
        winner = random.choice([a, b])
        page.select_option("#lots-winner select[name=winner]", winner)
        page.click("#lots-winner button[type=submit]")
        page.wait_for_url(url)
        self.how[rnd, table] = "lots"
        return winner


def random_plan(rng: random.Random) -> list[str]:
    """Games until the best of 3 (then 2 extra games) is decided; never a drawing of lots."""
    while True:
        plan, a, b = [], 0.0, 0.0
        for number in range(1, 6):
            result = rng.choice("AABBD")
            plan.append(result)
            block_end = 3 if number <= 3 else 5
            if number == 4:
                a = b = 0.0  # extra games are scored on their own
            a += 1 if result == "A" else 0.5 if result == "D" else 0
            b += 1 if result == "B" else 0.5 if result == "D" else 0
            if abs(a - b) > block_end - number:
                return plan
        # all five games level: draw again (the lots tie is planned on its own)


def test_a_13_entrant_knockout_of_mini_matches_through_the_desk(app, serve, browser):
    base = serve(app)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    names = [f"Player {c}" for c in "ABCDEFGHIJKLM"]
    create(page, base, "Lots Cup", "knockout", games_per_tie="3", extra_games="2")
    add_entrants(page, names)
    page.click("#bracket-link")
    page.wait_for_url(f"{base}/desk/1/bracket")
    ko = Knockout(page, base)
    rng = random.Random(17)
    random.seed(17)
    field = names  # round 1: every entrant, in pairing-number order (registration)
    rnd = 0
    while len(field) > 1:
        rnd += 1
        if rnd == 2:  # the venue's own cards: a deck shuffled by the test, dealt in order
            deck = [str(c) for c in lots.deck(len(field))]
            rng.shuffle(deck)
            draw = ko.draw_by_cards(dict(zip(field, deck, strict=True)))
        else:
            draw = ko.draw_by_seed(1000 + rnd, field)
        page.goto(f"{base}/desk/1/bracket")
        if draw.seed is not None:
            assert f"seed {draw.seed}" in page.locator("#draws").inner_text()
        column = page.locator(f"#bracket .bracket-round[data-round='{rnd}']")
        shown = [
            tuple(t.locator(".side .name").all_inner_texts())
            for t in column.locator(".tie[data-table]").all()
        ]
        assert shown == draw.pairs(), (rnd, shown, draw.pairs())
        if draw.bye():
            assert column.locator(".tie.bye .name").inner_text() == draw.bye()
            ko.byes[rnd] = draw.bye()
        for table, (a, b) in enumerate(draw.pairs(), start=1):
            if rnd == 1 and table == 1:
                plan = ["A", "B", "D", "D", "B"]  # level 1½-1½, then extra games: B
            elif rnd == 1 and table == 2:
                plan = ["D"] * 5  # level after games and extra games: lots
            else:
                plan = random_plan(rng)
            ko.winners[rnd][frozenset((a, b))] = ko.play_tie(rnd, table, a, b, plan)
        winners = set(ko.winners[rnd].values()) | ({draw.bye()} if draw.bye() else set())
        field = [n for n in names if n in winners]  # pairing-number order
    assert rnd == 4  # 13 -> 7 -> 4 -> 2 -> 1 (ceil(log2 13) rounds)
    assert ko.how[1, 1] == "extra games" and ko.how[1, 2] == "lots"

    visitor = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    visitor.goto(f"{base}/public/1/bracket?refresh=0")
    assert visitor.locator("#champion").inner_text() == field[0]
    for number, decided in ko.winners.items():
        column = visitor.locator(f"#bracket .bracket-round[data-round='{number}']")
        for tie in column.locator(".tie[data-table]").all():
            pair = frozenset(tie.locator(".side .name").all_inner_texts())
            assert tie.locator(".side.winner .name").inner_text() == decided[pair]
        if number in ko.byes:
            assert column.locator(".tie.bye .name").inner_text() == ko.byes[number]
    first = visitor.locator("#tie-1-1 .how").inner_text()
    second = visitor.locator("#tie-1-2 .how").inner_text()
    assert "by extra games" in first and "by drawing of lots" in second
    assert visitor.locator("#draws table.draw").count() == 4
    visitor.screenshot(path=_artifact("knockout-bracket.png"), full_page=True)
    assert errors == []


def _artifact(name: str) -> str:
    from pathlib import Path

    folder = Path("test-artifacts/desk")
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / name)


# --------------------------------------------------------------------------------- teams

TEAMS = {
    "Sofia": [("Sa", 2300), ("Sb", 2200), ("Sc", 2100), ("Sd", 2000), ("Se", None)],
    "Seoul": [("Ka", 2250), ("Kb", 2150), ("Kc", 2050), ("Kd", 1950), ("Ke", None)],
    "Varna": [("Va", 2000), ("Vb", 1900), ("Vc", None), ("Vd", None), ("Ve", None)],
    "Busan": [("Ba", 2400), ("Bb", 2000), ("Bc", 1800), ("Bd", 1700), ("Be", 1600)],
}
BOARDS = 4


def lineup_for(team: str, rnd: int) -> list[str]:
    """The test's line-ups: Sofia fields its substitute Se for Sc in round 2 (the order kept:
    Sd moves up to board 3, 12.2); every other team its first four (by rating, unrated last)."""
    order = [n for n, _ in TEAMS[team]]
    if team == "Sofia" and rnd == 2:
        return ["Sa", "Sb", "Sd", "Se"]
    return order[:BOARDS]


def test_a_team_round_robin_through_the_desk(app, serve, browser):
    base = serve(app)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    create(page, base, "Team League", "round-robin", teams=str(BOARDS))
    page.click("#teams-link")
    page.wait_for_url(f"{base}/desk/1/teams")
    for team, players in TEAMS.items():
        # rated players in reverse (12.1 sorts them by rating), the unrated in their order
        rated = [f"{n}={r}" for n, r in reversed(players) if r]
        lines = rated + [n for n, r in players if not r]
        page.fill("#add-team input[name=name]", team)
        page.fill("#add-team textarea[name=players]", "\n".join(lines))
        page.click("#add-team button[type=submit]")
        page.wait_for_url(re.compile(r".*/desk/1/teams#teams$"))
    for team, players in TEAMS.items():
        shown = page.locator(f".team[data-team='{team}'] li").all_inner_texts()
        assert [s.split()[0] for s in shown] == [n for n, _ in players]

    rng = random.Random(12)
    games: dict[tuple[str, str], list[float]] = defaultdict(list)  # team pair -> GP
    for rnd in (1, 2, 3):
        page.goto(f"{base}/desk/1/teams")
        for team in TEAMS:
            form = page.locator(f"form.lineup[data-team='{team}']")
            for board, name in enumerate(lineup_for(team, rnd), start=1):
                form.locator(f"select[name=board_{board}]").select_option(name)
            form.locator("button[type=submit]").click()
            page.wait_for_url(re.compile(r".*/desk/1/teams#lineups$"))
        page.click("#pair-teams")
        page.wait_for_url(f"{base}/desk/1/rounds/{rnd}")
        page.goto(f"{base}/desk/1/teams")
        links = page.locator(f"a.match-link[data-round='{rnd}']")
        for m in range(1, links.count() + 1):
            first, second, points = play_match(page, base, rnd, m, rng)
            games[first, second] = points

    # the test's own team table: 14.2 points, 15.3 order
    mp: dict[str, int] = defaultdict(int)
    gp: dict[str, float] = defaultdict(float)
    wins: dict[str, int] = defaultdict(int)
    met: dict[tuple[str, str], int] = {}
    for (x, y), (gx, gy) in games.items():
        px, py = (2, 0) if gx > gy else (0, 2) if gy > gx else (1, 1)
        mp[x] += px
        mp[y] += py
        gp[x] += gx
        gp[y] += gy
        wins[x] += px == 2
        wins[y] += py == 2
        met[x, y], met[y, x] = px, py

    def key(team: str, level: set[str]) -> tuple:
        direct = sum(met.get((team, o), 0) for o in level if o != team)
        return (-mp[team], -gp[team], -wins[team], -direct)

    visitor = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    visitor.goto(f"{base}/public/1/teams?refresh=0")
    rows = visitor.locator("#team-standings tbody tr").all()
    table = [
        (
            r.locator("td.rank").inner_text(),
            r.locator("td.name").inner_text(),
            int(r.locator("td.mp").inner_text()),
            float(r.locator("td.gp").inner_text().replace("½", ".5") or 0),
        )
        for r in rows
    ]
    assert {name: (m, g) for _, name, m, g in table} == {t: (mp[t], gp[t]) for t in TEAMS}
    level_groups: dict[tuple, set[str]] = defaultdict(set)
    for t in TEAMS:
        level_groups[(-mp[t], -gp[t], -wins[t])].add(t)
    keys = [key(name, level_groups[(-mp[name], -gp[name], -wins[name])]) for _, name, _, _ in table]
    assert keys == sorted(keys), table
    for (rank, *_), (rank2, *_), k1, k2 in zip(table, table[1:], keys, keys[1:], strict=False):
        assert (rank == rank2) == (k1 == k2), table
    # every card on the public page shows the boards' results as entered
    assert visitor.locator("table.match-card").count() == 6
    visitor.screenshot(path=_artifact("team-standings.png"), full_page=True)
    assert errors == []


def play_match(page, base: str, rnd: int, match: int, rng) -> tuple[str, str, list[float]]:
    """Enter every board of a team match from its card; check the colours by board and
    the card's results; the game points of both teams as the test entered them."""
    url = f"{base}/desk/1/rounds/{rnd}/matches/{match}"
    page.goto(url)
    caption = page.locator("table.match-card caption").inner_text()
    first, second = caption.split(": ", 1)[1].split(" – ")
    points = [0.0, 0.0]
    shown = []
    for board in range(1, BOARDS + 1):
        page.goto(url)
        row = page.locator(f"tr[data-board='{board}']")
        ours, theirs = row.locator("td.name").all_inner_texts()
        ours_name, ours_colour = ours.split(" (")
        theirs_name = theirs.split(" (")[0]
        expected = "Red" if board % 2 else "Black"  # 13.2, 13.3
        assert ours_colour.rstrip(")") == expected, (rnd, match, board, ours)
        assert ours_name == lineup_for(first, rnd)[board - 1]
        assert theirs_name == lineup_for(second, rnd)[board - 1]
        row.locator("a.button").click()
        page.wait_for_url(re.compile(rf".*/desk/1/rounds/{rnd}/tables/\d+$"))
        red, black = (ours_name, theirs_name) if board % 2 else (theirs_name, ours_name)
        match_text = page.locator("p.match").inner_text()
        assert f"Red: {red}" in match_text and f"Black: {black}" in match_text
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        page.check(f"input[name=xq_result][value='{result}']")
        reason = "agreement" if result == "1/2-1/2" else rng.choice(WIN_REASONS)
        page.select_option("select[name=xq_reason]", reason)
        page.click("#save")
        page.wait_for_url(re.compile(rf".*/desk/1/rounds/{rnd}(#.*)?$"))
        red_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        ours_points = red_points if board % 2 else 1 - red_points
        points[0] += ours_points
        points[1] += 1 - ours_points
        shown.append({1.0: "1-0", 0.0: "0-1", 0.5: "½-½"}[ours_points])
    page.goto(url)
    assert page.locator("table.match-card td.result").all_inner_texts() == shown
    mp = page.locator("table.match-card .mp").inner_text()
    expected = "2 – 0" if points[0] > points[1] else "0 – 2" if points[1] > points[0] else "1 – 1"
    assert mp == expected  # 14.2
    return first, second, points
