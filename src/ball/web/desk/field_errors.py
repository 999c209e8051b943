"""Where a refused desk form's fault belongs, in the user's words (issue 36 item 12).

The rules and the services name faults for developers and logs (`half 1: PBATK of Ann is
empty`, `hands[2].fan: 6 is under the minimum of 8; not a win`). A form page shows the same
fault beside the field it is about (the field gets `aria-invalid` and `aria-describedby`),
counted from one and phrased for the arbiter; a fault about no field stays at the top of the
form. The mapping is data: one `Rule` per message shape, per form; a game's own forms keep
theirs in its folder (`games/<game>/web/field_rules.py`, named by `DeskForm.field_rules`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ball.games import load
from ball.games.protocol import Game
from ball.web.core.templating import N_


@dataclass(frozen=True)
class Fault:
    """A refusal as a form page shows it: `text` (translated), beside `field` (a form
    field's name) or, when `field` is None, at the top of the form."""

    text: str
    field: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"message": self.text, "field": self.field}


@dataclass(frozen=True)
class Rule:
    """One message shape: `pattern` (named groups), the form field it is about (a format
    string over the groups) and the words to show (an `N_` text over the groups; None: the
    group `rest` if the pattern has one, else the message as it is).

    Groups derived for the formats: `side` (A or B) of the coach or player `name`; `hand`
    (counted from one) of a zero-based `index`; `row0` (zero-based) of a `row`; `c`/`C`
    as the lower and upper case of a PB counter."""

    pattern: re.Pattern[str]
    field: str
    words: str | None = None


def rule(pattern: str, field: str, words: str | None = None) -> Rule:
    """A rule: a refusal matching `pattern` is shown beside `field`, in `words` if given."""
    return Rule(re.compile(pattern), field, words)


# Sanctions given on a result form, the correction's reason, lateness and the result kind.
COMMON_RULES: tuple[Rule, ...] = (
    rule(
        r"^sanction (?P<row>\d+): every sanction needs a reason$",
        "sanction{row0}_reason",
        N_("Sanction %(row)s: give the reason."),
    ),
    rule(
        r"^sanction (?P<row>\d+): reason: at most (?P<max>\d+) characters$",
        "sanction{row0}_reason",
        N_("Sanction %(row)s: the reason has at most %(max)s characters."),
    ),
    rule(r"^sanction (?P<row>\d+): step ", "sanction{row0}_step"),
    rule(r"^(?P<step>\S+) for (?P<name>.+): enter the result as a forfeit by .+$", "kind"),
    rule(
        r"^reason: at most (?P<max>\d+) characters$",
        "reason",
        N_("The reason for the correction has at most %(max)s characters."),
    ),
    rule(r"^reason: (?P<rest>.+)$", "reason"),
    rule(r"^(?P<rest>(?P<key>late_[AB]|absent_[AB]|kind): .+)$", "{key}"),
)




def game_rules(plugin: Game) -> tuple[Rule, ...]:
    """Where refusals of the game's result form are located: its form's rules
    (`DeskForm.field_rules`); none for a game whose desk takes no such form (a table of
    four)."""
    form = plugin.desk_form
    if plugin.seats != 2 or form is None or not form.field_rules:
        return ()
    return tuple(load(form.field_rules))


def _groups(match: re.Match[str], sides: Mapping[str, str]) -> dict[str, str]:
    args = {k: v for k, v in match.groupdict().items() if v is not None}
    if "name" in args and args["name"] in sides:
        args["side"] = sides[args["name"]]
    if "index" in args:
        args["hand"] = str(int(args["index"]) + 1)
    if "row" in args:
        args["row0"] = str(int(args["row"]) - 1)
    if "C" in args:
        args["c"] = args["C"].lower()
    elif "c" in args:
        args["C"] = args["c"].upper()
    return args


def locate(
    message: str,
    rules: Sequence[Rule],
    gettext: Callable[[str], str],
    sides: Mapping[str, str] | None = None,
) -> Fault:
    """The fault `message` as its form shows it: the first rule that matches names the field
    and the words; no rule (or a name that is no coach here): the message at the top."""
    for rule in rules:
        match = rule.pattern.search(message)
        if match is None:
            continue
        args = _groups(match, sides or {})
        try:
            field = rule.field.format(**args)
        except KeyError:  # e.g. a name that is not one of this table's coaches
            continue
        if rule.words is not None:
            return Fault(gettext(rule.words) % args, field)
        return Fault(args.get("rest", message), field)
    return Fault(message)


# The desk's "New event" form (`index.html`).
NEW_EVENT_RULES: tuple[Rule, ...] = (
    rule(r"^(?P<rest>pin: the two PINs differ)$", "pin2", N_("The two PINs differ.")),
    rule(r"^(?P<rest>pin: .+)$", "pin"),
    rule(r"^(?P<rest>the event needs a name)$", "name", N_("The event needs a name.")),
    rule(r"^(?P<rest>unknown system .+)$", "system"),
    rule(r"^(?P<rest>unknown game .+)$", "game"),
    rule(
        r"^--rounds must be at least 1, got (?P<n>-?\d+)$",
        "rounds",
        N_("Rounds: at least 1 (or empty: automatic)."),
    ),  # fmt: skip
    rule(r"^(?P<key>name|place|arbiter)\b", "{key}"),
    rule(
        r"^(?P<key>rounds|hands|games_per_tie|extra_games|teams|groups|qualifiers|default_time)\b",
        "{key}",
    ),
)

# The event page's "Add an entrant" and "Import entrants (CSV)" forms (`event.html`).
ENTRANT_RULES: tuple[Rule, ...] = (
    rule(r"^(?P<rest>the entrant needs a name)$", "name", N_("The entrant needs a name.")),
    rule(
        r"^'(?P<name>.+)' is already registered in ",
        "name",
        N_("%(name)s is already registered in this event."),
    ),  # fmt: skip
    rule(
        r"^rating must be between 0 and 9999, got (?P<n>-?\d+)$",
        "rating",
        N_("Rating: a whole number from 0 to 9999."),
    ),  # fmt: skip
    rule(
        r"^federation is a 3-letter code",
        "federation",
        N_("Federation: a 3-letter code, e.g. BUL."),
    ),  # fmt: skip
    rule(r"^(?P<key>name|club|federation|rating)\b", "{key}"),
    rule(r"^CSV", "csv"),
)

# The sanctions page (`sanctions.html`): one form per entrant with step, round, table, reason.
SANCTION_RULES: tuple[Rule, ...] = (
    rule(r"^reason: every sanction needs a reason$", "reason", N_("Give the reason.")),
    rule(
        r"^reason: at most (?P<max>\d+) characters$",
        "reason",
        N_("The reason has at most %(max)s characters."),
    ),
    rule(r"^step: ", "step", N_("Choose a step of the ladder.")),
    rule(r"^sanction: a table needs its round$", "round", N_("A table needs its round.")),
    rule(
        r"^sanction: entrant \d+ does not play at round (?P<r>\d+) table (?P<t>\d+)$",
        "table",
        N_("This entrant does not play at table %(t)s in round %(r)s."),
    ),
    rule(r"^round (?P<r>\d+) is not paired$", "round", N_("Round %(r)s is not paired yet.")),
    rule(r"^(?P<key>round|table)\b", "{key}", N_("A whole number, 1 or more.")),
)

# The event page's "Withdraw" form of an entrant (`event.html`): reason and the confirmation.
WITHDRAW_RULES: tuple[Rule, ...] = (
    rule(
        r"^withdrawal: tick the confirmation box$",
        "confirm",
        N_("Tick the box to confirm the withdrawal."),
    ),
)

# The round page's "Swap two entrants" form (`round.html`): the two entrants `x` and `y`;
# `sides` maps the typed names to "x" and "y", so a fault names the right select.
SWAP_RULES: tuple[Rule, ...] = (
    rule(
        r"^swap: '(?P<name>.+)' is not paired in round (?P<r>\d+)$",
        "{side}",
        N_("%(name)s is not paired in round %(r)s."),
    ),
    rule(r"^swap: choose two different entrants$", "y", N_("Choose two different entrants.")),
)

# A tie's drawing of lots (`tie.html`): from a typed `seed`, or the `winner` drawn at the venue.
LOTS_RULES: tuple[Rule, ...] = (
    rule(r"^winner: ", "winner", N_("Choose who won the drawing of lots.")),
    rule(r"^seed\b", "seed", N_("Seed: a whole number, or empty for a fresh one.")),
)

# The teams page's "Add a team" form (`teams.html`): the team's `name` and its `players`.
TEAM_RULES: tuple[Rule, ...] = (
    rule(r"^the team needs a name$", "name", N_("The team needs a name.")),
    rule(
        r"^team '(?P<name>.+)' is already registered$",
        "name",
        N_("%(name)s is already registered in this event."),
    ),
    rule(
        r"^a team needs at least (?P<n>\d+) players \(one per board\), got (?P<got>\d+)$",
        "players",
        N_("A team needs at least %(n)s players, one per board (%(got)s listed)."),
    ),
    rule(r"^a player is listed twice in the team$", "players", N_("A player is listed twice.")),
    rule(
        r"^'(?P<name>.+)' already plays for another team$",
        "players",
        N_("%(name)s already plays for another team."),
    ),
    rule(r"^(?P<rest>.+)$", "players"),  # any other fault is about the players' lines
)

# The round page's half-end form of a table (`round.html`): the end time `at`.
HALF_END_RULES: tuple[Rule, ...] = (
    rule(r"^time: ", "at", N_("End time: HH:MM or HH:MM:SS, or empty for now.")),
)

# The bracket page's drawing of lots (`bracket.html`): a typed `seed`, or the cards drawn at
# the venue, `card_i` of the entrant `name_i` (`sides` maps each name to its i).
DRAW_RULES: tuple[Rule, ...] = (
    rule(
        r"^card of '(?P<name>.+)': ",
        "card_{side}",
        N_("The card drawn by %(name)s: a number and R or B, or K."),
    ),
    *LOTS_RULES,
)
