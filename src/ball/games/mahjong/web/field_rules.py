"""Where the desk shows a refusal of the Mahjong session sheet's forms (`mahjong_sheet.html`):
beside the field it names, in the arbiter's words where the engine's are terse
(`ball.web.desk.field_errors` finds it)."""

from __future__ import annotations

from ball.web.core.templating import N_
from ball.web.desk.field_errors import Rule, rule

# The hand form: winner, discarder, fan, tiles, melds, ...
HAND_RULES: tuple[Rule, ...] = (
    rule(
        r"hands\[(?P<index>\d+)\]\.fan: (?P<fan>\d+) is under the minimum of (?P<min>\d+)",
        "fan",
        N_("Hand %(hand)s: %(fan)s fan is under the %(min)s-fan minimum."),
    ),
    rule(
        r"hand: (?P<fan>\d+) fan without flowers is under the minimum of (?P<min>\d+)",
        "tiles",
        N_("These tiles make %(fan)s fan without flowers, under the %(min)s-fan minimum."),
    ),
    rule(r"hands\[(?P<index>\d+)\]\.hand: (?P<rest>.+)$", "tiles", N_("Hand %(hand)s: %(rest)s")),
    rule(
        r"hands\[(?P<index>\d+)\]\.(?P<key>winner|discarder|fan)(?:\.\w+)?: (?P<rest>.+)$",
        "{key}",
        N_("Hand %(hand)s: %(rest)s"),
    ),
    rule(r"^(?P<key>outcome|winner|discarder|fan|tiles|melds|win_tile|flowers): ", "{key}"),
)

# The ruling, time penalty and waiver forms: their fields share names with the hand form
# (seat, tiles), so each is named `<form>_<field>`.
RULING_RULES: tuple[Rule, ...] = (
    rule(r"^(?P<key>kind|seat|tiles|points|article|at): (?P<rest>.+)$", "ruling_{key}"),
)
TIME_RULES: tuple[Rule, ...] = (
    rule(r"^(?P<key>seat|limit|over_seconds|at): (?P<rest>.+)$", "time_{key}"),
)
WAIVER_RULES: tuple[Rule, ...] = (
    rule(r"^(?P<key>index|reason): (?P<rest>.+)$", "waive_{key}"),
)
