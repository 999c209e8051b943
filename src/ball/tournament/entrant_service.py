"""An event's entrants: registration (late entries as byes of the rounds missed), withdrawal
and its ruling (article 20), a bye asked for before a round is paired.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ball.tournament import outcomes, withdrawal_event
from ball.tournament.errors import TournamentError
from ball.tournament.models import ByeRequest, Entrant, Round
from ball.tournament.names import check_name
from ball.tournament.store import EventRef, Store, bounded


class EntrantUseCases:
    """Entrants of an event."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add_player(
        self,
        name: str,
        *,
        rating: int | None = None,
        club: str = "",
        federation: str = "",
        event: EventRef = None,
    ) -> outcomes.EntrantSummary:
        """Register an entrant. After round 1 it is a late entry: the rounds it missed count
        as zero-point (or, if the event says so, half-point) byes. Round robins and
        knockouts take no late entries."""
        name = check_name(name, "entrant name")
        club, federation = check_name(club, "club"), check_name(federation, "federation")
        if not name:
            raise TournamentError("the entrant needs a name")
        if rating is not None and not 0 <= rating <= 9999:
            raise TournamentError(f"rating must be between 0 and 9999, got {rating}")
        if len(federation) > 3:
            raise TournamentError(f"federation is a 3-letter code, got {federation!r}")
        with self.store.tx() as s:
            # Only the name, the size of the field and the number of rounds are read: a
            # desk or import adding a field of 100 loaded the field (and more) each time.
            ev = self.store.event(s, event, full=False)
            if self.store.find_entrant(s, ev, name) is not None:
                raise TournamentError(f"{name!r} is already registered in {ev.name!r}")
            self.store.refuse_look_alike_entrant(s, ev, name)
            paired = self.store.count(s, Round, ev)
            if paired and ev.system != "swiss":
                raise TournamentError(f"a {ev.system} takes no entrant after round 1 is paired")
            if ev.rounds is not None and paired >= ev.rounds:
                raise TournamentError("every round is already paired")
            field = self.store.count(s, Entrant, ev)
            entrant = Entrant(
                event_id=ev.id,
                registered=field + 1,
                number=field + 1,
                name=name,
                club=club,
                federation=federation.upper(),
                rating=rating,
                first_round=paired + 1,
            )
            s.add(entrant)
            s.flush()
            return outcomes.entrant_summary(entrant)

    def withdraw(
        self, name: str, *, event: EventRef = None, reason: str = ""
    ) -> outcomes.EntrantSummary:
        """Withdraw an entrant from the rounds not yet paired (logged). In a round robin
        their remaining games are lost by forfeit."""
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            entrant = self.store.entrant_named(s, ev, name)
            if entrant.status == "withdrawn":
                raise TournamentError(f"{name!r} has already withdrawn")
            entrant.status = "withdrawn"
            entrant.withdrawn_after = self.store.count(s, Round, ev)
            self.store.log(s, ev, "withdrawal", reason, entrant_id=entrant.id)
            return outcomes.entrant_summary(entrant)

    def withdrawal_ruling(self, name: str, *, event: EventRef = None) -> dict[str, Any]:
        """The article-20 ruling that applies to a withdrawn entrant (`withdrawal_event`)."""
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event)
            found = withdrawal_event.as_dict(ev, self.store.entrant(ev, name))
            if found is None:
                raise TournamentError(f"{name!r} has not withdrawn")
            return {"name": name, **found}

    def request_bye(
        self, name: str, round_number: int, kind: str = "half", *, event: EventRef = None
    ) -> None:
        """Record a bye the entrant asked for (`half` or `zero` point) before the round is
        paired; the pairing leaves them out and gives them that bye."""
        if kind not in ("half", "zero"):
            raise TournamentError("a requested bye is 'half' or 'zero'")
        bounded(round_number, "round")
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            entrant = self.store.entrant_named(s, ev, name)
            if round_number <= self.store.count(s, Round, ev):
                raise TournamentError(f"round {round_number} is already paired")
            # One request per entrant and round (a unique key); say so in words rather than
            # let the database's constraint message reach the arbiter.
            earlier = s.scalar(
                select(ByeRequest.kind).where(
                    ByeRequest.entrant_id == entrant.id, ByeRequest.round_number == round_number
                )
            )
            if earlier is not None:
                raise TournamentError(
                    f"{name!r} has already asked for a {earlier}-point bye in round {round_number}"
                )
            s.add(
                ByeRequest(
                    event_id=ev.id, entrant_id=entrant.id, round_number=round_number, kind=kind
                )
            )
