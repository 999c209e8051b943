"""How a game plugs into the tournament: scoring one match and the tie-breaks it adds.

The tournament itself is game-agnostic: it knows that a table ended in a win for coach A,
a win for coach B, a draw, or nobody (double forfeit). A `GamePlugin` turns the game's own
result document (for BALL: the score sheet of `ball match decide`) into that outcome plus
per-side *figures* (touchdowns, PB counters, ...) from which its own tie-breaks are computed.
Xiangqi (`xiangqi_game`) and Mahjong plug in by registering another `GamePlugin` in
`GAMES`; a plug-in may also bring its own sanction ladder (`ladder`) and its own default
tie-break chains (`default_chains`), both optional.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ball.match.result import FORFEIT_TD, SheetError, decide
from ball.match.sanctions import LADDER, Ladder
from ball.tournament.errors import IllegalSheet, TournamentError

Figures = dict[str, float | None]


@dataclass(frozen=True)
class Decided:
    """A decided table: `outcome` is A, B or D (draw); figures per side, keyed "A"/"B"."""

    outcome: str
    figures: dict[str, Figures]
    decision: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameTieBreak:
    """A tie-break computed from one entrant's per-match figures (forfeits already excluded
    by the plugin where the rules say so). `higher_is_better` orders the standings."""

    name: str
    description: str
    compute: Callable[[Sequence[Figures]], float | None]
    higher_is_better: bool = True
    # A tie-break computed from the entrant's sanctions instead (the steps given, oldest
    # first, from the event's sanction log): Xiangqi's 18.4. `compute` is then unused.
    from_sanctions: Callable[[Sequence[str]], float] | None = None


class GamePlugin(Protocol):
    """What a game must tell the tournament."""

    name: str
    # players at a table: 2 (paired games, ranked by points and a tie-break chain) or 4
    # (Mahjong's tables, seated by sessions and ranked by table points)
    seats: int
    tiebreaks: dict[str, GameTieBreak]

    def decide(self, sheet: dict[str, Any]) -> Decided:
        """Validate the game's result document (coach A first) and decide it; raise
        `TournamentError` naming the fault when it is not a legal result."""
        ...

    def forfeit(self, winner: str) -> dict[str, Figures]:
        """Figures of a forfeit won by `winner` ("A" or "B")."""
        ...

    def double_forfeit(self) -> dict[str, Figures]:
        """Figures of a double forfeit."""
        ...


# ---------------------------------------------------------------------------------- BALL


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


class BallGame:
    """BALL: sheets decided by `ball.match.result.decide` (spec 13, D-18, R-forfeit)."""

    name = "ball"
    seats = 2
    # The tie-breaks that read PB figures: a quick result must collect PB when the
    # event's chain has one of them (`ball.web.desk_quick`).
    pb_tiebreaks = frozenset({"total-sd", "pbatk-per-td"})
    # The desk's quick result form of this game (the winner's figures only); a game
    # without one has only its full result form.
    quick_form = "desk/result_quick.html"
    tiebreaks = {
        "td-difference": GameTieBreak(
            "td-difference", "touchdowns scored minus conceded (forfeits count 0-2)", _td_difference
        ),
        "total-sd": GameTieBreak(
            "total-sd", "sum of SD = PBDEF - PBATK over played matches", _total_sd
        ),
        "pbatk-per-td": GameTieBreak(
            "pbatk-per-td",
            "PBATK of the scoring halves per touchdown scored (lower is better)",
            _pbatk_per_td,
            higher_is_better=False,
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


GAMES: dict[str, GamePlugin] = {"ball": BallGame()}


def _register_xiangqi() -> None:
    # Imported here: the Xiangqi plug-in module builds on the names defined above.
    from ball.tournament.xiangqi_game import XiangqiGame

    GAMES["xiangqi"] = XiangqiGame()


_register_xiangqi()


def _register_mahjong() -> None:
    # Tables of four: sessions and session sheets (`session_service`), not `decide`.
    from ball.tournament.mahjong_game import MahjongGame

    GAMES["mahjong"] = MahjongGame()


_register_mahjong()


def ladder_of(plugin: GamePlugin) -> Ladder:
    """The sanction ladder of the game's events: its own (`ladder`, optional) or BALL's."""
    ladder = getattr(plugin, "ladder", LADDER)
    assert isinstance(ladder, Ladder)
    return ladder


def default_chains(plugin: GamePlugin) -> dict[str, list[str]] | None:
    """The game's own default tie-break chain per system (`default_chains`, optional): a
    game whose rules fix the order of tie-breaks (Xiangqi 15.1/15.2) replaces the
    system's generic chain; None keeps it."""
    chains = getattr(plugin, "default_chains", None)
    return None if chains is None else dict(chains)


def pairs_players(name: str) -> bool:
    """Whether the game `name` pairs two players a table, so its events rank by points and
    a tie-break chain (standings pages, projector); tables of four rank by table points."""
    plugin = GAMES.get(name)
    return plugin is not None and plugin.seats == 2


def game(name: str) -> GamePlugin:
    try:
        return GAMES[name]
    except KeyError:
        raise TournamentError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None
