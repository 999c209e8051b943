"""Tic-tac-toe as a `Game`: its result document, figures and one tie-break of its own, its
desk form (one field, the moves), its side labels, its template folder and its own `ball`
commands (`cli`). Nothing outside
this folder knows it; one line registers it (`conftest.fourth_game`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ball.games import Commands, Decided, DeskForm, Figures, GameBase, GameTieBreak
from ball.games.errors import IllegalSheet, TournamentError

from .rules import IllegalGame, ending

NAME = "tictactoe"
FIELD = "ttt_moves"


def _moves_per_win(matches: Sequence[Figures]) -> float | None:
    wins = sum(m.get("win") or 0 for m in matches)
    if not wins:
        return None  # no win: ranks last
    return sum(m.get("win_moves") or 0 for m in matches) / wins


def read_form(form: Mapping[str, Any], a: str, b: str) -> dict[str, Any]:
    """The desk's one field, the cells in the order played ("5 1 9 ..."), as the document."""
    text = (form.get(FIELD) or "").replace(",", " ").split()
    try:
        moves = [int(cell) for cell in text]
    except ValueError:
        raise TournamentError(f"{FIELD}: the moves are cell numbers 1-9") from None
    return {"players": [a, b], "moves": moves}


def form_values(doc: Mapping[str, Any], a: str, b: str) -> dict[str, str]:
    return {FIELD: " ".join(str(cell) for cell in doc.get("moves", []))}


class TicTacToe(GameBase):
    """Tic-tac-toe scored 1/½/0: X is player A and moves first."""

    name = NAME
    seats = 2
    tiebreaks: dict[str, GameTieBreak] = {
        "moves-per-win": GameTieBreak(
            "moves-per-win", "moves per game won (fewer is better)", _moves_per_win,
            higher_is_better=False,
        )
    }  # fmt: skip
    desk_form: DeskForm | None = DeskForm("tictactoe/result.html", read_form, form_values, (FIELD,))
    sides: tuple[str, str] = ("X", "O")
    card_sides: tuple[str, str] = ("X", "O")
    templates: Path | None = Path(__file__).with_name("templates")
    # `ball tictactoe ...`: the module is named, as a game's CLI sits above its rules
    commands: tuple[Commands, ...] = (
        Commands(
            "tictactoe",
            f"{__name__.rsplit('.', 1)[0]}.cli",
            "Tic-tac-toe: judge a game from its moves.",
        ),
    )

    def decide(self, sheet: dict[str, Any]) -> Decided:
        players, moves = sheet.get("players"), sheet.get("moves")
        if not isinstance(players, list) or len(players) != 2 or not isinstance(moves, list):
            raise IllegalSheet('the document has "players" [X, O] and "moves" [cells]')
        try:
            mark, article = ending(moves)
        except IllegalGame as exc:
            raise IllegalSheet(str(exc)) from None
        outcome = {"X": "A", "O": "B", None: "D"}[mark]
        names = {"A": players[0], "B": players[1]}
        figures: dict[str, Figures] = {
            side: {"win": int(outcome == side), "win_moves": len(moves) if outcome == side else 0}
            for side in ("A", "B")
        }
        decision = {
            "winner": names.get(outcome),
            "result": {"A": "1-0", "B": "0-1", "D": "1/2-1/2"}[outcome],
            "reason": "three-in-a-row" if mark else "full-board",
            "article": article,
            "moves": len(moves),
        }
        return Decided(outcome, figures, decision)

    def check_players(self, sheet: dict[str, Any], a: str, b: str) -> None:
        if sheet.get("players") != [a, b]:
            raise TournamentError(f'"players" {sheet.get("players")!r}: this table is {a} - {b}')

    def forfeit(self, winner: str) -> dict[str, Figures]:
        return {side: {"win": 0, "win_moves": 0} for side in ("A", "B")}

    def double_forfeit(self) -> dict[str, Figures]:
        return self.forfeit("A")
