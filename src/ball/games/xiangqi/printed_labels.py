"""The printed texts of Xiangqi's own forms (score sheet, foul record, result slip): message
ids of the one catalogue, which the printing translates and hands its templates as
`t.forms.xiangqi` (`XiangqiGame.paper.labels`, `ball.printing.labels`)."""

from __future__ import annotations

from typing import Any

from ball.i18n import N_

LABELS: dict[str, Any] = {
    "forms_title": N_("Xiangqi Tournament Forms"),
    "sheet_title": N_("Xiangqi score sheet"),
    "fouls_title": N_("Foul record"),
    "slip_title": N_("Result slip"),
    "red": N_("Red"),
    "black": N_("Black"),
    "red_first": N_("Red moves first"),
    "move": N_("Move"),
    "record_help": N_(
        "Record every move of both sides, clearly and correctly, in full (cannon 2 "
        "traverses to 5) or short form (25) (articles 7.1 and 7.5). Four moves "
        "missed in a row count as one foul."
    ),
    "fouls": N_("Fouls"),
    "foul_help": N_("The third foul of the same player loses the game (article 4.1.8)."),
    "player": N_("Player"),
    "what": N_("What happened"),
    "article": N_("Article"),
    "sanctions": N_("Sanctions (18.1 warning, 18.2 disqualification from the game)"),
    "step": {
        "warning": N_("warning (18.1)"),
        "disqualification": N_("disqualification from the game (18.2)"),
    },
    "result": N_("Result"),
    "reason": N_("How the game ended"),
    "moves": N_("Moves played"),
    "forfeit_help": N_(
        "A player absent past the time limit loses by forfeit: the winner is marked "
        "+ and the absent player - (article 21.4)."
    ),
    "arbiter": N_("Arbiter"),
}
