"""Simulator games as a service: create, rebuild by replay, apply, undo/redo, export.

The HTTP layer (`ball.web.api`) only translates to and from these functions; every rule
question goes to `ball.engine`.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from ball.engine import Game, IllegalAction, InvalidPosition, notation
from ball.engine.ruleset import RulesetError, ruleset_by_name
from ball.match.narrate import consequences, describe
from ball.storage.text import bad_character
from ball.web.models import WebGame

MODES = ("free", "play", "computer")
COMPUTER_LEVELS = ("greedy", "easy", "medium", "hard")  # ball.ai names or level aliases
SIDES = ("S", "N")


class GameError(Exception):
    """A request the game cannot serve; `status` is the HTTP status it maps to."""

    status = 400


class GameNotFound(GameError):
    status = 404


class GameConflict(GameError):
    status = 409


class BadPosition(GameError):
    status = 422


@dataclass
class LogEntry:
    """One applied action as the action log shows it: who, what, and the PB it added."""

    ply: int
    half: int
    turn: int
    side: str
    phase: str
    action: str
    pb: int
    events: list[str] = field(default_factory=list)
    # the action told in plain language, as catalogue ids with arguments (ball.match.narrate);
    # the API renders it in the reader's language as `text`
    narration: list[Any] = field(default_factory=list)


@dataclass
class Rebuilt:
    game: Game
    log: list[LogEntry]


def pb_added(events: list) -> int:
    """PB an action added: the `pb` events' amounts (a reset after a steal adds 2)."""
    return sum(int(e.detail.get("amount", 1)) for e in events if e.kind == "pb")


def action_origin(action: str) -> str | None:
    """The square an action starts from (the acting piece or the stack), if it has one.

    `card NAME SQ…` starts from a square too (Second Wind, Quick Feet), so it filters by piece.
    """
    return notation.origin(action)


def _apply_logged(game: Game, action: str, ply: int) -> LogEntry:
    before = (game.half, game.turn, game.actor, game.phase)
    parsed = game.parse(action)
    try:  # told from the state before; an illegal action is refused by `apply` just below
        told = [describe(game.state, parsed)]
    except (IndexError, KeyError, TypeError):
        told = []
    events = game.apply(parsed)
    pb = pb_added(events)
    return LogEntry(
        ply=ply,
        half=before[0],
        turn=before[1],
        side=before[2],
        phase=before[3],
        action=action,
        pb=pb,
        events=[e.kind for e in events],
        narration=[list(part) for part in [*told, *consequences(events)]],
    )


def check_ruleset(ruleset: str) -> str:
    """A shipped or organiser-installed ruleset's name (never a path, D-37); anything else
    is a 422 naming it and the choices."""
    try:
        ruleset_by_name(ruleset)
    except RulesetError as exc:
        raise BadPosition(f"ruleset: {exc}") from None
    return ruleset


def start_game(position: dict[str, Any] | None, ruleset: str | None = None) -> Game:
    if ruleset is not None:
        check_ruleset(ruleset)
    if position is None:
        return Game.new(ruleset)
    if not isinstance(position, dict):
        raise BadPosition("position: expected a JSON object (spec 18.2 position document)")
    try:
        game = Game.from_json(position)
    except InvalidPosition as exc:
        raise BadPosition(f"position: {exc}") from exc
    except (TypeError, KeyError, AttributeError, ValueError) as exc:
        # The engine names the field for every fault it checks; anything else it trips
        # over is still the document's fault, not the server's.
        raise BadPosition(f"position: not a valid position document ({exc!r})") from exc
    if ruleset is not None and game.ruleset.name != ruleset:
        raise BadPosition(
            f"ruleset: {ruleset!r} differs from the position's ruleset "
            f"{game.ruleset.name!r}; give one or make them agree"
        )
    return game


def deck_view(game: Game) -> dict[str, Any] | None:
    """The deck's cards (name, title, PE cost) in card mode, for the page's card panel."""
    rules = game.ruleset
    if not rules.card_mode:
        return None
    deck = rules.deck
    return {
        "name": deck.name,
        "provisional": deck.provisional,
        "short_range": rules.short_range,  # Long Arm is in force while the turn's range exceeds it
        "cards": [
            {"name": c.name, "title": c.title, "pe": c.pe, "effect": c.effect} for c in deck.cards
        ],
    }


class StoredGameBroken(GameError):
    """A stored game that no longer replays (e.g. after a rules change); data is kept."""

    status = 409


def rebuild(initial: dict[str, Any], actions: list[str]) -> Rebuilt:
    try:
        game = Game.from_json(initial)
    except InvalidPosition as exc:
        raise StoredGameBroken(f"the stored initial position is not valid any more: {exc}") from exc
    log = []
    for ply, action in enumerate(actions, 1):
        try:
            log.append(_apply_logged(game, action, ply))
        except IllegalAction as exc:
            raise StoredGameBroken(
                f"the stored game no longer replays: ply {ply} {action!r}: {exc}"
            ) from exc
    return Rebuilt(game, log)


class _Cache:
    """Recently rebuilt games by (id, version); entries are never mutated by callers."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[tuple[str, int], Rebuilt] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: tuple[str, int]) -> Rebuilt | None:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple[str, int], value: Rebuilt) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_cache = _Cache()

# One writer at a time per database: SQLite serialises writers anyway, and waiting on a
# Python lock is far cheaper (and fairer) than SQLite's busy-retry sleeps.
_write_locks: dict[str, threading.Lock] = {}
_write_locks_guard = threading.Lock()


def write_lock(sessions: sessionmaker) -> threading.Lock:
    bind = sessions.kw.get("bind")
    key = str(bind.url) if bind is not None else str(id(sessions))
    with _write_locks_guard:
        return _write_locks.setdefault(key, threading.Lock())


class GameStore:
    """Games of one database (`sessions` is the app's sessionmaker)."""

    def __init__(self, sessions: sessionmaker) -> None:
        self.sessions = sessions
        self._writing = write_lock(sessions)

    # -- reading -------------------------------------------------------------------------
    def _row(self, session: Session, game_id: str) -> WebGame:
        row = session.get(WebGame, game_id)
        if row is None:
            raise GameNotFound(f"game {game_id!r} does not exist")
        return row

    def _rebuilt(self, row: WebGame) -> Rebuilt:
        key = (row.id, row.version)
        cached = _cache.get(key)
        if cached is None:
            cached = rebuild(json.loads(row.initial), json.loads(row.actions))
            _cache.put(key, cached)
        return cached

    def state(self, game_id: str) -> dict[str, Any]:
        with self.sessions() as session:
            row = self._row(session, game_id)
            return self._state(row, self._rebuilt(row))

    def legal(self, game_id: str, piece: str | None = None) -> list[str]:
        with self.sessions() as session:
            game = self._rebuilt(self._row(session, game_id)).game
        actions = game.legal_actions()
        if piece:
            square = piece.strip().upper()
            actions = [a for a in actions if action_origin(a) == square]
        return actions

    def position(self, game_id: str) -> dict[str, Any]:
        with self.sessions() as session:
            return self._rebuilt(self._row(session, game_id)).game.to_json()

    def history(self, game_id: str) -> tuple[dict[str, Any], list[str], dict[str, str]]:
        """Initial position, actions and a few headers (for the `.bgn` export)."""
        with self.sessions() as session:
            row = self._row(session, game_id)
            # A title stored before titles were checked: a line break would end the tag.
            title = "".join(" " if bad_character(c) else c for c in row.title)
            headers = {"Event": title or "BALL simulator game", "Site": "BALL Toolbox"}
            return json.loads(row.initial), json.loads(row.actions), headers

    def _state(self, row: WebGame, rebuilt: Rebuilt) -> dict[str, Any]:
        game = rebuilt.game
        redo = json.loads(row.redo)
        return {
            "id": row.id,
            "title": row.title,
            "mode": row.mode,
            "computer_side": row.computer_side,
            "computer_level": row.computer_level,
            "version": row.version,
            "position": game.to_json(),
            "ruleset": game.ruleset.name,
            "deck": deck_view(game),
            # PE is shown only where the rules have it (§2/§11), not as "PE 0" under standard.
            "uses_pe": game.ruleset.uses_pe,
            "actor": game.actor,
            "legal": game.legal_actions(),
            "log": [entry.__dict__ for entry in rebuilt.log],  # read-only views, no copy
            "can_undo": row.mode == "free" and bool(rebuilt.log),
            "can_redo": row.mode == "free" and bool(redo),
            "over": bool(game.is_over),
        }

    # -- writing -------------------------------------------------------------------------
    def create(
        self,
        position: dict[str, Any] | None = None,
        mode: str = "free",
        computer_side: str | None = None,
        title: str = "",
        ruleset: str | None = None,
        *,
        computer_level: str | None = None,
    ) -> dict[str, Any]:
        if mode not in MODES:
            raise GameError(f"mode: must be one of {', '.join(MODES)}, not {mode!r}")
        if (char := bad_character(title)) is not None:  # it becomes the record's Event tag
            raise GameError(
                f"title: one line of printable text, without a control character "
                f"(U+{ord(char):04X})"
            )
        if mode == "computer":
            computer_side = (computer_side or "N").upper()
            if computer_side not in SIDES:
                raise GameError(f"computer_side: must be S or N, not {computer_side!r}")
            computer_level = computer_level or "greedy"
            if computer_level not in COMPUTER_LEVELS:
                raise GameError(
                    f"computer_level: must be one of {', '.join(COMPUTER_LEVELS)}, "
                    f"not {computer_level!r}"
                )
        else:
            computer_side = computer_level = None
        game = start_game(position, ruleset)
        row = WebGame(
            id=uuid.uuid4().hex[:12],
            title=title[:200],
            mode=mode,
            computer_side=computer_side,
            computer_level=computer_level,
            initial=json.dumps(game.to_json()),
            actions="[]",
            redo="[]",
            version=0,
        )
        with self._writing, self.sessions() as session:
            session.add(row)
            session.commit()
            if mode == "computer":
                self._computer_turns(session, row)
            rebuilt = self._rebuilt(row)
        return self._state(row, rebuilt)

    def _save(self, session: Session, row: WebGame, actions: list[str], redo: list[str]) -> None:
        """Write the new action list only if nobody else changed the game meanwhile."""
        values = {
            "actions": json.dumps(actions),
            "redo": json.dumps(redo),
            "version": row.version + 1,
        }
        # an UPDATE gives a CursorResult, which counts the rows it changed
        result: CursorResult[Any] = session.execute(  # type: ignore[assignment]
            update(WebGame)
            .where(WebGame.id == row.id, WebGame.version == row.version)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            session.rollback()
            raise GameConflict(f"game {row.id!r} was changed by someone else; reload it")
        session.commit()
        for name, value in values.items():  # what was just written, without reading it back
            set_committed_value(row, name, value)

    def apply(self, game_id: str, action: str, expected_version: int | None = None):
        if not isinstance(action, str) or not action.strip():
            raise GameError("action: give one action in spec 18.1 notation, e.g. G7-H8")
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id)
            if expected_version is not None and expected_version != row.version:
                raise GameConflict(
                    f"game {game_id!r} is at version {row.version}, not {expected_version}"
                )
            rebuilt = self._rebuilt(row)
            game = rebuilt.game.copy()
            try:
                entry = _apply_logged(game, action.strip(), len(rebuilt.log) + 1)
            except IllegalAction as exc:
                raise GameError(f"illegal action {action.strip()!r}: {exc}") from exc
            actions = [e.action for e in rebuilt.log] + [entry.action]
            self._save(session, row, actions, [])
            _cache.put((row.id, row.version), Rebuilt(game, [*rebuilt.log, entry]))
            if row.mode == "computer":
                self._computer_turns(session, row)
            rebuilt = self._rebuilt(row)
        return self._state(row, rebuilt), entry

    def _computer_turns(self, session: Session, row: WebGame) -> None:
        from ball.ai import agent, agent_name
        from ball.engine.actions import to_text

        # one player for the whole reply, so a search player reuses its tree within the turn
        # and keeps to its time per turn; seeded by the log length, the same game gets the
        # same replies
        player = agent(agent_name(row.computer_level or "greedy"), seed=len(self._rebuilt(row).log))
        for _ in range(64):  # a turn holds a handful of actions; this bounds a bad loop
            rebuilt = self._rebuilt(row)
            game = rebuilt.game
            if game.is_over or game.actor != row.computer_side:
                return
            if not game.legal_tuples():
                return
            game = game.copy()
            action = to_text(player(rebuilt.game.state))
            entry = _apply_logged(game, action, len(rebuilt.log) + 1)
            actions = [e.action for e in rebuilt.log] + [entry.action]
            self._save(session, row, actions, [])
            _cache.put((row.id, row.version), Rebuilt(game, [*rebuilt.log, entry]))

    def next_half(self, game_id: str) -> dict[str, Any]:
        """A new game for the second half, once the first is over (ends change, D-22)."""
        with self.sessions() as session:
            row = self._row(session, game_id)
            game = self._rebuilt(row).game
        if not game.is_over:
            raise GameError(f"half {game.half} of game {game_id!r} is not over yet")
        if game.half >= 2:
            raise GameError("a match has two halves; this game is already the second")
        # the coaches change ends: the computer's coach plays the other side now
        side = {"S": "N", "N": "S"}.get(row.computer_side or "")
        return self.create(
            game.next_half().to_json(),
            row.mode,
            side,
            row.title,
            computer_level=row.computer_level,
        )

    def match_halves(self, first_id: str, second_id: str) -> tuple[Game, Game, str | None]:
        """Both halves of a finished simulator match and the computer's side in half 1.

        The first must be a finished half 1 and the second a finished half 2 under the same
        rules, mode and level, with the computer on the other side (ends change, D-22): the
        second may be the game `next_half` made or a half-2 position loaded in the editor."""
        with self.sessions() as session:
            row1, row2 = self._row(session, first_id), self._row(session, second_id)
            first, second = self._rebuilt(row1).game, self._rebuilt(row2).game
            same = (row1.mode, row1.computer_level) == (row2.mode, row2.computer_level)
            switched = {row1.computer_side, row2.computer_side} in ({None}, {"S", "N"})
        if first.half != 1 or not first.is_over:
            raise GameError(f"game {first_id!r} is not a finished first half")
        if second.half != 2 or not second.is_over:
            raise GameError(f"game {second_id!r} is not a finished second half")
        if not (same and switched) or first.ruleset.name != second.ruleset.name:
            raise GameError(f"game {second_id!r} is not the second half of game {first_id!r}")
        return first, second, row1.computer_side

    def undo(self, game_id: str) -> dict[str, Any]:
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id)
            if row.mode != "free":
                raise GameError(f"undo is only allowed in free play; this game is {row.mode!r}")
            actions = json.loads(row.actions)
            if not actions:
                raise GameError("nothing to undo: the game is at its initial position")
            redo = [*json.loads(row.redo), actions.pop()]
            self._save(session, row, actions, redo)
            rebuilt = self._rebuilt(row)
        return self._state(row, rebuilt)

    def redo(self, game_id: str) -> dict[str, Any]:
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id)
            if row.mode != "free":
                raise GameError(f"redo is only allowed in free play; this game is {row.mode!r}")
            redo = json.loads(row.redo)
            if not redo:
                raise GameError("nothing to redo")
            rebuilt = self._rebuilt(row)
            game = rebuilt.game.copy()
            entry = _apply_logged(game, redo.pop(), len(rebuilt.log) + 1)
            self._save(session, row, [e.action for e in rebuilt.log] + [entry.action], redo)
            _cache.put((row.id, row.version), Rebuilt(game, [*rebuilt.log, entry]))
            rebuilt = self._rebuilt(row)
        return self._state(row, rebuilt)

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        from sqlalchemy import select

        with self.sessions() as session:
            rows = session.scalars(
                select(WebGame).order_by(WebGame.updated_at.desc()).limit(limit)
            ).all()
            return [
                {
                    "id": r.id,
                    "title": r.title,
                    "mode": r.mode,
                    "plies": len(json.loads(r.actions)),
                    "updated_at": r.updated_at.isoformat() if r.updated_at else None,
                }
                for r in rows
            ]
