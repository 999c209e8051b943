"""How a Xiangqi game ends (seed §4): the `Ending` record and the administrative endings.

Endings read from the board (checkmate, no legal move, the natural-move limit) come from
`Game.outcome`; the ones a person declares (agreement, resignation, loss on time, a loss
declared by the arbiter) are made here, each naming the seed article it rests on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .board import Color
from .errors import XiangqiError


class EndReason(StrEnum):
    CHECKMATE = "checkmate"
    NO_LEGAL_MOVE = "no-legal-move"
    NATURAL_MOVE_LIMIT = "natural-move-limit"
    AGREEMENT = "agreement"
    RESIGNATION = "resignation"
    TIME = "time"
    ARBITER = "arbiter"
    REPETITION = "repetition"


RED_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"

# Seed articles under which the arbiter declares a game lost (4.1.9, resignation, is the
# player's own declaration and 4.1.4 is loss on time: both have their own functions). The
# engine refuses a 4.1.2 move outright; the article is here for games played over the board.
ARBITER_ARTICLES: dict[str, str] = {
    "4.1.2": "moved leaving the own king to be taken or facing the other king (over the board)",
    "4.1.5": "arrived later than the event's default time",
    "4.1.6": "broke the rules of play",
    "4.1.7": "broke a prohibition (forbidden repetition) and did not change",
    "4.1.8": "committed a third foul in the same game",
    "4.1.10": "refused to follow the rules or committed a serious breach of discipline",
}


@dataclass(frozen=True, slots=True)
class Ending:
    result: str  # "1-0" (Red wins), "0-1" (Black wins) or "1/2-1/2"
    reason: EndReason
    article: str  # the seed article the ending rests on
    detail: str = ""

    @property
    def winner(self) -> Color | None:
        return {RED_WINS: Color.RED, BLACK_WINS: Color.BLACK}.get(self.result)


def loss(loser: Color, reason: EndReason, article: str, detail: str = "") -> Ending:
    """The game lost by `loser`."""
    return Ending(BLACK_WINS if loser is Color.RED else RED_WINS, reason, article, detail)


def draw(reason: EndReason, article: str, detail: str = "") -> Ending:
    return Ending(DRAW, reason, article, detail)


def agreement() -> Ending:
    """One side offers a draw and the other accepts (seed 4.2.2)."""
    return draw(EndReason.AGREEMENT, "4.2.2")


def resignation(loser: Color) -> Ending:
    """`loser` declares the game lost (seed 4.1.9)."""
    return loss(loser, EndReason.RESIGNATION, "4.1.9", f"{loser} resigned")


def loss_on_time(loser: Color) -> Ending:
    """`loser` did not make the required moves within the time control (seed 4.1.4, 6.5)."""
    return loss(loser, EndReason.TIME, "4.1.4", f"{loser} lost on time")


def arbiter_loss(loser: Color, article: str, detail: str = "") -> Ending:
    """A loss declared by the arbiter under one of the ARBITER_ARTICLES."""
    if article not in ARBITER_ARTICLES:
        known = ", ".join(ARBITER_ARTICLES)
        raise XiangqiError(f"article {article!r} is not a loss the arbiter declares ({known})")
    return loss(loser, EndReason.ARBITER, article, detail or ARBITER_ARTICLES[article])
