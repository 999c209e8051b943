"""Refused desk forms are no dead ends (issue 36 item 12), in Chromium at 1366x768 and
390x844: the BALL result sheet, the Xiangqi result, the Mahjong hand and the new-event form
come back as typed, with the fault in the arbiter's words beside its field (the field
`aria-invalid` and described by it) and the same HTTP status as before; a fault about no
field (another arbiter's save, 409) is at the top of the same form. axe finds nothing
serious on the refused pages."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ball.web.app import create_app
from web.conftest import page, shoot  # noqa: F401 - the fixture at both viewports

from .conftest import PIN, create_event, post, sheet_form

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path, serve):
    """A BALL round robin (round 1 paired), a Xiangqi one, a Mahjong event seated and a
    BALL knockout of two-game ties (round 1 drawn)."""
    db = str(tmp_path / "faults.sqlite")
    seed = TestClient(create_app(db))
    events = {}
    for game, names in (("ball", "Ann Bo Cy Di"), ("xiangqi", "Wang Li Zhao Qian")):
        event_id = create_event(seed, name=f"{game} Open", game=game)
        for name in names.split():
            assert post(seed, event_id, "/entrants", {"name": name}).status_code == 303
        assert post(seed, event_id, "/rounds").status_code == 303
        events[game] = event_id
    event_id = create_event(seed, name="MJ Open", game="mahjong", rounds="2", hands="4")
    for i in range(4):
        assert post(seed, event_id, "/entrants", {"name": f"Player {i + 1}"}).status_code == 303
    assert post(seed, event_id, "/sessions", {"method": "random"}).status_code == 303
    events["mahjong"] = event_id
    event_id = create_event(seed, "BALL KO", "knockout", games_per_tie="2", extra_games="0")
    for name in ("Ann", "Bo"):
        assert post(seed, event_id, "/entrants", {"name": name}).status_code == 303
    cards = {"how": "cards", "name_1": "Ann", "card_1": "1R", "name_2": "Bo", "card_2": "1B"}
    assert post(seed, event_id, "/draw", cards).status_code == 303
    events["knockout"] = event_id
    return serve(create_app(db)), events


def login(tab, base: str, event_id: int) -> None:
    tab.goto(f"{base}/desk/{event_id}/login")
    tab.fill("input[name=pin]", PIN)
    tab.click("button[type=submit]")
    tab.wait_for_url(f"**/desk/{event_id}")


def described(tab, selector: str) -> str:
    """The text that describes the field (its aria-describedby), which must be marked."""
    field = tab.locator(selector).first
    assert field.get_attribute("aria-invalid") == "true", selector
    return tab.locator(f"#{field.get_attribute('aria-describedby')}").inner_text()


def submit(tab, selector: str, status: int) -> None:
    def sent(response) -> bool:  # the form's own POST, not the live check's
        return response.request.method == "POST" and not response.url.endswith("/check")

    with tab.expect_response(sent) as answer:
        tab.click(selector)
    assert answer.value.status == status
    tab.wait_for_load_state()


def test_the_ball_sheet_keeps_what_was_typed_and_names_the_field(page, site, axe):  # noqa: F811
    base, events = site
    event_id = events["ball"]
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/rounds/1/tables/1")
    form = sheet_form(td1="A", pb=(3, 0, 4, 2)) | {"h1_B_def": "5"}  # dual entry broken
    page.check("input[name=h1_td][value=A]")
    for name, value in form.items():
        if name.endswith(("_atk", "_def")):
            page.fill(f"input[name={name}]", str(value))
    submit(page, "#save", 400)
    text = described(page, "input[name=h1_A_atk]")
    assert text.startswith("Half 1: the PBATK of Ann (3) must equal the PBDEF of")
    assert page.locator("#save-error").inner_text() == text  # and at the top, in words
    assert page.input_value("input[name=h1_B_def]") == "5"  # everything typed is kept
    assert page.locator("input[name=h1_td][value=A]").is_checked()
    assert "dual-entry mismatch:" not in page.content()  # no developer's message
    assert axe(page) == []
    shoot(page, "desk-field-error-ball")
    # As the arbiter types, the live check moves the mark to what is wrong now.
    page.fill("input[name=h1_B_def]", "3")
    page.wait_for_selector("#decision.ok")
    assert page.locator("[aria-invalid=true]").count() == 0


def test_a_stale_form_says_so_at_the_top_of_the_same_form(page, site):  # noqa: F811
    base, events = site
    event_id = events["ball"]
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/rounds/1/tables/2")
    page.evaluate("document.querySelector('input[name=version]').value = '7'")
    page.check("input[name=h1_td][value=B]")
    for name, value in sheet_form(pb=(2, 3, 2, 3)).items():
        if name.endswith(("_atk", "_def")):
            page.fill(f"input[name={name}]", str(value))
    submit(page, "#save", 409)
    assert "Another arbiter saved this table" in page.locator("#save-error").inner_text()
    assert page.locator("#result-form").count() == 1  # the same form, not a "Not done" page
    assert page.locator("input[name=h1_td][value=B]").is_checked()


def test_the_xiangqi_result_names_the_foul_count(page, site, axe):  # noqa: F811
    base, events = site
    event_id = events["xiangqi"]
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/rounds/1/tables/1")
    page.check("input[name=xq_result][value='1-0']")
    page.select_option("select[name=xq_reason]", "checkmate")
    page.fill("input[name=xq_fouls_A]", "3")
    submit(page, "#save", 400)
    assert "cannot win or draw (4.1.8)" in described(page, "input[name=xq_fouls_A]")
    assert page.input_value("input[name=xq_fouls_A]") == "3"
    assert page.input_value("select[name=xq_reason]") == "checkmate"
    assert axe(page) == []
    shoot(page, "desk-field-error-xiangqi")


def test_the_mahjong_hand_counts_from_one_in_words(page, site, axe):  # noqa: F811
    base, events = site
    event_id = events["mahjong"]
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/sessions/1/tables/1")
    page.check("#hand-form input[name=outcome][value=self_drawn]")
    page.select_option("#hand-form select[name=winner]", "S")
    page.fill("#hand-form input[name=fan]", "6")
    submit(page, "#save-hand", 400)
    assert described(page, "#hand-form input[name=fan]") == (
        "Hand 1: 6 fan is under the 8-fan minimum."
    )
    assert "hands[0]" not in page.content()
    assert page.input_value("#hand-form input[name=fan]") == "6"
    assert page.input_value("#hand-form select[name=winner]") == "S"
    assert axe(page) == []
    shoot(page, "desk-field-error-mahjong")


def test_a_refused_new_event_keeps_its_fields(page, site, axe):  # noqa: F811
    base, _events = site
    page.goto(f"{base}/desk")
    page.fill("#create-event input[name=name]", "Spring Cup")
    page.fill("#create-event input[name=place]", "Sofia")
    page.fill("#create-event input[name=pin]", PIN)
    page.fill("#create-event input[name=pin2]", PIN + "9")
    submit(page, "#create-event button[type=submit]", 400)
    assert described(page, "#create-event input[name=pin2]") == "The two PINs differ."
    assert page.input_value("#create-event input[name=name]") == "Spring Cup"
    assert page.input_value("#create-event input[name=place]") == "Sofia"
    assert page.locator("#desk-error").inner_text() == "The two PINs differ."
    assert axe(page) == []
    shoot(page, "desk-field-error-new-event")


def test_a_refused_sanction_stays_on_the_sanctions_page(page, site, axe):  # noqa: F811
    base, events = site
    event_id = events["ball"]
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/sanctions")
    row = page.locator("table.sanctions tbody tr").first
    row_id = row.get_attribute("id")
    row.locator("input[name=round]").fill("")
    row.locator("input[name=table]").fill("2")
    row.locator("input[name=reason]").fill("phone rang")
    submit(page, f"#{row_id} button[type=submit]", 400)
    row = page.locator(f"#{row_id}")
    assert described(page, f"#{row_id} input[name=round]") == "A table needs its round."
    assert row.locator("input[name=reason]").input_value() == "phone rang"
    assert row.locator("input[name=table]").input_value() == "2"
    assert page.locator("[aria-invalid=true]").count() == 1  # only the refused entrant's form
    assert axe(page) == []
    shoot(page, "desk-field-error-sanction")


def test_a_refused_tie_game_stays_on_the_tie_page(page, site, axe):  # noqa: F811
    base, events = site
    event_id = events["knockout"]
    login(page, base, event_id)
    page.goto(f"{base}/desk/{event_id}/rounds/1/ties/1")
    page.select_option("#game-form select[name=h1_td]", "A")
    for name, value in sheet_form(pb=(3, 2, 2, 3)).items():
        if name.endswith(("_atk", "_def")) and name != "h1_A_def":
            page.fill(f"#game-form input[name={name}]", str(value))
    submit(page, "#game-form button[type=submit]", 400)
    assert described(page, "#game-form input[name=h1_A_def]") == "Half 1: enter the PBDEF of Ann."
    assert page.input_value("#game-form select[name=h1_td]") == "A"
    assert page.input_value("#game-form input[name=h2_B_atk]") == "2"
    assert "PBDEF of Ann is empty" not in page.content()  # no developer's message
    # the header names the tie's state in the rules' words, and the page fits the screen
    assert page.inner_text("#tie-phase") == "mini-match in play"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert axe(page) == []
    shoot(page, "desk-field-error-tie")
