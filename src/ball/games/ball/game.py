"""BALL as a `Game`: score sheets decided by `ball.games.ball.match.result.decide` (spec 13, D-18,
R-forfeit), the touchdown and PB figures, and BALL's three tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ball.games.ball import desk_form as sheet_form
from ball.games.ball.match.result import FORFEIT_TD, SheetError, decide
from ball.games.errors import IllegalSheet
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
from ball.i18n import N_


def _sum(values: Sequence[Figures], key: str) -> float:
    total: float = 0  # as `sum` starts; a loop, not a generator (every entrant's tie-breaks)
    for v in values:
        value = v.get(key)
        if value is not None:
            total += value or 0
    return float(total)


def _td_difference(matches: Sequence[Figures]) -> float:
    return _sum(matches, "td_for") - _sum(matches, "td_against")


def _total_sd(matches: Sequence[Figures]) -> float:
    # SD = PBDEF - PBATK over played matches; forfeits carry no PB (R-forfeit).
    return _sum(matches, "pbdef") - _sum(matches, "pbatk")


def _pbatk_per_td(matches: Sequence[Figures]) -> float | None:
    # PBATK of the halves in which the coach scored, per touchdown scored over the board:
    # the attack-efficiency criterion of spec 13 summed over the event. No touchdown: None,
    # which ranks last.
    scored = _sum(matches, "td_scored")
    if scored == 0:
        return None
    return round(_sum(matches, "pbatk_scoring") / scored, 6)


class BallGame(GameBase):
    """BALL: sheets decided by `ball.games.ball.match.result.decide` (spec 13, D-18, R-forfeit)."""

    name = "ball"
    label = N_("Ball")
    # The simulator's pages: the board, the rulebook, learn mode and the replay viewer.
    nav: tuple[tuple[str, str], ...] = (
        ("/", N_("Simulator")),
        ("/rulebook", N_("Rulebook")),
        ("/learn", N_("Learn")),
        ("/replay", N_("Replay")),
    )
    routers: tuple[str, ...] = (
        "ball.games.ball.web.api",
        "ball.games.ball.web.pages",
        "ball.games.ball.web.learn",
    )
    demo: str | None = "ball.games.ball.web.demo:seed_demo_game"
    # `ball serve --rulesets DIR` (D-37): the engine's `ruleset.ORGANISER_ENV`, named here
    # so that asking the game does not import the engine
    organiser_rules: str | None = "BALL_RULESETS"
    commands: tuple[Commands, ...] = (
        Commands(
            "play",
            "ball.games.ball.cli.play",
            "Play BALL hot-seat in this terminal; the record is written when the match ends.",
            command=True,
            lead=True,
        ),
        Commands(
            "rules",
            "ball.games.ball.cli.rules",
            "The rules engine: legal actions, applying actions, perft.",
            lead=True,
        ),
        Commands(
            "sim", "ball.games.ball.cli.sim", "Self-play simulation to study the regulation.",
            lead=True,
        ),
        Commands(
            "match",
            "ball.games.ball.cli.match",
            "One match: decide the result from a score sheet.",
            lead=True,
        ),
        Commands(
            "record", "ball.games.ball.cli.record", "Game records (.bgn): check, sheet, replay.",
            lead=True,
        ),
    )
    seats = 2
    # The tie-breaks that read PB figures: a quick result must collect PB when the
    # event's chain has one of them (`ball.web.desk.forms`).
    pb_tiebreaks: frozenset[str] = frozenset({"total-sd", "pbatk-per-td"})
    # The score sheet at the desk: each half's touchdown and PB, its steal lines, and the
    # quick form (who scored, the PBATK when given) read by `read_quick`.
    desk_form: DeskForm | None = DeskForm(
        "desk/result.html",
        sheet_form.sheet_from_form,
        sheet_form.sheet_values,
        reasons=sheet_form.REASONS,
        field_rules="ball.games.ball.web.field_rules:RULES",
        read_quick=sheet_form.quick_sheet_from_form,
        steal_rows=sheet_form.STEAL_ROWS,
        wins=sheet_form.WINS,
        draw=sheet_form.DRAW,
        double_forfeit=sheet_form.DOUBLE_FORFEIT,
        score=sheet_form.score,
    )
    # The desk's quick result form of this game (the winner's figures only); a game
    # without one has only its full result form.
    quick_form: str | None = "desk/result_quick.html"
    # The two coaches: A is ATK first in half 1 (the tournament's convention); a knockout
    # tie's game is entered on the half sheet.
    sides: tuple[str, str] = (N_("Coach A (ATK first)"), N_("Coach B"))
    tie_form = "ball/_tie_game.html"
    tie_sides: tuple[str, str] = (N_("coach A, ATK first"), N_("coach B"))
    forfeit_marks = False  # a forfeit is lost 0-2 (R-forfeit)
    clock_control: str | None = "ball-standard"  # the desk's table clocks of a round
    clock_controls: str | None = "ball.games.ball.clocks.control"
    table_board: str | None = "ball.games.ball.web.tables"
    paper: Paper | None = Paper(
        tables="ball.games.ball.paper.round_forms:from_round",
        results="ball.games.ball.paper.score_sheets:result_text",
        blank="ball.games.ball.paper.forms:blank_set",
        regulation="ball.games.ball.paper.regulation",
        pdf="ball.games.ball.paper.stamp:stamped_pdf",
    )
    # R-signal: the rest before a round's second-half signal, from the standard ruleset
    signal_gap: str | None = "ball.games.ball.signal_gap:gap_minutes"
    templates: Path | None = Path(__file__).with_name("templates")
    static: Path | None = Path(__file__).with_name("static")
    # the quick sheet: who scored in each half, each coach's PBATK per half
    players_form: PlayersForm | None = PlayersForm(
        "ball/_players_form.html", fields=sheet_form.QUICK_FIELDS
    )
    # docs/record-format.md: a table's match records its table and both coaches
    live_board: LiveBoard | None = LiveBoard(
        "ball/_live_board.html",
        "simulator",
        "live-ball",
        N_("Download the record (.bgn)"),
        lambda table, a, b: {"Table": str(table), "CoachA": a, "CoachB": b},
        "ball.games.ball.web.live_games",
    )
    tiebreaks: dict[str, GameTieBreak] = {
        "td-difference": GameTieBreak(
            "td-difference",
            N_("touchdowns scored minus conceded (forfeits count 0-2)"),
            _td_difference,
            label=N_("TD difference"),
            short=N_("TD±"),
        ),
        "total-sd": GameTieBreak(
            "total-sd",
            N_("sum of SD = PBDEF - PBATK over played matches"),
            _total_sd,
            label=N_("Total SD"),
            short=N_("ΣSD"),
        ),
        "pbatk-per-td": GameTieBreak(
            "pbatk-per-td",
            N_("PBATK of the scoring halves per touchdown scored (lower is better)"),
            _pbatk_per_td,
            higher_is_better=False,
            label=N_("PBATK per TD"),
            short=N_("PB/TD"),
        ),
    }

    def decide(self, sheet: dict[str, Any]) -> Decided:
        try:
            decision = decide(sheet)
        except SheetError as exc:
            raise IllegalSheet(str(exc)) from None
        a, b = sheet["coaches"]
        halves = [h for h in sheet.get("halves") or [] if h is not None]
        if halves and halves[0]["atk_first"] != a:
            raise IllegalSheet(
                f"coach A ({a}) is ATK in the first half, the sheet says {halves[0]['atk_first']}"
            )
        outcome = {a: "A", b: "B", None: "D"}[decision.winner]
        if decision.reason == "forfeit":
            return Decided(outcome, self.forfeit(outcome), decision.as_dict())
        figures = {}
        recorded = all(h["pb"] is not None for h in halves)
        for label, coach, other in (("A", a, b), ("B", b, a)):
            scoring = decision.pbatk_scoring_half[coach]
            # A quick result without PB (`"pb": null`) leaves the PB figures unknown (None,
            # which the PB tie-breaks skip), and with them the touchdowns they are per.
            scoring_known = recorded or not decision.td[coach] or scoring is not None
            figures[label] = {
                "td_for": decision.td[coach],
                "td_against": decision.td[other],
                "td_scored": decision.td[coach] if scoring_known else None,
                "pbatk": sum(h["pb"][coach]["atk"] for h in halves) if recorded else None,
                "pbdef": sum(h["pb"][coach]["def"] for h in halves) if recorded else None,
                "pbatk_scoring": (scoring or 0) if scoring_known else None,
            }
        return Decided(outcome, figures, decision.as_dict())

    def forfeit(self, winner: str) -> dict[str, Figures]:
        loser = "B" if winner == "A" else "A"
        return {
            winner: {"td_for": FORFEIT_TD, "td_against": 0},
            loser: {"td_for": 0, "td_against": FORFEIT_TD},
        }

    def double_forfeit(self) -> dict[str, Figures]:
        # Both coaches forfeit: each loses 0-2 administratively.
        return {side: {"td_for": 0, "td_against": FORFEIT_TD} for side in ("A", "B")}
