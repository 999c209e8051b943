"""Learn mode (`/learn`, issue 13): short lessons built from the rulebook's diagrams.

Owns the lesson files (`lessons/NN-name.toml`: diagram, learner's side, goal, text key,
rulebook section) and their texts (message ids below, translated via the catalogue), the
page and `POST /api/learn/{lesson}/check`, which replays the learner's actions with the
engine (`ball.match.lesson_goals`) so a goal is never judged by the browser.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ball.match import lesson_goals
from ball.web import rulebook
from ball.web.i18n import gettext_for
from ball.web.templating import N_, render, request_language

LESSONS = Path(__file__).with_name("lessons")
MAX_ACTIONS = 40  # a lesson is a turn or two; more is not a lesson being played

# text key -> (title, task, hint); message ids, translated where shown.
TEXTS: dict[str, tuple[str, str, str]] = {
    "move": (
        N_("Moving"),
        N_("Move the X piece on F6 to D4."),
        N_("An X moves in a straight line; tap the piece, then the lit square."),
    ),
    "handoff": (
        N_("Hand-off"),
        N_("Give the ball to your O on H8."),
        N_("A hand-off passes the ball to a neighbouring piece of your side."),
    ),
    "dodge": (
        N_("A dodge that knocks down"),
        N_("Knock down the O on F8 with a dodge."),
        N_("Move the X on D10 onto F8, then choose where the knocked-down piece lands."),
    ),
    "block": (
        N_("Blocking the carrier"),
        N_("Take the ball by landing on the ball carrier."),
        N_("Land your X on the square of the ball carrier to stack on it."),
    ),
    "release": (
        N_("The release phase"),
        N_("Undo the stack on G9 in the release phase."),
        N_("Split the stack: choose where each piece goes."),
    ),
    "touchdown": (
        N_("Scoring a touchdown"),
        N_("Score a touchdown within 1 turn."),
        N_("Carry the ball into the end zone: the ball carrier moves like any piece."),
    ),
    "steal": (
        N_("Stealing the ball with a dodge"),
        N_("Steal the ball with a dodge."),
        N_("Dodge onto the ball carrier's square: it fumbles and your piece takes the ball."),
    ),
}

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/learn", tags=["learn"])


@dataclass(frozen=True)
class Lesson:
    id: str
    position: dict[str, Any]
    side: str
    goal: dict[str, Any]
    text: str
    section: str
    anchor: str


def _lesson(path: Path) -> Lesson:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    diagram = rulebook.diagrams()[data["diagram"]]
    position = diagram["position"]
    goal = dict(data["goal"])
    lesson_goals.validate(goal)
    if data.get("opponent", "passive") != "passive":
        raise ValueError(f"{path.name}: opponent must be 'passive'")
    if data["text"] not in TEXTS:
        raise ValueError(f"{path.name}: unknown text key {data['text']!r}")
    if rulebook.section("en", data["section"]) is None:
        raise ValueError(f"{path.name}: no rulebook section {data['section']!r}")
    return Lesson(
        id=path.stem[3:],
        position=position,
        side=data.get("side", position["to_move"]),
        goal=goal,
        text=data["text"],
        section=data["section"],
        anchor=data.get("anchor", ""),
    )


@cache
def lessons() -> tuple[Lesson, ...]:
    return tuple(_lesson(p) for p in sorted(LESSONS.glob("[0-9][0-9]-*.toml")))


def lesson(lesson_id: str) -> Lesson | None:
    return next((item for item in lessons() if item.id == lesson_id), None)


def _view(item: Lesson, lang: str) -> dict[str, Any]:
    gettext = gettext_for(lang)
    title, task, hint = (gettext(m) for m in TEXTS[item.text])
    anchor = f"#{item.anchor}" if item.anchor else ""
    return {
        "id": item.id,
        "title": title,
        "task": task,
        "hint": hint,
        "position": item.position,
        "side": item.side,
        "rulebook": f"/rulebook/{item.section}{anchor}",
        "rulebook_title": getattr(rulebook.section(lang, item.section), "title", ""),
    }


@router.get("/learn", response_class=HTMLResponse)
def learn_page(request: Request):
    lang = request_language(request)
    return render(request, "learn.html", {"lessons": [_view(x, lang) for x in lessons()]})


class Attempt(BaseModel):
    actions: list[str] = Field(
        ..., max_length=MAX_ACTIONS, description="The actions played from the lesson's start"
    )


@api.post("/{lesson_id}/check")
def check(lesson_id: str, attempt: Attempt) -> dict[str, Any]:
    """Whether the lesson's goal is met by these actions (replayed by the engine)."""
    item = lesson(lesson_id)
    if item is None:
        raise HTTPException(404, f"no lesson {lesson_id[:40]!r}")
    if any(len(a) > 80 for a in attempt.actions):
        raise HTTPException(422, "actions: each action is at most 80 characters")
    verdict = lesson_goals.check(item.position, item.side, item.goal, attempt.actions)
    return {"met": verdict.met, "failed": verdict.failed, "played": verdict.played}


router.include_router(api)
