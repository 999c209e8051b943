"""The simulator's stored games as a service: create, apply, undo/redo, the computer's
turns, the second half, the recent games. A game is its row (`ball.play.models.WebGame`:
initial position and action list) rebuilt by replay (`ball.games.ball.play.replay`); the HTTP layer
(`ball.games.ball.web.api`) only translates to and from these methods; every rule question goes
to `ball.games.ball.engine`.

Cost (issue 15): a rebuilt game is kept per (id, version) (`ball.games.ball.play.caches`), so an
apply or redo is one engine step and an undo replays at most `SNAPSHOT_EVERY` plies; for a game
whose newest version this process wrote or read, an apply skips the ORM
(`ball.games.ball.play.heads`).
"""

from __future__ import annotations

import json
import uuid
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from ball.games.ball.engine import Game, IllegalAction
from ball.games.ball.match import why_not
from ball.games.ball.play.caches import modes, rebuilt_games
from ball.games.ball.play.heads import GameHead, GameRow, append_action, fast_path, heads
from ball.games.ball.play.replay import (
    COMPUTER_LEVELS,
    MODES,
    SIDES,
    LogEntry,
    Rebuilt,
    action_origin,
    apply_logged,
    deck_view,
    half_over,
    half_timer,
    legal_texts,
    log_view,
    rebuild,
    refuse_after_time,
    start_game,
    time_up,
)
from ball.play import search_work, signals
from ball.play.errors import GameConflict, GameError, GameNotFound
from ball.play.models import WebGame
from ball.play.write_locks import write_lock
from ball.storage.text import bad_character, too_long

_table = cast(Table, WebGame.__table__)
_games = _table.c
_SAVE = (
    update(_table)
    .where(_games.id == bindparam("game_id"), _games.version == bindparam("seen"))
    .values(
        actions=bindparam("new_actions"),
        redo=bindparam("new_redo"),
        version=bindparam("new_version"),
    )
)


class GameStore:
    """Games of one database (`sessions` is the app's sessionmaker)."""

    def __init__(self, sessions: sessionmaker, client: str = "local") -> None:
        self.sessions = sessions
        self.client = client  # whose queue the computer's searches wait in (an address)
        self._writing = write_lock(sessions)
        bind = sessions.kw.get("bind")
        self._engine = bind if fast_path(bind) else None

    # -- reading -------------------------------------------------------------------------
    def _row(self, session: Session, game_id: str, *, lock: bool = False) -> WebGame:
        """The game's row; `lock`: held until the session's transaction ends (`FOR UPDATE`
        on PostgreSQL, where the server's other processes write too; SQLite has no row
        lock and one writing process), so a writer there waits for the one before it and
        then reads its action, as writers of one process wait on the write lock."""
        row = session.get(WebGame, game_id, with_for_update=lock)
        if row is None:
            raise GameNotFound(f"game {game_id!r} does not exist")
        return row

    def _rebuilt(self, row: WebGame) -> Rebuilt:
        key = (row.id, row.version)
        cached = rebuilt_games.get(key)
        if cached is None:
            cached = rebuild(json.loads(row.initial), json.loads(row.actions))
            rebuilt_games.put(key, cached)
        return cached

    def state(self, game_id: str, since: int | None = None) -> dict[str, Any]:
        with self.sessions() as session:
            row = self._row(session, game_id)
            return self._state(row, self._rebuilt(row), since)

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

    def _state(self, row: GameRow, rebuilt: Rebuilt, since: int | None = None) -> dict[str, Any]:
        game = rebuilt.game
        redo = row.redo != "[]" and json.loads(row.redo)  # "[]" after every action
        modes.put(row.id, row.mode)
        log_start, log = log_view(rebuilt.log, since)
        timer = half_timer(row.mode, rebuilt)
        time_over = bool(timer and timer["over"])
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
            "legal": [] if time_over else legal_texts(rebuilt),
            # why a tap on another piece or square does nothing (rendered by sim_story)
            "why": why_not.reasons(game.peek, rebuilt.by_text.values() if rebuilt.by_text else ()),
            "log": log,
            "log_start": log_start,
            "can_undo": row.mode == "free" and bool(rebuilt.log),
            "can_redo": row.mode == "free" and bool(redo),
            "over": bool(game.is_over) or time_over,
            "half_timer": timer,
            "first_half": row.first_half,  # a second half's first: the match strip reads it
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
        lesson: str | None = None,
        first_half: str | None = None,
        owner: str | None = None,
        action: str | None = None,
        table: tuple[int, str] | None = None,
    ) -> dict[str, Any]:
        """Store a new game and answer its state; with `action`, the game is stored with
        that first action already played (the browser stores a game at its first action,
        issue 30 item 8): an illegal one stores nothing."""
        head, rebuilt = self._new(position, mode, computer_side, title, ruleset, computer_level)
        actions: list[str] = []
        if action is not None:
            rebuilt = self._first(head, rebuilt, action)
            actions = [action.strip()]
        row = WebGame(
            id=uuid.uuid4().hex[:12],
            title=head.title,
            mode=head.mode,
            computer_side=head.computer_side,
            computer_level=head.computer_level,
            lesson=lesson,  # a learn game (ball.games.ball.web.learn_games), kept out of recent()
            first_half=first_half,  # `next_half`'s link, read by `match_halves`
            owner=owner,  # the address whose quota counts it (ball.web.api.game_quota)
            # a desk table's half 2: its event and device key (`ball.games.ball.web.tables`)
            desk_event=table[0] if table else None,
            device_key=table[1] if table else "",
            initial=json.dumps(rebuilt.snapshots[0][1].to_json()),
            actions=json.dumps(actions),
            redo="[]",
            version=len(actions),
        )
        if row.mode == "computer":
            self._searchable()
        with self._writing, self.sessions() as session:
            session.add(row)
            session.commit()
            heads.put(GameHead.of(row))
            rebuilt_games.put((row.id, row.version), rebuilt)
        if row.first_half is not None:  # a match's half 2: its live board moves on to it
            signals.changed("ball", row.first_half)
        if row.mode == "computer":  # the computer may act now: searched outside the lock
            self._computer_turns(row.id)
            return self.state(row.id)
        return self._state(row, rebuilt)

    def preview(
        self,
        position: dict[str, Any] | None = None,
        mode: str = "free",
        computer_side: str | None = None,
        title: str = "",
        ruleset: str | None = None,
        *,
        computer_level: str | None = None,
    ) -> dict[str, Any]:
        """The state a new game would have, stored nowhere (its `id` is empty): the page
        shows it, and stores the game with its first action (`create(..., action=)`)."""
        head, rebuilt = self._new(position, mode, computer_side, title, ruleset, computer_level)
        state = self._state(head, rebuilt)
        modes.drop(head.id)
        return state

    def _new(
        self,
        position: dict[str, Any] | None,
        mode: str,
        computer_side: str | None,
        title: str,
        ruleset: str | None,
        computer_level: str | None,
    ) -> tuple[GameHead, Rebuilt]:
        """A new game's checked settings (as an unstored head, id "") and its position."""
        if mode not in MODES:
            raise GameError(f"mode: must be one of {', '.join(MODES)}, not {mode!r}")
        if (why := too_long(title, "title")) is not None:
            raise GameError(why)
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
        head = GameHead("", title[:200], mode, computer_side, computer_level, 0, "[]")
        return head, Rebuilt(game, [], ((0, game.copy()),))

    def _first(self, head: GameHead, rebuilt: Rebuilt, action: str) -> Rebuilt:
        """`rebuilt` after the player's first action, checked before anything is stored."""
        if not isinstance(action, str) or not action.strip():
            raise GameError("action: give one action in spec 18.1 notation, e.g. G7-H8")
        if head.mode == "computer" and rebuilt.game.actor == head.computer_side:
            raise GameConflict(f"action: the computer ({head.computer_side}) acts first")
        game = rebuilt.game.copy()
        try:
            entry = apply_logged(game, action.strip(), 1)
        except IllegalAction as exc:
            raise GameError(f"illegal action {action.strip()!r}: {exc}") from exc
        return rebuilt.extended(game, entry)

    def _save(self, session: Session, row: WebGame, actions: list[str], redo: list[str]) -> None:
        """Write the new action list only if nobody else changed the game meanwhile."""
        values = {
            "actions": json.dumps(actions),
            "redo": json.dumps(redo),
            "version": row.version + 1,
        }
        # One Core statement built once (its compiled form is cached): the ORM-enabled
        # UPDATE re-coerced its clauses on every action (issue 15). It counts the rows it
        # changed, so a concurrent change is seen.
        result = session.connection().execute(
            _SAVE,
            {
                "game_id": row.id,
                "seen": row.version,
                "new_actions": values["actions"],
                "new_redo": values["redo"],
                "new_version": values["version"],
            },
        )
        if result.rowcount != 1:
            session.rollback()
            raise GameConflict(f"game {row.id!r} was changed by someone else; reload it")
        session.commit()
        for name, value in values.items():  # what was just written, without reading it back
            set_committed_value(row, name, value)
        heads.put(GameHead.of(row))
        signals.changed("ball", row.first_half or row.id)  # its live board, if followed

    def apply(
        self,
        game_id: str,
        action: str,
        expected_version: int | None = None,
        since: int | None = None,
    ) -> tuple[dict[str, Any], LogEntry]:
        if not isinstance(action, str) or not action.strip():
            raise GameError("action: give one action in spec 18.1 notation, e.g. G7-H8")
        with self._writing:
            done = self._apply_known(game_id, action.strip(), expected_version, since)
            if done is not None:
                return done
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id, lock=True)
            if expected_version is not None and expected_version != row.version:
                raise GameConflict(
                    f"game {game_id!r} is at version {row.version}, not {expected_version}"
                )
            rebuilt = self._rebuilt(row)
            refuse_after_time(row.mode, rebuilt)
            if row.mode == "computer":
                self._searchable()
            game = rebuilt.game.copy()
            try:
                entry = apply_logged(game, action.strip(), len(rebuilt.log) + 1)
            except IllegalAction as exc:
                raise GameError(f"illegal action {action.strip()!r}: {exc}") from exc
            actions = [e.action for e in rebuilt.log] + [entry.action]
            self._save(session, row, actions, [])
            rebuilt = rebuilt.extended(game, entry)
            rebuilt_games.put((row.id, row.version), rebuilt)
            answer = None if row.mode == "computer" else self._state(row, rebuilt, since)
        if answer is not None:
            return answer, entry
        self._computer_turns(game_id)  # the lock is free while the computer thinks
        return self.state(game_id, since), entry

    def _apply_known(
        self, game_id: str, action: str, expected_version: int | None, since: int | None
    ) -> tuple[dict[str, Any], LogEntry] | None:
        """Apply without reading the row when this process holds the game's newest head and
        its rebuilt game (issue 15); None when it cannot tell, and the caller reads the row.

        Whatever needs the row's word (an unexpected version, an action the cached position
        refuses, a row another writer moved on) falls back, so errors are the slow path's."""
        head = heads.get(game_id)
        if self._engine is None or head is None or head.mode == "computer":
            return None
        if expected_version is not None and expected_version != head.version:
            return None
        rebuilt = rebuilt_games.get((game_id, head.version))
        if rebuilt is None or time_up(head.mode, rebuilt):
            return None
        game = rebuilt.game.copy()
        parsed = rebuilt.by_text.get(action) if rebuilt.by_text is not None else None
        try:
            entry = apply_logged(game, action, len(rebuilt.log) + 1, rebuilt.game, parsed)
        except IllegalAction:
            return None
        if not append_action(self._engine, head, action):
            heads.drop(game_id)
            return None
        head = head.advanced()
        rebuilt = rebuilt.extended(game, entry)
        rebuilt_games.put((game_id, head.version), rebuilt)
        heads.put(head)
        signals.changed("ball", head.first_half or game_id)
        return self._state(head, rebuilt, since), entry

    def _searchable(self) -> None:
        """429 before a player's action is stored if the computer could not answer it now
        (this client's searches, here or in the database's queue, are at their limit)."""
        search_work.check(self.sessions, self.client)  # `SearchesBusy` is a ComputerBusy

    def _computer_turns(self, game_id: str) -> None:
        """The computer's actions while it is its turn: a job of the database's search
        queue (`ball.games.ball.play.replies`), searched on a copy of the position without holding
        the write lock, stored by `store_reply`."""
        from ball.games.ball.play import replies as sim_replies  # it builds on this module

        sim_replies.computer_turns(self, game_id)

    def store_reply(self, game_id: str, seen: int, actions: list[str]) -> None:
        """Store the computer's `actions` searched at version `seen`, only if the game is
        still there (else they are dropped: the game moved on, or this answer was stored
        already by a worker killed before it marked its job done)."""
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id)
            if row.version != seen:
                return
            rebuilt = self._rebuilt(row)
            for action in actions:
                if time_up(row.mode, rebuilt):  # the Final Drive ended inside its reply
                    break
                game = rebuilt.game.copy()
                try:
                    entry = apply_logged(game, action, len(rebuilt.log) + 1)
                except IllegalAction:  # cannot happen for the same position; never stored
                    break
                rebuilt = rebuilt.extended(game, entry)
            if len(rebuilt.log) > len(json.loads(row.actions)):
                try:
                    self._save(session, row, [e.action for e in rebuilt.log], [])
                except GameConflict:  # another process wrote first: its write stands
                    return
                rebuilt_games.put((row.id, row.version), rebuilt)

    def next_half(self, game_id: str, owner: str | None = None) -> dict[str, Any]:
        """The game of the second half, once the first is over (ends change, D-22): made at
        the first call (counted against `owner`'s quota), the same game at every later one,
        so asking twice never stores a second copy."""
        with self.sessions() as session:
            row = self._row(session, game_id)
            rebuilt = self._rebuilt(row)
            game = rebuilt.game
            made = self._second_half_of(session, game_id)
        if not half_over(row.mode, rebuilt):
            raise GameError(f"half {game.half} of game {game_id!r} is not over yet")
        if game.half >= 2:
            raise GameError("a match has two halves; this game is already the second")
        if made is not None:
            return self.state(made)
        # the coaches change ends: the computer's coach plays the other side now
        side = {"S": "N", "N": "S"}.get(row.computer_side or "")
        return self.create(
            game.next_half().to_json(),
            row.mode,
            side,
            row.title,
            computer_level=row.computer_level,
            first_half=row.id,
            owner=owner,
            table=(row.desk_event, row.device_key) if row.desk_event is not None else None,
        )

    def second_half_made(self, game_id: str) -> bool:
        """Whether `next_half` already made the second half of `game_id`."""
        with self.sessions() as session:
            return self._second_half_of(session, game_id) is not None

    @staticmethod
    def _second_half_of(session: Session, game_id: str) -> str | None:
        # `first_half` has no index: web games are few (the quota's cap bounds them) and
        # this is read once per half.
        return session.scalar(
            select(WebGame.id).where(WebGame.first_half == game_id).order_by(WebGame.created_at)
        )

    def match_halves(self, first_id: str | None, second_id: str) -> tuple[Game, Game, str | None]:
        """Both halves of a finished simulator match and the computer's side in half 1.

        The first must be a finished half 1 and the second a finished half 2 under the same
        rules, mode and level, with the computer on the other side (ends change, D-22): the
        second may be the game `next_half` made (its first half is on record, so `first_id`
        may be None) or a half-2 position loaded in the editor (`first_id` names its first)."""
        with self.sessions() as session:
            row2 = self._row(session, second_id)
            first_id = first_id or row2.first_half
            if first_id is None:
                raise GameError(
                    f"game {second_id!r} has no first half on record; name it with ?first=ID"
                )
            row1 = self._row(session, first_id)
            rebuilt1, rebuilt2 = self._rebuilt(row1), self._rebuilt(row2)
            first, second = rebuilt1.game, rebuilt2.game
            over1, over2 = half_over(row1.mode, rebuilt1), half_over(row2.mode, rebuilt2)
            same = (row1.mode, row1.computer_level) == (row2.mode, row2.computer_level)
            switched = {row1.computer_side, row2.computer_side} in ({None}, {"S", "N"})
        if first.half != 1 or not over1:
            raise GameError(f"game {first_id!r} is not a finished first half")
        if second.half != 2 or not over2:
            raise GameError(f"game {second_id!r} is not a finished second half")
        if not (same and switched) or first.ruleset.name != second.ruleset.name:
            raise GameError(f"game {second_id!r} is not the second half of game {first_id!r}")
        return first, second, row1.computer_side

    def _expect(self, row: WebGame, expected_version: int | None) -> None:
        if expected_version is not None and expected_version != row.version:
            raise GameConflict(
                f"game {row.id!r} is at version {row.version}, not {expected_version}"
            )

    def undo(
        self, game_id: str, expected_version: int | None = None, since: int | None = None
    ) -> dict[str, Any]:
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id, lock=True)
            if row.mode != "free":
                raise GameError(f"undo is only allowed in free play; this game is {row.mode!r}")
            self._expect(row, expected_version)
            rebuilt = self._rebuilt(row)
            if not rebuilt.log:
                raise GameError("nothing to undo: the game is at its initial position")
            actions = [e.action for e in rebuilt.log]
            redo = [*json.loads(row.redo), actions.pop()]
            self._save(session, row, actions, redo)
            # from the nearest snapshot, not a replay of the whole game
            rebuilt = rebuilt.rewound(len(actions))
            rebuilt_games.put((row.id, row.version), rebuilt)
        return self._state(row, rebuilt, since)

    def redo(
        self, game_id: str, expected_version: int | None = None, since: int | None = None
    ) -> dict[str, Any]:
        with self._writing, self.sessions() as session:
            row = self._row(session, game_id, lock=True)
            if row.mode != "free":
                raise GameError(f"redo is only allowed in free play; this game is {row.mode!r}")
            self._expect(row, expected_version)
            redo = json.loads(row.redo)
            if not redo:
                raise GameError("nothing to redo")
            rebuilt = self._rebuilt(row)
            game = rebuilt.game.copy()
            entry = apply_logged(game, redo.pop(), len(rebuilt.log) + 1)
            self._save(session, row, [e.action for e in rebuilt.log] + [entry.action], redo)
            rebuilt = rebuilt.extended(game, entry)
            rebuilt_games.put((row.id, row.version), rebuilt)
        return self._state(row, rebuilt, since)

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        from sqlalchemy import select

        with self.sessions() as session:
            rows = session.scalars(
                select(WebGame)
                .where(WebGame.lesson.is_(None), WebGame.desk_event.is_(None))
                .order_by(WebGame.updated_at.desc())
                .limit(limit)
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
