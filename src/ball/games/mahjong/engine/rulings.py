"""The Mahjong rulings' words, in one place: what the session sheet (and the desk's ruling
form) calls a ruling, what the table's log records, and the English words each is shown
in on the desk, the public pages and the printed sheet.

Two vocabularies, both in use, so neither is renamed: a sheet's ruling is
`{"kind": "false-win", ...}` (`Kind`, hyphens: the stored sheet holds these), and the
log that scoring the sheet makes writes `"ruling": "false_win"` (`Logged`, underscores:
the session's JSON and the pages show these). Several kinds log the same key (a long
hand, a short hand and a wrong exposure found too late all make a dead hand).

The labels are message ids of the one catalogue (`ball.i18n`), translated where they are
shown; `N_` only marks them for `bash scripts/i18n.sh` (a pure package imports no other
layer-1 package).
"""

from __future__ import annotations

from enum import StrEnum


def N_(message: str) -> str:
    """Marks a message id for extraction; the page or form that shows it translates it."""
    return message


class Kind(StrEnum):
    """A ruling as the session sheet's `penalties[].kind` and the desk's form write it."""

    FALSE_WIN = "false-win"
    LONG_HAND = "long-hand"
    SHORT_HAND = "short-hand"
    LATE_EXPOSURE = "late-exposure"
    WITHDRAWN_WIN = "withdrawn-win"
    CANCELLED_CALL = "cancelled-call"
    CHANGED_CALL = "changed-call"
    CORRECTED_EXPOSURE = "corrected-exposure"
    CANCELLED_KONG = "cancelled-kong"
    ARBITER = "arbiter"
    UNWILLING = "unwilling"


class Logged(StrEnum):
    """A ruling as the table's log records it (`penalties.Entry.ruling`)."""

    DEAD_HAND = "dead_hand"
    FALSE_WIN = "false_win"
    WITHDRAWN_WIN = "withdrawn_win"
    CORRECTED_EXPOSURE = "corrected_exposure"
    CHANGED_CALL = "changed_call"
    CANCELLED_CALL = "cancelled_call"
    CANCELLED_KONG = "cancelled_kong"
    ARBITER = "arbiter"
    TURN_OVERRUN = "turn_overrun"
    HAND_OVERRUN = "hand_overrun"
    WAIVER = "waiver"
    UNWILLING = "unwilling_to_continue"


# The sheet's kinds in the order the desk's ruling form lists them (plain strings: the
# templates and JSON see text, not enum members).
KINDS: tuple[str, ...] = tuple(k.value for k in Kind)

# What the desk's ruling form calls each kind.
KIND_LABELS: dict[str, str] = {
    Kind.FALSE_WIN.value: N_("false win"),
    Kind.LONG_HAND.value: N_("long hand"),
    Kind.SHORT_HAND.value: N_("short hand"),
    Kind.LATE_EXPOSURE.value: N_("wrong exposure found too late"),
    Kind.WITHDRAWN_WIN.value: N_("withdrawn win"),
    Kind.CANCELLED_CALL.value: N_("cancelled call"),
    Kind.CHANGED_CALL.value: N_("changed call"),
    Kind.CORRECTED_EXPOSURE.value: N_("corrected exposure"),
    Kind.CANCELLED_KONG.value: N_("cancelled kong"),
    Kind.ARBITER.value: N_("arbiter's penalty"),
    Kind.UNWILLING.value: N_("unwilling to continue (80-point line)"),
}

# What the public pages and the printed sheet call each logged ruling.
LOGGED_LABELS: dict[str, str] = {
    Logged.DEAD_HAND.value: N_("dead hand"),
    Logged.FALSE_WIN.value: N_("false win"),
    Logged.WITHDRAWN_WIN.value: N_("withdrawn win"),
    Logged.CORRECTED_EXPOSURE.value: N_("corrected exposure"),
    Logged.CHANGED_CALL.value: N_("changed call"),
    Logged.CANCELLED_CALL.value: N_("cancelled call"),
    Logged.CANCELLED_KONG.value: N_("cancelled kong"),
    Logged.ARBITER.value: N_("arbiter's penalty"),
    Logged.TURN_OVERRUN.value: N_("turn time overrun"),
    Logged.HAND_OVERRUN.value: N_("hand time overrun"),
    Logged.WAIVER.value: N_("overrun waived"),
    Logged.UNWILLING.value: N_("unwilling to continue (80-point line)"),
}

# The desk's sheet names the time rulings more briefly (its log sits beside the time
# penalty form, which already says "time"); every other logged ruling reads as above.
DESK_LOGGED_LABELS: dict[str, str] = LOGGED_LABELS | {
    Logged.TURN_OVERRUN.value: N_("turn overrun"),
    Logged.HAND_OVERRUN.value: N_("hand overrun"),
    Logged.WAIVER.value: N_("waiver"),
}
