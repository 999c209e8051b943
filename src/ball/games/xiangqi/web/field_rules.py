"""Where the desk shows a refusal of Xiangqi's result form (`desk/result_xiangqi.html`): beside
the field of the arbiter's document it names (`xq_*`), else as the desk's other forms do
(`ball.web.desk.field_errors`). Named by `XiangqiGame.desk_form`."""

from __future__ import annotations

from ball.web.desk.field_errors import COMMON_RULES, Rule, rule

RULES: tuple[Rule, ...] = (
    rule(r'^(?:illegal result: )?(?P<rest>"(?P<key>result|reason|article|moves)".*)$', "xq_{key}"),
    rule(r"^(?:illegal result: )?(?P<rest>(?P<name>.+) has \d+ fouls.*)$", "xq_fouls_{side}"),
    rule(r"^(?P<rest>(?P<key>xq_\w+): .+)$", "{key}"),
    *COMMON_RULES,
)
