"""Simulator games as a service: create, rebuild by replay, apply, undo/redo, export.

The HTTP layer (`ball.web.api`) only translates to and from these functions; every rule
question goes to `ball.engine`.

Cost (issue 15): a rebuilt game is cached per (id, version) with copies of its position
every `SNAPSHOT_EVERY` plies, so an apply or redo is one engine step and an undo replays at
most that many plies from the nearest snapshot, never the whole game. A caller that already
holds the log up to ply N asks for `since=N` and gets only the entries after it
(`log_start` says where the tail begins), so a response does not grow with the game.
"""

from __future__ import annotations

import json
import threading
import uuid
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from ball.engine import Game, IllegalAction, InvalidPosition, notation
from ball.engine.actions import Action, to_text
from ball.engine.ruleset import RulesetError, ruleset_by_name
from ball.match import why_not
from ball.match.half_timer import TurnTimer, half_turns
from ball.match.narrate import consequences, describe
from ball.match.timing import Timing
from ball.storage.text import bad_character, too_long
from ball.web import game_signals, search_work, searches
from ball.web.game_heads import GameHead, GameRow, append_action, fast_path, heads
from ball.web.models import WebGame

MODES = ("free", "play", "computer")
COMPUTER_LEVELS = ("greedy", "easy", "medium", "hard")  # ball.ai names or level aliases
SIDES = ("S", "N")
# Halves of a match end on the half timer (D-20), counted in turns (`TurnTimer`); free play
# is analysis and runs untimed, as an editor position may sit at any turn.
TIMED_MODES = ("play", "computer")


class GameError(Exception):
    """A request the game cannot serve; `status` is the HTTP status it maps to."""

    status = 400


class GameNotFound(GameError):
    status = 404


class GameConflict(GameError):
    status = 409


class BadPosition(GameError):
    status = 422


class ComputerBusy(GameError):
    """Too many computer searches queued (`ball.web.searches`): ask again later."""

    status = 429


class ComputerThinking(GameError):
    """The computer's reply is not ready within the request (another process holds its
    search): answered 202 with `view`, where to ask again (`ball.web.sim_replies`)."""

    status = 202

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__(f"the computer is still thinking; ask {view['poll']}")
        self.view = view


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


SNAPSHOT_EVERY = 16  # plies between kept positions: an undo replays fewer than this many


@dataclass
class Rebuilt:
    """A game at one version: its position, its log and copies of earlier positions.

    `snapshots` holds (ply, position after that ply) for ply 0 and every `SNAPSHOT_EVERY`th
    ply; the positions are never mutated (callers copy before applying), so versions share
    them.
    """

    game: Game
    log: list[LogEntry]
    snapshots: tuple[tuple[int, Game], ...]  # always starts with ply 0
    # the position's legal actions by their text, once an answer has listed them
    # (`legal_texts`): the next apply looks its action up instead of parsing it
    by_text: dict[str, Action] | None = field(default=None, compare=False, repr=False)
    # the ATK side as the current turn began ("" = as now): the Final Drive's extra turn
    # goes to it (D-20, `TurnTimer`); a steal may swap the roles later in the turn
    turn_attack: str = field(default="", compare=False)

    @property
    def attack_at_turn_start(self) -> str:
        return self.turn_attack or self.game.attack

    def extended(self, game: Game, entry: LogEntry) -> Rebuilt:
        """This game after `entry` (already applied to `game`, a copy of `self.game`)."""
        snapshots = self.snapshots
        if entry.ply % SNAPSHOT_EVERY == 0:
            snapshots = (*snapshots, (entry.ply, game.copy()))
        attack = game.attack if game.turn != self.game.turn else self.attack_at_turn_start
        return Rebuilt(game, [*self.log, entry], snapshots, turn_attack=attack)

    def rewound(self, plies: int) -> Rebuilt:
        """This game as it was after its first `plies` plies, replayed from the nearest
        snapshot (at most `SNAPSHOT_EVERY - 1` engine steps) instead of from the start."""
        kept = tuple(s for s in self.snapshots if s[0] <= plies)
        start, position = kept[-1]
        game = position.copy()
        for entry in self.log[start:plies]:
            game.apply(entry.action)
        return Rebuilt(game, self.log[:plies], kept)


# The text of each action tuple, remembered (issue 15): writing the texts of a position's
# 40-60 actions through the notation cost more than the rest of listing them. A plain dict
# (a look-up is a third of an lru_cache call's cost), emptied when it reaches the bound.
_TEXTS_KEPT = 1 << 16
_texts: dict[Action, str] = {}


def _new_text(action: Action) -> str:
    if len(_texts) >= _TEXTS_KEPT:
        _texts.clear()
    text = _texts[action] = to_text(action)
    return text


def legal_texts(rebuilt: Rebuilt) -> list[str]:
    """`rebuilt.game.legal_actions()`: the engine's actions as sorted texts, each text
    written once per action tuple; the actions by text are kept for the next apply."""
    actions = rebuilt.game.legal_tuples()
    known = _texts.get
    texts = [known(a) or _new_text(a) for a in actions]
    rebuilt.by_text = dict(zip(texts, actions, strict=True))
    texts.sort()
    return texts


def log_view(log: list[LogEntry], since: int | None) -> tuple[int, list[dict[str, Any]]]:
    """Where the returned log starts and its entries: all of them, or those after ply
    `since` (clamped to the log, so after an undo the tail is empty and starts at the new
    end)."""
    start = 0 if since is None else max(0, min(since, len(log)))
    return start, [entry.__dict__ for entry in log[start:]]  # read-only views, no copy


def pb_added(events: list) -> int:
    """PB an action added: the `pb` events' amounts (a reset after a steal adds 2)."""
    return sum(int(e.detail.get("amount", 1)) for e in events if e.kind == "pb")


def action_origin(action: str) -> str | None:
    """The square an action starts from (the acting piece or the stack), if it has one.

    `card NAME SQ…` starts from a square too (Second Wind, Quick Feet), so it filters by piece.
    """
    return notation.origin(action)


def _apply_logged(
    game: Game, action: str, ply: int, seen: Game | None = None, parsed: Action | None = None
) -> LogEntry:
    """Apply `action` to `game`, logged as ply `ply`. `seen` is a game at the same position
    that may be read for the narration: `Game.state` forgets the position's action list, so
    reading `game` itself would make `apply` find it again (issue 15). `parsed` is the
    action's tuple when the caller knows it (`Rebuilt.by_text`)."""
    before = (game.half, game.turn, game.actor, game.phase)
    if parsed is None:
        parsed = game.parse(action)
    try:  # told from the state before; an illegal action is refused by `apply` just below
        told = [describe((seen or game).state, parsed)]
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
    snapshots = [(0, game.copy())]
    attack = game.attack
    for ply, action in enumerate(actions, 1):
        turn = game.turn
        try:
            log.append(_apply_logged(game, action, ply))
        except IllegalAction as exc:
            raise StoredGameBroken(
                f"the stored game no longer replays: ply {ply} {action!r}: {exc}"
            ) from exc
        if ply % SNAPSHOT_EVERY == 0:
            snapshots.append((ply, game.copy()))
        if game.turn != turn:
            attack = game.attack
    return Rebuilt(game, log, tuple(snapshots), turn_attack=attack)


def half_timer(mode: str, rebuilt: Rebuilt) -> dict[str, Any] | None:
    """The half timer of a match half (`TIMED_MODES`) on its turn count: turns left, the
    Final Drive, over on time (`TurnTimer.reading`); None untimed or after a touchdown."""
    game = rebuilt.game
    if mode not in TIMED_MODES or game.is_over:
        return None
    timing = Timing.from_ruleset(game.ruleset)
    timer = TurnTimer(half_turns(timing.half_seconds, timing.turn_seconds))
    return timer.reading(game.turn, game.to_move, rebuilt.attack_at_turn_start)


def time_up(mode: str, rebuilt: Rebuilt) -> bool:
    """Whether the half ended on the half timer (its Final Drive played out)."""
    reading = half_timer(mode, rebuilt)
    return bool(reading and reading["over"])


def half_over(mode: str, rebuilt: Rebuilt) -> bool:
    """Whether the half is over: by a touchdown or on the half timer."""
    return rebuilt.game.is_over or time_up(mode, rebuilt)


def refuse_after_time(mode: str, rebuilt: Rebuilt) -> None:
    """The server's word that a half over on time takes no more actions (not only the
    page's: the API refuses them too)."""
    if time_up(mode, rebuilt):
        raise GameConflict(
            f"half {rebuilt.game.half} is over: the half timer ran out and its Final Drive "
            "was played (D-20)"
        )


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


class _Modes:
    """Each recently seen game's mode (fixed at creation), so the API can tell without a
    database read whether an action may make the computer think (a long, threaded job)."""

    def __init__(self, size: int = 4096) -> None:
        self._items: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, game_id: str) -> str | None:
        return self._items.get(game_id)

    def put(self, game_id: str, mode: str) -> None:
        with self._lock:
            self._items[game_id] = mode
            if len(self._items) > self._size:
                self._items.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._items.pop(game_id, None)


_modes = _Modes()


def known_mode(game_id: str) -> str | None:
    """The mode of game `game_id` if this process has served it, else None."""
    return _modes.get(game_id)


# One writer at a time per database: SQLite serialises writers anyway, and waiting on a
# Python lock is far cheaper (and fairer) than SQLite's busy-retry sleeps. Re-entrant, so
# the async API can take it without waiting before calling the service (`ball.web.api`).
_write_locks: dict[str, threading.RLock] = {}
_write_locks_guard = threading.Lock()


# The lock of each sessionmaker seen, so an action does not render the URL twice (issue 15).
_locks_by_maker: weakref.WeakKeyDictionary[sessionmaker, threading.RLock] = (
    weakref.WeakKeyDictionary()
)


def write_lock(sessions: sessionmaker) -> threading.RLock:
    known = _locks_by_maker.get(sessions)
    if known is not None:
        return known
    bind = sessions.kw.get("bind")
    key = str(bind.url) if bind is not None else str(id(sessions))
    with _write_locks_guard:
        lock = _locks_by_maker[sessions] = _write_locks.setdefault(key, threading.RLock())
        return lock


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
        cached = _cache.get(key)
        if cached is None:
            cached = rebuild(json.loads(row.initial), json.loads(row.actions))
            _cache.put(key, cached)
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
        _modes.put(row.id, row.mode)
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
            lesson=lesson,  # a learn game (ball.web.learn_games), kept out of recent()
            first_half=first_half,  # `next_half`'s link, read by `match_halves`
            owner=owner,  # the address whose quota counts it (ball.web.game_quota)
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
            _cache.put((row.id, row.version), rebuilt)
        if row.first_half is not None:  # a match's half 2: its live board moves on to it
            game_signals.changed("ball", row.first_half)
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
        _modes.drop(head.id)
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
            entry = _apply_logged(game, action.strip(), 1)
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
        game_signals.changed("ball", row.first_half or row.id)  # its live board, if followed

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
                entry = _apply_logged(game, action.strip(), len(rebuilt.log) + 1)
            except IllegalAction as exc:
                raise GameError(f"illegal action {action.strip()!r}: {exc}") from exc
            actions = [e.action for e in rebuilt.log] + [entry.action]
            self._save(session, row, actions, [])
            rebuilt = rebuilt.extended(game, entry)
            _cache.put((row.id, row.version), rebuilt)
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
        rebuilt = _cache.get((game_id, head.version))
        if rebuilt is None or time_up(head.mode, rebuilt):
            return None
        game = rebuilt.game.copy()
        parsed = rebuilt.by_text.get(action) if rebuilt.by_text is not None else None
        try:
            entry = _apply_logged(game, action, len(rebuilt.log) + 1, rebuilt.game, parsed)
        except IllegalAction:
            return None
        if not append_action(self._engine, head, action):
            heads.drop(game_id)
            return None
        head = head.advanced()
        rebuilt = rebuilt.extended(game, entry)
        _cache.put((game_id, head.version), rebuilt)
        heads.put(head)
        game_signals.changed("ball", head.first_half or game_id)
        return self._state(head, rebuilt, since), entry

    def _searchable(self) -> None:
        """429 before a player's action is stored if the computer could not answer it now
        (this client's searches, here or in the database's queue, are at their limit)."""
        try:
            search_work.check(self.sessions, self.client)
        except searches.SearchesBusy as exc:
            raise ComputerBusy(str(exc)) from None

    def _computer_turns(self, game_id: str) -> None:
        """The computer's actions while it is its turn: a job of the database's search
        queue (`ball.web.sim_replies`), searched on a copy of the position without holding
        the write lock, stored by `store_reply`."""
        from ball.web import sim_replies  # it builds on this module

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
                    entry = _apply_logged(game, action, len(rebuilt.log) + 1)
                except IllegalAction:  # cannot happen for the same position; never stored
                    break
                rebuilt = rebuilt.extended(game, entry)
            if len(rebuilt.log) > len(json.loads(row.actions)):
                try:
                    self._save(session, row, [e.action for e in rebuilt.log], [])
                except GameConflict:  # another process wrote first: its write stands
                    return
                _cache.put((row.id, row.version), rebuilt)

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
            _cache.put((row.id, row.version), rebuilt)
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
            entry = _apply_logged(game, redo.pop(), len(rebuilt.log) + 1)
            self._save(session, row, [e.action for e in rebuilt.log] + [entry.action], redo)
            rebuilt = rebuilt.extended(game, entry)
            _cache.put((row.id, row.version), rebuilt)
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
