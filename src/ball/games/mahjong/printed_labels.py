"""The printed texts of Mahjong's own session forms (seating list, table cards, MCR score
sheet, result slip, standings): message ids of the one catalogue, which the printing
translates and hands its templates as `t.forms.mahjong` (`MahjongGame.paper.labels`,
`ball.printing.labels`)."""

from __future__ import annotations

from typing import Any

from ball.games.mahjong.engine.rulings import LOGGED_LABELS
from ball.i18n import N_

LABELS: dict[str, Any] = {
    "forms_title": N_("Mahjong Tournament Forms"),
    "seating_title": N_("Seating list"),
    "cards_title": N_("Table cards"),
    "sheet_title": N_("Score sheet (MCR)"),
    "slip_title": N_("Session result slip"),
    "standings_title": N_("Mahjong standings"),
    "session": N_("Session"),
    "by_table": N_("By table"),
    "by_name": N_("By name"),
    "wind": N_("Wind"),
    "winds": {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")},
    "name": N_("Name"),
    "team": N_("Team"),
    "hand": N_("Hand"),
    "winner": N_("Winner"),
    "discarder": N_("Discarder"),
    "self_drawn": N_("self-drawn"),
    "draw": N_("draw"),
    "fan": N_("Fan"),
    "points": N_("Points of the hand"),
    "running": N_("Running totals"),
    "zero": N_("Sum 0"),
    "sheet_help": N_(
        "One row per hand. On a discard the discarder pays 8 + fan and the two others "
        "8 each; self-drawn, each of the three pays 8 + fan. A win needs 8 fan "
        "(flowers not counted). Every row and every total sums to zero."
    ),
    "penalties": N_("Penalties and rulings (seed 003: LS, WC, TL)"),
    "time": N_("Time"),
    "article": N_("Article"),
    "ruling": N_("Ruling"),
    "hand_points": N_("Hand points"),
    "penalty_points": N_("Penalty points"),
    "score": N_("Session score"),
    "table_points": N_("Table points"),
    "tp_help": N_(
        "Table points 4, 2, 1, 0 by session score; tied players share the points of "
        "the places they span (7 points a table)."
    ),
    "rulings": LOGGED_LABELS,
    "judge": N_("Table judge"),
    "qr": N_("Each player's own code: scan your seat's code to enter or confirm the "
             "table's result on your phone."),
    "arbiter": N_("Arbiter"),
    "rank": N_("Rank"),
    "total_score": N_("Total score"),
    "teams": N_("Team standings"),
    "members": N_("Members"),
    "after": N_("after session"),
    "standings_help": N_(
        "By table points, then total score, then player number. Teams: the sums of "
        "their members."
    ),
}
