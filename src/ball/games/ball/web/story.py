"""What the simulator tells its player (issue 13): each logged action in plain language, and
the announcement the last action calls for (touchdown, steal, half-time, match result).

The facts come from below: the narration from `ball.games.ball.match.narrate`, the match result from
`ball.games.ball.match.result.decide` on a score sheet built here from the two halves' games. This
module only renders them in the reader's language; the page shows what it gets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ball.games.ball.engine import Game
from ball.games.ball.match import why_not
from ball.games.ball.match.narrate import Line, render
from ball.games.ball.match.result import decide
from ball.i18n import N_

Gettext = Callable[[str], str]
_SIDE_WORDS = {"S": N_("South"), "N": N_("North")}
# The two coaches of a simulator match: A plays South (ATK first) in half 1, North in half 2.
COACHES = ("A", "B")
_REASONS = {
    "touchdowns": N_("more touchdowns"),
    "attack-efficiency": N_("attack efficiency: fewer PB as attacker in the scoring half"),
    "defensive-superiority": N_("defensive superiority: a better PB difference (SD)"),
    "draw": N_("equal on touchdowns, attack efficiency and SD"),
    "forfeit": N_("forfeit"),
}


def human_side(state: dict[str, Any]) -> str | None:
    """The side the person at the screen plays (against the computer), else None."""
    return {"S": "N", "N": "S"}.get(state.get("computer_side") or "")


def with_texts(state: dict[str, Any], gettext: Gettext) -> dict[str, Any]:
    """The state with each log entry's `text` and the `announce` its last action calls for.
    Log entries are cached read-only views, so they are copied, not changed."""
    viewer = human_side(state)
    log = [{**e, "text": _text(e, gettext, viewer)} for e in state["log"]]
    why = why_not.render_reasons(state.get("why") or {}, gettext, viewer)
    return {**state, "log": log, "announce": announcement(state, gettext), "why": why}


def _text(entry: dict[str, Any], gettext: Gettext, viewer: str | None) -> str:
    line = Line(tuple((msgid, args) for msgid, args in entry.get("narration", ())))
    return render(line, gettext, viewer) if line.parts else entry["action"]


def _side_name(side: str, gettext: Gettext, state: dict[str, Any]) -> str:
    word = gettext(_SIDE_WORDS[side])
    if side == state.get("computer_side"):
        return gettext("{side} (the computer)").format(side=word)
    if side == human_side(state):
        return gettext("{side} (you)").format(side=word)
    return word


def announcement(state: dict[str, Any], gettext: Gettext) -> dict[str, Any] | None:
    """What the last action calls for: a touchdown (then the half's end), or a steal."""
    if not state["log"]:
        return None
    last = state["log"][-1]
    if "touchdown" in last["events"]:
        side = last["side"]
        half = last["half"]
        out = {
            "kind": "touchdown",
            "side": side,
            "half": half,
            "title": gettext("Touchdown!"),
            "text": gettext("{side} scores and ends half {half}.").format(
                side=_side_name(side, gettext, state), half=half
            ),
        }
        if half == 1:
            out["half_time"] = half_time(state, gettext)
        return out
    timer = state.get("half_timer")
    if timer and timer.get("over"):
        return time_up(state, gettext)
    if "steal" in last["events"] and state["position"].get("phase") == "steal":
        stealer = state["actor"]
        return {
            "kind": "steal",
            "side": stealer,
            "title": gettext("Steal!"),
            "text": gettext(
                "{side} steals the ball: ATK and DEF swap. The stealer now chooses: "
                "continue (play on from here, the stealer attacks) or reset (back to the "
                "standard formation, +2 PB)."
            ).format(side=_side_name(stealer, gettext, state)),
        }
    return computer_steal(state, gettext)


def time_up(state: dict[str, Any], gettext: Gettext) -> dict[str, Any]:
    """A half ended on the half timer (D-20), its Final Drive played: told like a
    touchdown's end, with the half-time screen after half 1."""
    half = state["position"]["half"]
    out: dict[str, Any] = {
        "kind": "time",
        "half": half,
        "title": gettext("Time!"),
        "text": gettext(
            "The half timer ran out and the Final Drive has been played: half {half} ends "
            "without a touchdown."
        ).format(half=half),
    }
    if half == 1:
        out["half_time"] = half_time(state, gettext)
    return out


def computer_steal(state: dict[str, Any], gettext: Gettext) -> dict[str, Any] | None:
    """The computer's steal since the player last acted, told with the choice it made at
    once (continue or reset, §10 R-steal): otherwise the roles would swap, or the pieces go
    back to the formation, without a word."""
    computer = state.get("computer_side")
    log = state["log"]
    steal = next((i for i in range(len(log) - 1, -1, -1) if "steal" in log[i]["events"]), None)
    if not computer or steal is None or steal + 1 >= len(log):
        return None
    decision = log[steal + 1]
    # the steal may come from the player's own action (a fumble the computer picks up); what
    # follows it must all be the computer's, or the player has had the board since
    if decision["action"] not in ("continue", "reset"):
        return None
    if any(e["side"] != computer for e in log[steal + 1 :]):
        return None
    name = _side_name(computer, gettext, state)
    if decision["action"] == "continue":
        text = gettext(
            "{side} steals the ball and chooses to continue: it keeps the ball where it is "
            "and attacks from here, so ATK and DEF swap (+1 PB). The other choice, reset, "
            "would have sent both sides back to the standard formation."
        )
    else:
        text = gettext(
            "{side} steals the ball and chooses to reset: both sides go back to the standard "
            "formation, the ball goes back to the attacker and the roles stay as they were "
            "(+2 PB). The other choice, continue, would have kept the ball and made it ATK."
        )
    return {
        "kind": "steal",
        "side": computer,
        "choice": decision["action"],
        "title": gettext("Steal!"),
        "text": text.format(side=name),
    }


def half_time(state: dict[str, Any], gettext: Gettext) -> dict[str, str]:
    """The half-time screen: roles switch, each coach plays the other end in half 2."""
    computer = state.get("computer_side")
    if computer:
        now = {"S": "N", "N": "S"}[computer]
        ends = gettext(
            "You now play {you}, the computer plays {computer}. {atk} attacks first."
        ).format(
            you=gettext(_SIDE_WORDS[computer]),
            computer=gettext(_SIDE_WORDS[now]),
            atk=gettext(_SIDE_WORDS["S"]),
        )
    else:
        ends = gettext("The coach who played South now plays North, and the other way round.")
    return {
        "title": gettext("Half-time"),
        "text": gettext("The roles switch: who defended first now attacks first.") + " " + ends,
    }


def sheet(first: Game, second: Game) -> dict[str, Any]:
    """The score sheet of a simulator match from its two halves (spec 13): coach A plays
    South in half 1 and North in half 2; South is ATK first in every half (`Game.new`)."""
    halves = []
    for game, side_of in ((first, {"S": "A", "N": "B"}), (second, {"S": "B", "N": "A"})):
        scorer = next((side for side, td in game.score.items() if td), None)
        halves.append(
            {
                "atk_first": side_of["S"],
                "td": side_of[scorer] if scorer else None,
                "pb": {side_of[side]: dict(pb) for side, pb in game.pb.items()},
                "end": "touchdown" if scorer else "time",
            }
        )
    return {"coaches": list(COACHES), "halves": halves}


def result(first: Game, second: Game, computer_side_h1: str | None, gettext: Gettext):
    """The decided match (`decide`) with its reason told in words."""
    doc = sheet(first, second)
    decision = decide(doc)
    names = {"A": gettext("Coach A"), "B": gettext("Coach B")}
    touchdowns = gettext("Touchdowns {a}–{b}.").format(a=decision.td["A"], b=decision.td["B"])
    if computer_side_h1:  # coach A played South in half 1
        computer = "A" if computer_side_h1 == "S" else "B"
        you = "B" if computer == "A" else "A"
        names = {computer: gettext("The computer"), you: gettext("You")}
        # "0–2" alone does not say whose the 2 is
        touchdowns = gettext("Touchdowns: you {you}, the computer {computer}.").format(
            you=decision.td[you], computer=decision.td[computer]
        )
    if decision.winner is None:
        title = gettext("Draw")
    else:
        title = gettext("{winner} won").format(winner=names[decision.winner])
    reason = gettext(_REASONS[decision.reason.value])
    return {
        "kind": "result",
        "sheet": doc,
        "decision": decision.as_dict(),
        "winner_name": names.get(decision.winner or ""),
        "title": title,
        "text": gettext("Reason: {reason}.").format(reason=reason) + " " + touchdowns,
    }
