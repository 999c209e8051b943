"""The knockout use cases of issue 17, `TournamentService.knockout` (`KnockoutUseCases`):
a round paired by a drawing of lots (`lots`), the games of a tie played as a mini-match
(`minimatch`, `ties`) and the drawing of lots that ends a tie still level.

Each is one transaction of the store, pairing with `round_service`'s functions and making a
game's result with `table_result.make_result`; what pairing and result entry share with
them (drawn knockouts, mini-match refusals, the colour toss) is `knockout_draws`'s. Every
drawing of lots writes an arbiter's log entry (kind `draw` for a round, `lots` for a tie)
whose detail is the JSON record that `lots.replay` replays.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ball.tournament import group_service, knockout, lots, outcomes, ties
from ball.tournament.errors import TournamentError
from ball.tournament.knockout_draws import DRAWN, drawn_knockout, seed_of
from ball.tournament.knockout_draws import SEED_LIMIT as SEED_LIMIT
from ball.tournament.minimatch import MiniMatchError, first_colour, other
from ball.tournament.models import (
    Entrant,
    Event,
    Pairing,
    Result,
    ResultCorrection,
    TieGame,
)
from ball.tournament.round_service import assign_numbers, next_round_number, store_round
from ball.tournament.store import Store
from ball.tournament.table_result import make_result, table_row

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


class KnockoutUseCases:
    """Drawn knockout rounds and mini-match ties (a use case of `TournamentService`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ the round's draw

    def draw_round(
        self,
        *,
        seed: int | None = None,
        cards: Mapping[str, str] | None = None,
        event: Any = None,
    ) -> dict[str, Any]:
        """Pair the next knockout round by a drawing of lots (seed 004 section 9): the
        cards as drawn at the venue (`cards`: entrant name -> `3R`, `3B`, `K`), or drawn
        here from `seed` (a fresh seed when neither is given). Round 1 draws among the
        entrants, later rounds among the winners of the latest round and its bye holder.
        Returns `{"round", "seed", "cards", "tables"}`; the record goes to the log."""
        if seed is not None and cards is not None:
            raise TournamentError("give either the cards drawn or a seed, not both")
        with self.store.tx() as s:
            ev = self.store.event(s, event)
            if ev.system != "knockout":
                raise TournamentError(f"a drawing of lots pairs a knockout, not a {ev.system}")
            if ev.rounds_ and not drawn_knockout(ev):
                raise TournamentError(
                    "round 1 of this knockout was paired as a bracket: pair it with "
                    "'ball round pair'"
                )
            if ev.rounds_ and knockout.replays_due(ev):
                raise TournamentError("a drawn match is replayed first: 'ball round pair'")
            number = next_round_number(ev)
            field = self.field(ev, number)
            names = [e.name for e in field]
            draw = (
                lots.check(names, cards)
                if cards is not None
                else lots.draw_from_seed(names, seed_of(seed))
            )
            if ev.rounds is None:
                ev.rounds = math.ceil(math.log2(len(field)))
            by_name = {e.name: e for e in field}
            tables: list[knockout.Table] = [(by_name[a], by_name[b], None) for a, b in draw.pairs()]
            bye = draw.bye()
            if bye is not None:
                tables.append((by_name[bye], None, "pab"))
            rnd = store_round(s, ev, number, tables, DRAWN, manual=False)
            record = {"round": number, **draw.record()}
            rnd.lots = json.dumps(record, ensure_ascii=False)
            self.store.log(s, ev, "draw", rnd.lots, round_number=number)
            s.flush()
            return {
                "round": number,
                "seed": draw.seed,
                "cards": record["cards"],
                "tables": outcomes.round_tables(list(rnd.pairings)),
            }

    def field(self, ev: Event, number: int) -> list[Entrant]:
        """Who draws for round `number`, in pairing-number order (a seeded draw deals in
        that order): the active entrants, or the winners of the latest stage."""
        if number == 1:
            active = [e for e in ev.entrants if e.status == "active"]
            if len(active) < 2:
                raise TournamentError("at least two active entrants are needed to draw")
            assign_numbers(ev)
            field = active
        else:
            knockout.refuse_lots_due(ev)
            field = [w for w in knockout.stage_winners(ev) if w is not None]
            field = [e for e in field if e.status == "active"]
            if len(field) <= 1:
                raise TournamentError("the knockout is complete")
        return sorted(field, key=lambda e: e.number)

    # ------------------------------------------------------------------ a tie's games

    def record_tie_game(
        self,
        round_number: int,
        table: int,
        game: int,
        *,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        event: Any = None,
    ) -> dict[str, Any]:
        """Enter game `game` of the mini-match at a table: the next game of the tie, with
        the sides' colours of that game (side A has the first colour in odd games, so a
        sheet's coach A and a forfeit's A/B are that game's). Once the tie is decided the
        table's result is written (its winner goes through)."""
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            pairing = self._tie_table(s, ev, round_number, table)
            now = ties.state(ev, pairing)
            self._check_game_number(now.next_game, now.phase, game, round_number, table)
            row = TieGame(pairing_id=pairing.id, game=game)
            self._fill_game(ev, pairing, row, sheet, forfeit, double_forfeit)
            pairing.tie_games.append(row)
            s.flush()
            return self._settle(s, ev, pairing)

    def correct_tie_game(
        self,
        round_number: int,
        table: int,
        game: int,
        *,
        reason: str,
        sheet: dict[str, Any] | None = None,
        forfeit: str | None = None,
        double_forfeit: bool = False,
        event: Any = None,
    ) -> dict[str, Any]:
        """Replace the result of game `game` of a tie, keeping the old one and the reason
        (`corrections`). Refused when the games after it could then not have been played,
        or when the tie's outcome would change after the next round was paired."""
        if not (reason or "").strip():
            raise TournamentError("a correction needs a reason")
        with self.store.tx() as s:
            ev = self.store.event(s, event)
            pairing = self._tie_table(s, ev, round_number, table)
            row = next((g for g in pairing.tie_games if g.game == game and g.kind != "lots"), None)
            if row is None:
                raise TournamentError(
                    f"round {round_number} table {table}: game {game} has no result to correct"
                )
            before = _game_dict(row)
            old_winner = ties.state(ev, pairing).winner if pairing.result is not None else "?"
            self._fill_game(ev, pairing, row, sheet, forfeit, double_forfeit)
            try:
                now = ties.state(ev, pairing)
            except MiniMatchError as exc:
                raise TournamentError(f"correction refused: {exc}") from None
            new_winner = now.winner if now.decided else "?"
            if new_winner != old_winner and round_number < len(ev.rounds_):
                raise TournamentError(
                    f"correction refused: it changes who goes through, and round "
                    f"{round_number + 1} is already paired (undo it first)"
                )
            if pairing.result is not None:
                s.delete(pairing.result)  # `_settle` writes it anew if the tie is decided
                s.flush()
                pairing.result = None
            s.add(
                ResultCorrection(
                    event_id=ev.id, round_number=round_number, table=table,
                    before=json.dumps(before), after=json.dumps(_game_dict(row)),
                    reason=reason.strip(), at=time.time(),
                )
            )  # fmt: skip
            s.flush()
            return self._settle(s, ev, pairing)

    def _fill_game(
        self,
        ev: Event,
        pairing: Pairing,
        row: TieGame,
        sheet: Any,
        forfeit: Any,
        double_forfeit: Any,
    ) -> None:
        """Decide one game (the game's own coach A and B) into `row`, from the tie's view."""
        first = first_colour(row.game)
        _check_sheet_order(pairing, sheet, first, row.game)
        # A document that names its players (Xiangqi: Red first) is checked against this
        # game's colours: in even games side B has the first colour (13.5).
        seats = pairing if first == "A" else cast(Pairing, _Seats(pairing.b, pairing.a))
        made = make_result(ev, seats, sheet, forfeit, double_forfeit)
        # The game's coach A is side B in even games: its win is side B's.
        flip = first == "B" and made.outcome in ("A", "B")
        row.outcome = other(made.outcome) if flip else made.outcome
        row.kind, row.forfeit_by = made.kind, made.forfeit_by
        row.sheet, row.decision = made.sheet or "", made.decision or ""
        row.entered_at = made.entered_at

    def draw_tie_lots(
        self,
        round_number: int,
        table: int,
        *,
        seed: int | None = None,
        winner: str | None = None,
        event: Any = None,
    ) -> dict[str, Any]:
        """Decide a tie still level after its games and extra games by a drawing of lots
        (article 6): the `winner` drawn at the venue, or drawn here from `seed` (a fresh
        one when neither is given). Logged (kind `lots`) with what replays it."""
        if seed is not None and winner is not None:
            raise TournamentError("give either the winner of the lots or a seed, not both")
        with self.store.tx() as s:
            ev = self.store.event(s, event, full=False)
            bracket = ev if ev.system == "knockout" else group_service.final_knockout(s, ev)
            if bracket is not None and not ties.has_minimatches(ev):
                return self._match_lots(s, ev, bracket, round_number, table, seed, winner)
            pairing = self._tie_table(s, ev, round_number, table)
            if ties.state(ev, pairing).phase != "lots":
                raise TournamentError(
                    f"round {round_number} table {table}: no drawing of lots is due"
                )
            assert pairing.b is not None  # `_table_row` refuses a bye
            sides = [pairing.a.name, pairing.b.name]
            if winner is None:
                seed = seed_of(seed)
                winner = lots.toss(sides, seed)
            elif winner not in sides:
                raise TournamentError(
                    f"{winner!r} does not play at round {round_number} table {table}"
                )
            record = {"round": round_number, "table": table, "sides": sides, "seed": seed,
                      "winner": winner}  # fmt: skip
            detail = json.dumps(record, ensure_ascii=False)
            pairing.tie_games.append(
                TieGame(
                    pairing_id=pairing.id,
                    game=len(pairing.tie_games) + 1,
                    kind="lots",
                    decision=detail,
                    outcome="A" if winner == sides[0] else "B",
                    entered_at=time.time(),
                )
            )
            self.store.log(s, ev, "lots", detail, round_number=round_number, table=table)
            s.flush()
            return self._settle(s, ev, pairing)

    def lots_due(self, *, event: Any = None) -> list[dict[str, Any]]:
        """The one-game knockout matches drawn after their last replay that wait for a
        drawing of lots (article 6), each as its last game's round and table with the two
        sides: what the desk offers to decide (`draw_tie_lots`) before the next stage."""
        with self.store.tx(write=False) as s:
            ev = self.store.event(s, event, full=False)
            bracket = ev if ev.system == "knockout" else group_service.final_knockout(s, ev)
            if bracket is None or ties.has_minimatches(ev):
                return []
            return [
                {"round": p.round.number, "table": p.table, "sides": [p.a.name, p.b.name]}
                for p in knockout.lots_due(bracket)
                if p.b is not None
            ]

    def _match_lots(
        self,
        s: Session,
        ev: Event,
        bracket: Event,
        round_number: int,
        table: int,
        seed: int | None,
        winner: str | None,
    ) -> dict[str, Any]:
        """Article 6 for a one-game match drawn after its last replay: the drawing of lots
        (`winner` drawn at the venue, or from `seed`), kept in the last game's result (its
        outcome stays a draw for the points) and logged (kind `lots`) with what replays it.
        `bracket` is the knockout: the event, or a groups event's knockout final."""
        pairing = table_row(s, ev, round_number, table)
        if pairing not in knockout.lots_due(bracket):
            raise TournamentError(
                f"round {round_number} table {table}: no drawing of lots is due (only a match "
                "drawn after its last replay is decided by lots)"
            )
        assert pairing.b is not None and pairing.result is not None  # a drawn game
        sides = [pairing.a.name, pairing.b.name]
        if winner is None:
            seed = seed_of(seed)
            winner = lots.toss(sides, seed)
        elif winner not in sides:
            raise TournamentError(f"{winner!r} does not play at round {round_number} table {table}")
        side = "A" if winner == sides[0] else "B"
        record = {"round": round_number, "table": table, "sides": sides, "seed": seed,
                  "winner": side}  # fmt: skip
        decision = json.loads(pairing.result.decision) if pairing.result.decision else {}
        pairing.result.decision = json.dumps({**decision, "lots": record})
        detail = json.dumps({**record, "winner": winner}, ensure_ascii=False)
        self.store.log(s, ev, "lots", detail, round_number=round_number, table=table)
        s.flush()
        return {"round": round_number, "table": table, "winner": winner, "seed": seed}

    def _tie_table(self, s: Session, ev: Event, round_number: int, table: int) -> Pairing:
        if not ties.has_minimatches(ev):
            raise TournamentError(
                f"{ev.name!r} plays one game per tie: enter the table's result without --game"
            )
        return table_row(s, ev, round_number, table)

    @staticmethod
    def _check_game_number(
        expected: int | None, phase: str, game: int, round_number: int, table: int
    ) -> None:
        where = f"round {round_number} table {table}"
        if expected is None:
            due = "a drawing of lots is due" if phase == "lots" else "the tie is decided"
            raise TournamentError(f"{where}: game {game} is not played, {due}")
        if game < expected:
            raise TournamentError(f"{where}: game {game} already has a result")
        if game > expected:
            raise TournamentError(f"{where}: the next game is game {expected}, not {game}")

    def _settle(self, s: Session, ev: Event, pairing: Pairing) -> dict[str, Any]:
        """Write the table's result once its tie is decided; the table as data."""
        now = ties.state(ev, pairing)
        if now.decided and pairing.result is None:
            pairing.result = Result(
                kind="double-forfeit" if now.winner is None else "outcome",
                outcome=now.winner or "N",
                decision=json.dumps({"tie": now.as_dict()}),
                entered_at=time.time(),
            )
            s.flush()
        return outcomes.table_outcome(pairing).as_dict()


@dataclass(frozen=True)
class _Seats:
    """A table's two players in one game's colour order (what `_make_result` checks)."""

    a: Any
    b: Any


def _game_dict(row: TieGame) -> dict[str, Any]:
    return {
        "game": row.game,
        "kind": row.kind,
        "forfeit_by": row.forfeit_by,
        "outcome": row.outcome,
        "sheet": json.loads(row.sheet) if row.sheet else None,
    }


def _check_sheet_order(pairing: Pairing, sheet: Any, first: str, game: int) -> None:
    """A sheet naming both entrants must list first the one with the first colour."""
    coaches = sheet.get("coaches") if isinstance(sheet, dict) else None
    names = {pairing.a.name, pairing.b.name if pairing.b is not None else None}
    if isinstance(coaches, list) and len(coaches) == 2 and set(coaches) == names:
        expected = ties.side_name(pairing, first)
        if coaches[0] != expected:
            raise TournamentError(
                f"game {game}: {expected} has the first colour (coach A) in this game"
            )
