"""Where the desk shows a refusal of BALL's score sheet (`desk/result.html`, and the quick
form `desk/result_quick.html`): beside the half's touchdown or PB field it names
(`h{half}_td`, `h{half}_{A|B}_{atk|def}`), else as the desk's other forms do
(`ball.web.desk.field_errors`). Named by `BallGame.desk_form`."""

from __future__ import annotations

from ball.i18n import N_
from ball.web.desk.field_errors import COMMON_RULES, Rule, rule

_PB_RULES: tuple[Rule, ...] = (
    rule(
        r"^half (?P<half>[12]): PB(?P<C>ATK|DEF) of (?P<name>.+) is empty$",
        "h{half}_{side}_{c}",
        N_("Half %(half)s: enter the PB%(C)s of %(name)s."),
    ),
    rule(
        r"^half (?P<half>[12]): PB(?P<C>ATK|DEF) of (?P<name>.+): (?P<raw>.*) "
        r"is not a whole number$",
        "h{half}_{side}_{c}",
        N_("Half %(half)s: the PB%(C)s of %(name)s: %(raw)s is not a whole number."),
    ),
    rule(
        r"^half (?P<half>[12]): pb\.(?P<name>.+)\.(?P<c>atk|def) is more than (?P<max>\d+)$",
        "h{half}_{side}_{c}",
        N_("Half %(half)s: the PB%(C)s of %(name)s is more than %(max)s."),
    ),
    rule(
        r"^half (?P<half>[12]): PB dual-entry mismatch: (?P<name>.+) PBATK (?P<n>\d+) "
        r"!= (?P<other>.+) PBDEF (?P<m>\d+)$",
        "h{half}_{side}_atk",
        N_(
            "Half %(half)s: the PBATK of %(name)s (%(n)s) must equal the PBDEF of %(other)s "
            "(%(m)s); every PB is written on both coaches (dual entry)."
        ),
    ),
    rule(
        r"^half (?P<half>[12]): (?P<name>.+) scored the touchdown but recorded 0 PBATK$",
        "h{half}_{side}_atk",
        N_("Half %(half)s: %(name)s scored the touchdown, so their PBATK cannot be 0."),
    ),
    rule(
        r"^half (?P<half>[12]): PB not recorded, but the touchdowns are level "
        r"\((?P<score>[^)]*)\)",
        "h{half}_A_atk",
        N_("The touchdowns are level (%(score)s), so the PB decide: enter each coach's PBATK."),
    ),
    rule(
        r"^half (?P<half>[12]): pb\.(?P<name>.+)\.(?P<c>atk|def) is negative",
        "h{half}_{side}_{c}",
        N_("Half %(half)s: the PB%(C)s of %(name)s cannot be negative."),
    ),
)

RULES: tuple[Rule, ...] = (*_PB_RULES, *COMMON_RULES)
