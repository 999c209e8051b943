"""Xiangqi as a game of the tournament: the arbiter's result document, its figures, the
Xiangqi tie-breaks and sanction ladder (Chinese Xiangqi competition rules, the seed).

The tournament never sees a Xiangqi move: a table's result is the arbiter's *result
document* (docs/xiangqi-events.md), player A = Red (TRF White, the first mover), e.g.

    {"players": ["Wang", "Li"], "result": "1-0", "reason": "checkmate",
     "fouls": {"Wang": 0, "Li": 1}, "article": "4.1.1", "moves": 41}

`XiangqiGame.decide` checks every field against the rules of the seed (4.1 wins, 4.2
draws, 4.1.8 three fouls lose, 21.4 forfeits `+`/`-`) and returns the outcome with the
figures per side the tie-breaks of 15.1/15.2 need (fouls, games and wins with Black). The
generic tie-breaks (Sonneborn-Berger, Buchholz, wins, direct encounter) are the
tournament's own (`standings`); only what is Xiangqi's lives here, the order of the chain
included (`DEFAULT_CHAINS`, decisions X-10..X-13 in docs/rules-decisions.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ball.games.errors import TournamentError
from ball.games.protocol import (
    Commands,
    Decided,
    DeskForm,
    Figures,
    GameBase,
    GameTieBreak,
    LiveBoard,
    Paper,
    PlayersForm,
)  # fmt: skip
from ball.games.xiangqi import desk_form
from ball.i18n import N_
from ball.sanctions import Ladder, load_ladder

FIELDS = ("players", "result", "reason", "fouls", "article", "moves")
RESULTS = {"1-0": "A", "0-1": "B", "1/2-1/2": "D", "½-½": "D"}
MAX_FOULS = 3  # 4.1.8: the third foul loses the game
MAX_MOVES = 9999
NAME_MAX = 200
ARTICLE = re.compile(r"^\d{1,2}(\.\d{1,2}){0,3}$")


@dataclass(frozen=True)
class Reason:
    """How a game may end: decisive or drawn, and the article of the seed that says so."""

    name: str
    decisive: bool
    article: str


# Every way a game ends under articles 4.1 (a loss for one side), 4.2 (a draw) and 21
# (absence: a forfeit, written + / -). "arbiter" stands for a ruling under another article
# (the document then names it in "article").
REASONS = {
    r.name: r
    for r in (
        Reason("checkmate", True, "4.1.1"),
        Reason("facing-generals", True, "4.1.2"),
        Reason("no-legal-move", True, "4.1.3"),
        Reason("time", True, "4.1.4"),
        Reason("illegal-move", True, "4.1.6"),
        Reason("forbidden-move", True, "4.1.7"),
        Reason("three-fouls", True, "4.1.8"),
        Reason("resignation", True, "4.1.9"),
        Reason("refusal", True, "4.1.10"),
        Reason("forfeit", True, "21.4"),
        Reason("insufficient-material", False, "4.2.1"),
        Reason("agreement", False, "4.2.2"),
        Reason("repetition", False, "4.2.3"),
        Reason("natural-move-limit", False, "4.2.4"),
    )
}
ARBITER = "arbiter"

# 18.1 warning, 18.2 disqualification from the game on the spot (18.3, expulsion from the
# competition, is a withdrawal: `ball event withdraw`).
LADDER = load_ladder(str(resources.files("ball.games.xiangqi").joinpath("sanctions.toml")))
SEVERITY = {"warning": 1.0, "disqualification": 1000.0}


def _error(text: str) -> TournamentError:
    return TournamentError(f"illegal result: {text}")


def _players(doc: dict[str, Any]) -> tuple[str, str]:
    players = doc.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise _error('"players" must be the two names, Red (player A) first')
    a, b = (p.strip() for p in players)
    if max(len(a), len(b)) > NAME_MAX:
        raise _error(f'"players": a name has at most {NAME_MAX} characters')
    if a == b:
        raise _error(f'"players": {a!r} cannot play themself')
    return a, b


def _reason(doc: dict[str, Any], outcome: str) -> tuple[str, str]:
    """(reason, article) checked against the result: a loss under 4.1, a draw under 4.2."""
    reason = doc.get("reason")
    if reason != ARBITER and reason not in REASONS:
        raise _error(f'"reason" {reason!r} is not one of {", ".join([*REASONS, ARBITER])}')
    article = doc.get("article")
    if article is not None and (not isinstance(article, str) or not ARTICLE.match(article)):
        raise _error(f'"article" {article!r} is not an article number such as "4.1.8"')
    if reason == ARBITER:
        if article is None:
            raise _error('"article": a ruling by the arbiter names its article')
        return reason, article
    known = REASONS[reason]
    if known.decisive != (outcome != "D"):
        kind = "a win" if known.decisive else "a draw"
        raise _error(f'"reason" {reason!r} ends the game in {kind} ({known.article}), '
                     f'the result says {doc["result"]}')  # fmt: skip
    if article is not None and article != known.article:
        raise _error(f'"article" {article} does not match "reason" {reason!r} ({known.article})')
    return reason, known.article


def _count(value: Any, label: str, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise _error(f"{label} must be a whole number from 0 to {top}, got {value!r}")
    return value


def _fouls(doc: dict[str, Any], a: str, b: str) -> dict[str, int]:
    raw = doc.get("fouls", {})
    if not isinstance(raw, dict):
        raise _error('"fouls" must map each player\'s name to their fouls')
    unknown = set(raw) - {a, b}
    if unknown:
        raise _error(f'"fouls": {", ".join(sorted(map(repr, unknown)))} does not play here')
    return {
        side: _count(raw.get(name, 0), f'"fouls" of {name}', MAX_FOULS)
        for side, name in (("A", a), ("B", b))
    }


def _check_fouls(fouls: dict[str, int], outcome: str, reason: str, names: dict[str, str]) -> None:
    """4.1.8: the third foul loses the game, so a side with three fouls is the loser and
    the game ended by those fouls; a forfeit was never played and has no fouls."""
    for side, count in fouls.items():
        if count < MAX_FOULS:
            continue
        if outcome == side or outcome == "D":
            raise _error(f"{names[side]} has {count} fouls and cannot win or draw (4.1.8)")
        if reason not in ("three-fouls", ARBITER):
            raise _error(f"{names[side]} has {count} fouls: the game ends by three-fouls (4.1.8)")
    if reason == "three-fouls":
        loser = "B" if outcome == "A" else "A"
        if fouls[loser] != MAX_FOULS:
            raise _error(f"three-fouls: {names[loser]} has {fouls[loser]} fouls, not 3 (4.1.8)")
    if reason == "forfeit" and any(fouls.values()):
        raise _error("a forfeit (21.4) was not played: it has no fouls")


def _moves(doc: dict[str, Any], reason: str) -> int | None:
    if doc.get("moves") is None:
        return None
    moves = _count(doc["moves"], '"moves"', MAX_MOVES)
    if reason == "forfeit" and moves:
        raise _error(f'a forfeit (21.4) was not played: "moves" is {moves}, not 0')
    return moves


def _side_figures(side: str, outcome: str, fouls: int) -> Figures:
    black = side == "B"
    return {
        "fouls": fouls,
        "black": 1 if black else 0,
        "black_win": 1 if black and outcome == side else 0,
    }


def _sum(matches: Sequence[Figures], key: str) -> float:
    return float(sum(m.get(key) or 0 for m in matches))


def _sanction_weight(steps: Sequence[str]) -> float:
    # 18.4: by severity, then by number: one disqualification (18.2) weighs more than any
    # number of warnings (18.1) an event can give.
    return float(sum(SEVERITY.get(step, 0.0) for step in steps))


# How a game may end by the players' word: no forfeit, no arbiter's ruling (the desk's), no
# foul count (the arbiter's record).
PLAYER_REASONS = frozenset(REASONS) - {"forfeit", "three-fouls"}


def _refuse_players_reason(form: Mapping[str, Any]) -> str | None:
    if form.get("xq_reason") in PLAYER_REASONS:
        return None
    return N_("Choose how the game ended (a forfeit or a ruling is the arbiter's).")


class XiangqiGame(GameBase):
    """Xiangqi events: the arbiter's result document, figures for 15.1/15.2 and 18.4."""

    name = "xiangqi"
    label = N_("Xiangqi")
    nav: tuple[tuple[str, str], ...] = (("/xiangqi", N_("Xiangqi")),)
    seats = 2
    ladder: Ladder = LADDER
    # The arbiter's result document, field by field (docs/xiangqi-events.md).
    desk_form: DeskForm | None = DeskForm(
        "desk/result_xiangqi.html",
        desk_form.document_from_form,
        desk_form.form_values,
        desk_form.FIELDS,
        reasons=desk_form.REASON_LABELS,
        field_rules="ball.games.xiangqi.web.field_rules:RULES",
        offer=desk_form.offer,
    )
    sides: tuple[str, str] = (N_("Red"), N_("Black"))
    card_sides: tuple[str, str] = sides
    table_board: str | None = "ball.games.xiangqi.web.table_board"
    # art. 6's schemes and the organiser's options, shipped as files
    clock_controls: str | None = "ball.games.xiangqi.clocks:CONTROLS"
    paper: Paper | None = Paper(
        tables="ball.games.xiangqi.paper.forms:from_round",
        blank="ball.games.xiangqi.paper.forms:blank_set",
        labels="ball.games.xiangqi.printed_labels:LABELS",
    )
    paper_sides: tuple[tuple[str, str], tuple[str, str]] | None = (
        ("xiangqi", "red"),
        ("xiangqi", "black"),
    )
    templates: Path | None = Path(__file__).with_name("templates")
    static: Path | None = Path(__file__).with_name("static")
    players_form: PlayersForm | None = PlayersForm(
        "xiangqi/_players_form.html",
        _refuse_players_reason,
        PLAYER_REASONS,
        ("xq_result", "xq_reason", "xq_moves"),
    )
    tie_form = "xiangqi/_tie_game.html"
    tie_sides: tuple[str, str] = sides
    live_board: LiveBoard | None = LiveBoard(
        "xiangqi/_live_board.html",
        "xiangqi",
        "xiangqi",
        N_("Download the record (PGN)"),
        lambda _table, a, b: {"Red": a, "Black": b},
        "ball.games.xiangqi.web.live_games",
    )
    commands: tuple[Commands, ...] = (
        Commands(
            "xiangqi",
            "ball.games.xiangqi.cli.commands",
            "The Xiangqi engine: legal moves, applying moves, perft, status.",
        ),
    )
    routers: tuple[str, ...] = ("ball.games.xiangqi.web.api", "ball.games.xiangqi.web.pages")
    tiebreaks: dict[str, GameTieBreak] = {
        "sanctions": GameTieBreak(
            "sanctions",
            N_("18.4: sanctioned under 18.1/18.2 ranks last among equals (severity, then number)"),
            lambda _matches: 0.0,
            higher_is_better=False,
            from_sanctions=_sanction_weight,
            label=N_("Sanctions (18.4)"),
            short=N_("Sanc"),
        ),
        "fouls": GameTieBreak(
            "fouls",
            N_("fouls over the event (fewer is better, 15.1)"),
            lambda m: _sum(m, "fouls"),
            higher_is_better=False,
            label=N_("Fouls"),
            short=N_("Fouls"),
        ),  # fmt: skip
        "black-games": GameTieBreak(
            "black-games",
            N_("games played with Black"),
            lambda m: _sum(m, "black"),
            label=N_("Games with Black"),
            short=N_("Blk"),
        ),
        "black-wins": GameTieBreak(
            "black-wins",
            N_("games won with Black"),
            lambda m: _sum(m, "black_win"),
            label=N_("Wins with Black"),
            short=N_("BlkW"),
        ),
    }
    # 15.1 (round robin): small points (Sonneborn-Berger), wins, direct encounter, fouls;
    # 15.2 (Swiss, "points arrangement"): opponents' points (Buchholz), wins, fouls. 18.4
    # comes first after points. The seed ends there ("otherwise the rank is shared"):
    # games and wins with Black rank only when the organiser adds them.
    default_chains: dict[str, list[str]] | None = {
        "round-robin": ["sanctions", "sonneborn-berger", "wins", "direct-encounter", "fouls"],
        "double-round-robin": ["sanctions", "sonneborn-berger", "wins", "direct-encounter",
                               "fouls"],
        "swiss": ["sanctions", "buchholz", "wins", "fouls"],
        "knockout": ["sanctions", "wins"],
    }  # fmt: skip

    def decide(self, sheet: dict[str, Any]) -> Decided:
        if not isinstance(sheet, dict):
            raise _error("the result document must be a JSON object")
        unknown = set(sheet) - set(FIELDS)
        if unknown:
            raise _error(f"unknown field(s) {', '.join(sorted(map(repr, unknown)))}; "
                         f"known: {', '.join(FIELDS)}")  # fmt: skip
        a, b = _players(sheet)
        if sheet.get("result") not in RESULTS:
            raise _error(f'"result" {sheet.get("result")!r} is not 1-0, 0-1 or 1/2-1/2')
        outcome = RESULTS[sheet["result"]]
        reason, article = _reason(sheet, outcome)
        fouls = _fouls(sheet, a, b)
        names = {"A": a, "B": b}
        _check_fouls(fouls, outcome, reason, names)
        moves = _moves(sheet, reason)
        decision: dict[str, Any] = {
            "winner": None if outcome == "D" else names[outcome],
            "result": "1/2-1/2" if outcome == "D" else sheet["result"],
            "reason": reason,
            "article": article,
            "fouls": {names[s]: n for s, n in fouls.items()},
            "moves": moves,
        }
        if reason == "forfeit":
            return Decided(outcome, self.forfeit(outcome), decision)
        figures = {side: _side_figures(side, outcome, fouls[side]) for side in ("A", "B")}
        return Decided(outcome, figures, decision)

    def check_players(self, sheet: dict[str, Any], a: str, b: str) -> None:
        """The document is for this table: its players are the table's, Red (player A)
        first (13.1: colours are fixed by the pairing, not chosen at the board)."""
        if list(_players(sheet)) != [a, b]:
            raise _error(f'"players" {sheet["players"]!r}: this table is {a} (Red) - {b} (Black)')

    def forfeit(self, winner: str) -> dict[str, Figures]:
        # 21.4: no game was played, so no fouls and no game with Black for either side.
        return {side: {"fouls": 0, "black": 0, "black_win": 0} for side in ("A", "B")}

    def double_forfeit(self) -> dict[str, Figures]:
        return self.forfeit("A")
