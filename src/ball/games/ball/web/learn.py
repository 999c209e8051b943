"""Learn mode (`/learn`, issue 13): short lessons built from the rulebook's diagrams.

Owns the lesson files (`lessons/NN-name.toml`: diagram, learner's side, goal, text key,
rulebook section) and their texts (message ids below, translated via the catalogue), the
page and `POST /api/learn/{lesson}/check`, which replays the learner's actions with the
engine (`ball.games.ball.match.lesson_goals`) so a goal is never judged by the browser.

Multi-turn lessons name an `opponent` (a script per turn and/or a computer agent with a
fixed seed, built here because `ball.games.ball.ai` sits above `ball.games.ball.match`) and a
`solution` replayed at load; `check` also answers the opponent's reply when it is to act. `POST
/api/learn/{lesson}/game` stores the lesson's game as a learn game (`WebGame.lesson`):
outside the game cap and the free-play list, the oldest pruned beyond `MAX_LESSON_GAMES`.
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

from ball.games.ball.engine import Game, IllegalAction
from ball.games.ball.match import lesson_goals
from ball.games.ball.web import learn_games, rulebook
from ball.web.core.language import gettext_for
from ball.web.core.templating import N_, render, request_language

LESSONS = Path(__file__).parents[1] / "lessons"
MAX_ACTIONS = 60  # a lesson is a few turns (with the replies); more is not a lesson
MAX_LESSON_GAMES = 1000  # stored learn games kept; the oldest go first (they are throwaway)
AGENTS = ("greedy",)  # a lesson's computer opponent: fast and deterministic with a seed

# text key -> (title, task, hint, miss); message ids, translated where shown. `miss` is the
# one line said with "Not quite" when an attempt fails (the goal's `actions` or turns are
# used up without it), before the lesson's position is restored for another try.
TEXTS: dict[str, tuple[str, str, str, str]] = {
    "pieces": (
        N_("The pieces and the goal"),
        N_(
            "You play South (red) and attack towards row 17. Move your ball carrier, the X5 "
            "on G7 holding the ball, forward to I9."
        ),
        N_(
            "Each side has X, O and Q pieces; an X moves diagonally. The side whose ball "
            "carrier reaches the far row, the end zone, scores a touchdown."
        ),
        N_("Only the ball carrier on G7 counts here: one diagonal move of two squares to I9."),
    ),
    "move": (
        N_("Moving"),
        N_("Move the X piece on F6 to D4."),
        N_("An X moves diagonally, one or two squares; tap the piece, then the lit square."),
        N_("The X on F6 reaches D4 in one move: two squares diagonally, down and to the left."),
    ),
    "handoff": (
        N_("Hand-off"),
        N_("Give the ball to your O on H8."),
        N_(
            "A hand-off passes the ball to a neighbouring piece of your side: tap your ball "
            "carrier on G7, then the O on H8."
        ),
        N_("The ball must end on the O on H8: tap the ball carrier on G7 first, then H8."),
    ),
    "dodge": (
        N_("A dodge that knocks down"),
        N_("Knock down the O on F8 with a dodge."),
        N_("Move the X on D10 onto F8, then choose the square your X steps out to."),
        N_("Only a dodge onto F8 knocks the O down: move the X on D10 onto F8 itself."),
    ),
    "block": (
        N_("Blocking the carrier"),
        N_("Take the ball by landing on the ball carrier."),
        N_("Land your X on the square of the ball carrier to stack on it."),
        N_("The ball stays with its carrier unless your piece lands on the carrier's square."),
    ),
    "release": (
        N_("The release phase"),
        N_("Undo the stack on G9 in the release phase."),
        N_("Split the stack: choose where each piece goes."),
        N_("The stack on G9 is still there: split it, choosing a square for each piece."),
    ),
    "touchdown": (
        N_("Scoring a touchdown"),
        N_("Score a touchdown within 1 turn."),
        N_("Carry the ball into the end zone: the ball carrier moves like any piece."),
        N_("The turn ended before the ball carrier reached the end zone, row 17."),
    ),
    "steal": (
        N_("Stealing the ball with a dodge"),
        N_("Steal the ball with a dodge."),
        N_("Dodge onto the ball carrier's square: it fumbles and your piece takes the ball."),
        N_("The ball changes hands only by a dodge onto the ball carrier's own square."),
    ),
    "score3": (
        N_("Scoring against a defence"),
        N_("Score a touchdown within 3 turns. The computer plays North between your turns."),
        N_(
            "Go round the defence on a wing: a tactical dodge jumps a piece, and a knocked-down "
            "piece of yours can stand up in the release phase."
        ),
        N_("The 3 turns are over without a touchdown: try going round the defence on a wing."),
    ),
    "keep": (
        N_("Keeping the ball"),
        N_("Keep the ball for 2 turns while North attacks your ball carrier."),
        N_(
            "North knocks down the carrier's guards. Stack a piece on your carrier to protect "
            "it, and stand your pieces up in the release phase."
        ),
        N_("North took the ball: stack one of your pieces on the carrier to protect it."),
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
    opponent: lesson_goals.Opponent | None = None  # None: passive (one-turn lessons)


def _agent(name: str, seed: int) -> lesson_goals.Opponent:
    """The opponent's whole turn as agent `name` with a fixed `seed` plays it: the same
    position always gets the same reply, so a check replays what the page was shown."""
    from ball.games.ball.ai import agent
    from ball.games.ball.engine.actions import to_text

    def play(game: Game, turn: int) -> list[str]:
        player, side, out = agent(name, seed=seed), game.actor, []
        for _ in range(64):  # a turn is a handful of actions; this bounds a bad loop
            if game.is_over or game.actor != side or not game.legal_tuples():
                break
            action = to_text(player(game.state))
            game.apply(action)
            out.append(action)
        return out

    return play


def _opponent(spec: Any) -> tuple[lesson_goals.Opponent | None, list[list[str]]]:
    """The opponent of a lesson file and its script (ValueError naming a bad key)."""
    if spec == "passive":
        return None, []
    if not isinstance(spec, dict) or not set(spec) <= {"script", "agent", "fallback", "seed"}:
        raise ValueError("opponent: 'passive' or a table of script, agent, fallback, seed")
    seed = spec.get("seed", 0)
    name = spec.get("agent") or spec.get("fallback")
    if name is not None and name not in AGENTS or not isinstance(seed, int):
        raise ValueError(f"opponent: agent one of {', '.join(AGENTS)} and a whole seed")
    computer = _agent(name, seed) if name else None
    if "script" not in spec:
        if computer is None:
            raise ValueError("opponent: give a script or an agent")
        return computer, []
    script = spec["script"]
    if not isinstance(script, list) or not all(
        isinstance(turn, list) and all(isinstance(a, str) for a in turn) for turn in script
    ):
        raise ValueError("opponent.script: a list of turns, each a list of actions")
    return lesson_goals.scripted(script, computer), script


def _lesson(path: Path) -> Lesson:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    diagram = rulebook.diagrams()[data["diagram"]]
    position = diagram["position"]
    goal = dict(data["goal"])
    side = data.get("side", position["to_move"])
    try:
        opponent, script = _opponent(data.get("opponent", "passive"))
        lesson_goals.validate(goal)
        if "solution" in data or opponent is not None:
            lesson_goals.check_solution(
                position, side, goal, data.get("solution", []), opponent, script
            )
    except ValueError as exc:  # GoalError too: say which lesson file is wrong
        raise ValueError(f"lesson {path.stem}: {exc}") from None
    if data["text"] not in TEXTS:
        raise ValueError(f"{path.name}: unknown text key {data['text']!r}")
    if rulebook.section("en", data["section"]) is None:
        raise ValueError(f"{path.name}: no rulebook section {data['section']!r}")
    return Lesson(
        id=path.stem[3:],
        position=position,
        side=side,
        goal=goal,
        text=data["text"],
        section=data["section"],
        anchor=data.get("anchor", ""),
        opponent=opponent,
    )


@cache
def lessons() -> tuple[Lesson, ...]:
    return tuple(_lesson(p) for p in sorted(LESSONS.glob("[0-9][0-9]-*.toml")))


def lesson(lesson_id: str) -> Lesson | None:
    return next((item for item in lessons() if item.id == lesson_id), None)


def _view(item: Lesson, lang: str) -> dict[str, Any]:
    gettext = gettext_for(lang)
    title, task, hint, miss = (gettext(m) for m in TEXTS[item.text])
    anchor = f"#{item.anchor}" if item.anchor else ""
    return {
        "id": item.id,
        "title": title,
        "task": task,
        "hint": hint,
        "miss": miss,
        "position": item.position,
        "side": item.side,
        "rulebook": f"/rulebook/{item.section}{anchor}",
        "rulebook_title": getattr(rulebook.section(lang, item.section), "title", ""),
        "turns": int(item.goal.get("turns", 1)),
        "opponent": item.opponent is not None,
    }


@router.get("/learn", response_class=HTMLResponse)
def learn_page(request: Request):
    lang = request_language(request)
    return render(request, "ball/learn.html", {"lessons": [_view(x, lang) for x in lessons()]})


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
    args = (item.position, item.side, item.goal, attempt.actions)
    try:
        verdict = lesson_goals.check(*args, item.opponent)
        reply = lesson_goals.reply(*args, item.opponent) if item.opponent else []
    except IllegalAction as exc:  # a script or agent line the engine refuses: never a 500
        raise HTTPException(422, f"actions: {exc}") from None
    return {"met": verdict.met, "failed": verdict.failed, "played": verdict.played, "reply": reply}


@api.post("/{lesson_id}/game", status_code=201)
def new_game(lesson_id: str, request: Request) -> dict[str, Any]:
    """A stored game at the lesson's start, kept apart from free play (`learn_games`)."""
    item = lesson(lesson_id)
    if item is None:
        raise HTTPException(404, f"no lesson {lesson_id[:40]!r}")
    sessions = request.app.state.sessions
    learn_games.prune(sessions, MAX_LESSON_GAMES - 1)
    return {"id": learn_games.create(sessions, item.position, item.id)}


router.include_router(api)
