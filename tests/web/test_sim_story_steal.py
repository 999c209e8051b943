"""The computer's steal is announced with the choice it made (issue 13, spec §10 R-steal).

The computer answers its own steal at once (continue or reset), so the page never sees a
pending steal decision of the computer's: without this announcement the roles swap (or the
pieces go back to the formation) in silence. Scenario tests on `sim_story.announcement` (the
log as the server stores it), then the real case: the match the full-match browser test plays
(tests/web/test_browser_full_match.py), where the greedy computer steals in half 1."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ball.games.ball.web.story import announcement


def entry(side: str, action: str, *events: str) -> dict:
    return {"side": side, "action": action, "events": list(events), "half": 1}


def state(log: list[dict], computer: str | None = "N", phase: str = "action") -> dict:
    actor = "S" if computer == "N" else "N"
    return {"log": log, "computer_side": computer, "actor": actor, "position": {"phase": phase}}


def say(msgid: str) -> str:
    return msgid


PLAYER_TURN = [entry("S", "D8-B10"), entry("S", "B10-A11", "turn")]
STEAL = entry("N", "G9-G7/H8", "knockdown", "steal")


def test_the_computer_s_continue_is_told_with_the_other_choice():
    log = [*PLAYER_TURN, STEAL, entry("N", "continue", "pb", "continue"), entry("N", "I9-I7")]
    ann = announcement(state(log), say)
    assert ann is not None and ann["kind"] == "steal" and ann["choice"] == "continue"
    assert ann["side"] == "N" and ann["title"] == "Steal!"
    text = ann["text"]
    assert text.startswith("North (the computer) steals the ball and chooses to continue")
    assert "ATK and DEF swap" in text and "reset" in text  # the other choice, explained


def test_the_computer_s_reset_is_told_and_the_roles_stay():
    log = [*PLAYER_TURN, STEAL, entry("N", "reset", "pb", "reset", "turn")]
    ann = announcement(state(log), say)
    assert ann is not None and ann["choice"] == "reset"
    assert "chooses to reset" in ann["text"] and "standard formation" in ann["text"]
    assert "roles stay" in ann["text"] and "continue" in ann["text"]
    assert "ATK and DEF swap" not in ann["text"]  # a reset keeps the roles (§10)


def test_a_steal_from_the_player_s_own_action_is_told_too():
    # the player's carrier loses the ball and the computer takes it: the steal event is on
    # the player's entry, the choice on the computer's
    log = [entry("S", "E9-D10", "steal"), entry("N", "continue", "pb", "continue")]
    ann = announcement(state(log), say)
    assert ann is not None and ann["side"] == "N" and ann["choice"] == "continue"


def test_no_steal_notice_once_the_player_has_played_again():
    log = [STEAL, entry("N", "continue", "pb", "continue"), entry("N", "I9-I7", "turn")]
    assert announcement(state([*log, entry("S", "A11-B10")]), say) is None
    assert announcement(state(log), say) is not None


def test_the_player_s_own_steal_and_other_games_are_not_told_as_the_computer_s():
    mine = [entry("S", "G9-G7/H8", "steal"), entry("S", "reset", "reset", "turn")]
    assert announcement(state(mine), say) is None  # the player chose it on the page
    theirs = [STEAL, entry("N", "continue", "continue")]
    assert announcement(state(theirs, computer=None), say) is None  # hot seat: no computer
    assert announcement(state([STEAL], phase="action"), say) is None  # no choice logged


def test_the_pending_steal_is_still_the_deciders_choice():
    ann = announcement(state([entry("S", "E9-D10", "steal")], computer="S", phase="steal"), say)
    assert ann is not None and "choice" not in ann and "The stealer now chooses" in ann["text"]


def test_the_greedy_computer_s_steal_in_a_real_match(client: TestClient):
    """The match of the browser test, by the API: the player takes the first legal action."""
    body = {"mode": "computer", "computer_side": "N", "computer_level": "greedy"}
    s = client.post("/api/games", json=body).json()
    announced = []
    for _ in range(40):
        if s["over"]:
            break
        s = client.post(f"/api/games/{s['id']}/actions", json={"action": s["legal"][0]}).json()
        if s["announce"] and s["announce"]["kind"] == "steal":
            announced.append(s["announce"])
            # the page shows the notice until the player's next action
            again = client.get(f"/api/games/{s['id']}").json()
            assert again["announce"] == s["announce"]
    stolen = [e for e in s["log"] if "steal" in e["events"]]
    assert stolen and all(e["side"] == "N" for e in stolen)  # seeded: the same match each run
    assert len(announced) == len(stolen)
    assert [a["choice"] for a in announced] == [
        s["log"][s["log"].index(e) + 1]["action"] for e in stolen
    ]
    assert all("North (the computer) steals the ball" in a["text"] for a in announced)


def test_the_result_says_whose_touchdowns_are_whose():
    """ "Touchdowns 1–0" beside "The computer won" does not say which is the computer's."""
    from ball.games.ball.engine import Game
    from ball.games.ball.web.rulebook import diagrams
    from ball.games.ball.web.story import result

    touchdown = diagrams()["touchdown"]["position"]
    first = Game.from_json(touchdown)
    first.apply("G15-I17")  # South scores half 1: coach A, the computer's side below
    second = Game.from_json({**touchdown, "half": 2})  # no touchdown in half 2
    res = result(first, second, "S", say)
    assert res["decision"]["winner"] == "A" and res["title"] == "The computer won"
    assert res["text"].endswith("Touchdowns: you 0, the computer 1.")
    assert result(first, second, "N", say)["text"].endswith("you 1, the computer 0.")
    assert result(first, second, None, say)["text"].endswith("Touchdowns 1–0.")  # hot seat
