"""The pairing check's use cases (issue 35 §2), `TournamentService.checks`: a round's
stored verdict, checking it again, and publishing it.

Every round is checked when it is stored (`round_service.store_round` calls
`pairing_check`); a round whose check passed (or that has nothing to check against) is
published at once, as every round was before; one whose check failed stays back from the
players until it is fixed (paired again, swapped, or its rows repaired and checked again)
and then published, or published by the arbiter with a reason that goes to the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ball.storage.text import FREE_TEXT_MAX, too_long
from ball.tournament import pairing_check
from ball.tournament.errors import TournamentError
from ball.tournament.models import Round
from ball.tournament.pairing_check import Verdict
from ball.tournament.store import Store

REASON_MAX = 500  # an override's reason; the log line adds the checker's message
OVERRIDE = "publish-override"  # the log's kind of a failed round published by the arbiter


@dataclass(frozen=True)
class RoundCheck:
    """A round's pairing check and whether the players see it."""

    round: int
    published: bool
    check: Verdict | None  # None: never checked (a round imported from a TRF file)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "published": self.published,
            "check": self.check.as_dict() if self.check is not None else None,
        }


def round_check(rnd: Round) -> RoundCheck:
    return RoundCheck(rnd.number, bool(rnd.published), pairing_check.stored(rnd))


class PairingCheckUseCases:
    """Check and publish rounds (a use case of `TournamentService`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def round_verdict(self, round_number: int | None = None, *, event: Any = None) -> RoundCheck:
        """The stored check of round `round_number` (default: the latest)."""
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            return round_check(self.store.round(ev, round_number or len(ev.rounds_)))

    def check_round(self, round_number: int | None = None, *, event: Any = None) -> RoundCheck:
        """Check the round's stored tables again (after a fix, or to see whether its rows
        were changed behind the toolbox's back) and keep the verdict; a failure takes the
        round back from the players."""
        with self.store.tx() as s:
            ev = self.store.event(s, event)
            rnd = self.store.round(ev, round_number or len(ev.rounds_))
            before = rnd.check_ok
            verdict = pairing_check.check(s, ev, rnd)
            pairing_check.record(rnd, verdict)
            if verdict.ok is not before:
                line = _logged(verdict)[:FREE_TEXT_MAX]
                self.store.log(s, ev, "check", line, round_number=rnd.number)
            return round_check(rnd)

    def publish_round(
        self, round_number: int | None = None, *, override: str = "", event: Any = None
    ) -> RoundCheck:
        """Publish the round after checking it again. A failed check refuses, naming the
        checker's message, unless the arbiter gives `override` (the reason, logged with
        the checker's message)."""
        reason = override.strip()
        refused = too_long(reason, "the reason", REASON_MAX)
        if refused:
            raise TournamentError(refused)
        checked = self.check_round(round_number, event=event)  # kept even when refused
        verdict = checked.check
        if verdict is not None and verdict.failed and not reason:
            raise TournamentError(
                f"round {checked.round} is not published: its pairing check failed "
                f"({verdict.by}): {verdict.detail}"
            )
        with self.store.tx() as s:
            ev = self.store.event(s, event)
            rnd = self.store.round(ev, checked.round)
            if not rnd.published:
                rnd.published = True
                if verdict is not None and verdict.failed:
                    detail = f"{reason} (check failed: {verdict.detail})"[:FREE_TEXT_MAX]
                    self.store.log(s, ev, OVERRIDE, detail, round_number=rnd.number)
                else:
                    self.store.log(s, ev, "publish", "published", round_number=rnd.number)
            return round_check(rnd)


def _logged(verdict: Verdict) -> str:
    state = {True: "passed", False: "failed", None: pairing_check.NOT_CHECKABLE}[verdict.ok]
    return f"pairing check {state} ({verdict.by}): {verdict.detail}"
