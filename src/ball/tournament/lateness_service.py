"""The lateness use cases (seed 004 articles 21-22), `TournamentService.lateness`; the
ruling itself is the pure `lateness.rule`, and the results' write path asks this one.

* `create_event(..., default_time=M)` stores the event's default time (`set_default_time`);
* `record_table_result(..., late={"A": 12})` (`ball result enter --late A:12`): the ruling
  turns the entry into a forfeit or a double forfeit when a side came past the default time
  (no sheet then), or keeps the sheet when everyone came within it; the table's lateness and
  ruling are stored (`tournament_lateness`) and logged (kind `lateness`, naming the
  articles) in the result's transaction. The record then shows `+` / `-` as any forfeit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ball.tournament import lateness
from ball.tournament.errors import TournamentError
from ball.tournament.models import DefaultTime, Event, Lateness, Pairing
from ball.tournament.store import Store

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def set_default_time(s: Session, ev: Event, minutes: int | None) -> None:
    """Store the default time of a new event (no-op for None)."""
    if minutes is None:
        return
    if not 0 <= minutes <= lateness.MAX_MINUTES:
        raise TournamentError(
            f"--default-time is 0 to {lateness.MAX_MINUTES} minutes, got {minutes}"
        )
    s.add(DefaultTime(event_id=ev.id, minutes=minutes))
    s.flush()


def default_time(s: Session, ev: Event) -> int | None:
    found = s.get(DefaultTime, ev.id)
    return found.minutes if found is not None else None


class LatenessUseCases:
    """Late arrivals at a table (a use case of `TournamentService`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def lateness_ruling(self, event_id: int, late: dict[str, int | None]) -> lateness.Ruling:
        """What `late` would decide at a table of the event (its default time applied), for
        the desk's check before saving; `record_table_result(..., late=)` rules the same."""
        with self.store.tx(write=False) as s:
            # Only the event's default time is read (the desk asks before each save).
            return lateness.rule(late, default_time(s, self.store.known(s, event_id, full=False)))

    @staticmethod
    def late_ruling(
        s: Session, ev: Event, late: dict[str, int | None] | None, given: dict[str, Any]
    ) -> tuple[dict[str, Any], lateness.Ruling | None]:
        """The result to record for a table where `late` sides arrived late: `given`
        (sheet / forfeit / double_forfeit) when the game was played, the forfeit the
        ruling decides otherwise (21.1, 21.3)."""
        if not late:
            return given, None
        ruling = lateness.rule(late, default_time(s, ev))
        if given.get("forfeit") is not None or given.get("double_forfeit"):
            raise TournamentError("--late decides the forfeit itself; give no --forfeit")
        if ruling.forfeit is None:
            if given.get("sheet") is None:
                raise TournamentError(
                    f"{ruling.text}: enter the game's sheet (the result is entered as usual)"
                )
            return given, ruling
        if given.get("sheet") is not None:
            raise TournamentError(f"{ruling.text}: the game is lost by forfeit, give no sheet")
        if ruling.forfeit == "both":
            return {"sheet": None, "forfeit": None, "double_forfeit": True}, ruling
        return {"sheet": None, "forfeit": ruling.forfeit, "double_forfeit": False}, ruling

    def store_lateness(
        self,
        s: Session,
        ev: Event,
        pairing: Pairing,
        round_number: int,
        late: dict[str, int | None],
        ruling: lateness.Ruling,
    ) -> None:
        row = s.get(Lateness, pairing.id) or Lateness(pairing_id=pairing.id)
        row.a_minutes = _stored(late, "A")
        row.b_minutes = _stored(late, "B")
        row.ruling = ruling.text
        s.add(row)
        self.store.log(
            s, ev, "lateness", ruling.text, round_number=round_number, table=pairing.table
        )


def _stored(late: dict[str, int | None], side: str) -> int | None:
    """Minutes late as stored: None not late, -1 never came."""
    if side not in late:
        return None
    minutes = late[side]
    return -1 if minutes is None else minutes
