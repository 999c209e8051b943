"""Stored Xiangqi games as a service: create (standard or FEN), rebuild by replay, apply a
move, let the computer move, declare an ending, export the game document and the replay.

The HTTP layer (`ball.games.xiangqi.web.api`) only translates to and from these functions; every
rule question goes to `ball.games.xiangqi.engine`, every computer move to
`ball.games.xiangqi.ai.search`.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from ball import device_key
from ball.games.xiangqi.ai.search import LEVELS, move_text
from ball.games.xiangqi.engine import (
    Color,
    Ending,
    Game,
    Position,
    XiangqiError,
    agreement,
    resignation,
)
from ball.games.xiangqi.engine.game import DOCUMENT_FORMAT
from ball.games.xiangqi.web import notation as xiangqi_notation
from ball.play import search_work, searches
from ball.play import signals as game_signals
from ball.play.errors import GameConflict, GameError, GameNotFound
from ball.play.write_locks import write_lock
from ball.storage.ids import in_range, parse_id
from ball.storage.text import bad_character, too_long
from ball.web.core.models import XiangqiGameRow

MODES = ("hotseat", "computer")
# Endings a player or the arbiter declares from the page (seed 4.1.9, 4.2.2).
DECLARATIONS = ("resign-red", "resign-black", "agreement")


class BadRequest(GameError):
    """Bad input in the request body (a FEN, a mode, a notation): 422 naming it."""

    status = 422


def game_id(text: str) -> int:
    """The id a path names (ASCII digits in the id range), else 404: no such game."""
    value = parse_id(text)
    if value is None or not in_range(value):
        raise GameNotFound(f"Xiangqi game {text!r} does not exist")
    return value


def _ending_json(ending: Ending | None) -> dict[str, str] | None:
    if ending is None:
        return None
    return {
        "result": ending.result,
        "reason": str(ending.reason),
        "article": ending.article,
        "detail": ending.detail,
    }


def _document(row: XiangqiGameRow) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": DOCUMENT_FORMAT,
        "start": row.start,
        "moves": json.loads(row.moves),
    }
    if row.ending:
        doc["ending"] = json.loads(row.ending)
    return doc


def rebuild(row: XiangqiGameRow) -> Game:
    try:
        return Game.from_document(_document(row))
    except XiangqiError as exc:
        raise GameConflict(f"Xiangqi game {row.id} no longer replays: {exc}") from None


def _key(row: XiangqiGameRow) -> tuple[int, int, str]:
    """A row's cache key. Its creation time too: SQLite may give a deleted game's id to a
    new game (`ball.web.api.game_quota` prunes games), which must not find the old one."""
    return (row.id, row.version, str(row.created_at))


class GameCache:
    """Recently rebuilt games of ONE database by (id, version); callers copy before they
    change one. Ids are row numbers, so each app (database) keeps its own cache."""

    def __init__(self, size: int = 128) -> None:
        self._items: OrderedDict[tuple[int, int, str], Game] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, row: XiangqiGameRow) -> Game:
        key = _key(row)
        with self._lock:
            game = self._items.get(key)
            if game is not None:
                self._items.move_to_end(key)
                return game
        game = rebuild(row)
        self.put(row, game)
        return game

    def put(self, row: XiangqiGameRow, game: Game) -> None:
        with self._lock:
            self._items[_key(row)] = game
            while len(self._items) > self._size:
                self._items.popitem(last=False)


def _copy(game: Game) -> Game:
    out = Game(game.start)
    out.moves = list(game.moves)
    out.positions = list(game.positions)
    out.declared = game.declared
    return out


def pieces(position: Position) -> dict[str, str]:
    """Square name → FEN letter (Red upper case) of every piece."""
    from ball.games.xiangqi.engine import square_name

    found = {**position.pieces(Color.RED), **position.pieces(Color.BLACK)}
    return {square_name(sq): piece.symbol for sq, piece in sorted(found.items())}


def state(row: XiangqiGameRow, game: Game, notation: str = "iccs") -> dict[str, Any]:
    """The game as the page and API clients read it."""
    from ball.games.xiangqi.engine import square_name

    write = xiangqi_notation.writer(notation)
    pos = game.position
    ending = game.outcome()
    moves = [
        {"ply": i, "iccs": m.iccs(), "text": write(before, m), "by": str(before.turn)}
        for i, (before, m) in enumerate(zip(game.positions, game.moves, strict=False), 1)
    ]
    return {
        "id": row.id,
        "title": row.title,
        "mode": row.mode,
        "computer": row.computer,
        "level": row.level,
        "version": row.version,
        "start": game.start_fen,
        "fen": pos.fen(),
        "turn": str(pos.turn),
        "pieces": pieces(pos),
        "legal": [] if ending else sorted(m.iccs() for m in pos.legal_moves()),
        "check": pos.in_check(),
        "king": square_name(pos.king_square(pos.turn)),
        "last": game.moves[-1].iccs() if game.moves else None,
        "moves": moves,
        "notation": notation,
        "notations": xiangqi_notation.available(),
        "over": ending is not None,
        "ending": _ending_json(ending),
    }


def start_position(fen: str | None) -> Position:
    if fen is None or not fen.strip():
        return Position.start()
    try:
        return Position.from_fen(fen)
    except XiangqiError as exc:
        raise BadRequest(f"fen: {exc}") from None


class XiangqiStore:
    """Xiangqi games of one database (`sessions` is the app's sessionmaker)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        cache: GameCache | None = None,
        client: str = "local",
    ) -> None:
        self.sessions = sessions
        self.client = client  # whose queue the computer's searches wait in (an address)
        self._writing = write_lock(sessions)
        self._cache = cache if cache is not None else GameCache()

    def _row(self, session: Session, text: str, *, lock: bool = False) -> XiangqiGameRow:
        row = session.get(XiangqiGameRow, game_id(text), with_for_update=lock)
        if row is None:
            raise GameNotFound(f"Xiangqi game {text!r} does not exist")
        return row

    def state(self, text: str, notation: str = "iccs") -> dict[str, Any]:
        _check_notation(notation)
        with self.sessions() as session:
            row = self._row(session, text)
            return state(row, self._cache.get(row), notation)

    def document(self, text: str) -> dict[str, Any]:
        with self.sessions() as session:
            return self._cache.get(self._row(session, text)).to_document()

    def create(
        self,
        fen: str | None = None,
        mode: str = "hotseat",
        computer: str | None = None,
        level: str | None = None,
        title: str = "",
        *,
        owner: str | None = None,
        move: str | None = None,
        notation: str = "iccs",
    ) -> dict[str, Any]:
        """Store a new game and answer its state; with `move`, the game is stored with that
        first move played (the page stores a game at its first move, issue 30 item 8): an
        illegal one stores nothing."""
        row = self._new(fen, mode, computer, level, title)
        if move is not None:
            _check_notation(notation)
            game = Game(Position.from_fen(row.start))
            if row.mode == "computer" and str(game.position.turn) == row.computer:
                raise GameConflict(f"move: the computer ({row.computer}) moves first")
            _push(game, move.strip(), notation)
            row.moves = json.dumps(game.to_document()["moves"])
            row.version = 1
        row.owner = owner
        if row.mode == "computer":
            self._searchable()
        with self._writing, self.sessions() as session:
            session.add(row)
            session.commit()
            game_id = str(row.id)
        self._computer_reply(game_id)
        return self.state(game_id, notation)

    def preview(
        self,
        fen: str | None = None,
        mode: str = "hotseat",
        computer: str | None = None,
        level: str | None = None,
        title: str = "",
    ) -> dict[str, Any]:
        """The state a new game would have, stored nowhere (its `id` is null)."""
        row = self._new(fen, mode, computer, level, title)
        row.version = 0
        return state(row, Game(Position.from_fen(row.start)))

    def _new(
        self, fen: str | None, mode: str, computer: str | None, level: str | None, title: str
    ) -> XiangqiGameRow:
        """A new game's checked settings, as a row not stored yet."""
        if mode not in MODES:
            raise BadRequest(f"mode: must be one of {', '.join(MODES)}, not {mode!r}")
        if (why := too_long(title, "title")) is not None:
            raise BadRequest(why)
        if (char := bad_character(title)) is not None:
            raise BadRequest(f"title: one line of text, without U+{ord(char):04X}")
        if mode == "computer":
            computer = computer or "black"
            if computer not in ("red", "black"):
                raise BadRequest(f"computer: must be red or black, not {computer!r}")
            level = level or "easy"
            if level not in LEVELS:
                raise BadRequest(f"level: must be one of {', '.join(LEVELS)}, not {level!r}")
        else:
            computer = level = None
        start = start_position(fen)
        return XiangqiGameRow(
            title=title[:200], mode=mode, computer=computer, level=level, start=start.fen()
        )

    def _save(self, session: Session, row: XiangqiGameRow, game: Game) -> None:
        """Write the move list (and ending) only if nobody changed the game meanwhile."""
        doc = game.to_document()
        values: dict[str, Any] = {
            "moves": json.dumps(doc["moves"]),
            "ending": json.dumps(doc["ending"]) if "ending" in doc else None,
            "version": row.version + 1,
        }
        result: CursorResult[Any] = session.execute(  # type: ignore[assignment]
            update(XiangqiGameRow)
            .where(XiangqiGameRow.id == row.id, XiangqiGameRow.version == row.version)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount != 1:
            session.rollback()
            raise GameConflict(f"Xiangqi game {row.id} was changed by someone else; reload it")
        session.commit()
        for name, value in values.items():
            set_committed_value(row, name, value)
        self._cache.put(row, game)
        game_signals.changed("xiangqi", str(row.id))  # live boards followed wake now

    def _locked_row(
        self, session: Session, text: str, expected_version: int | None
    ) -> XiangqiGameRow:
        """The row held until the transaction ends (`FOR UPDATE` on PostgreSQL, where
        other processes write too; `GameStore._row` in `ball.games.ball.play.store`)."""
        row = self._row(session, text, lock=True)
        if expected_version is not None and expected_version != row.version:
            raise GameConflict(
                f"Xiangqi game {row.id} is at version {row.version}, not {expected_version}"
            )
        return row

    def play(
        self,
        text: str,
        move_text: str,
        notation: str = "iccs",
        expected_version: int | None = None,
    ) -> dict[str, Any]:
        """Apply the move `move_text` (in `notation`); in a game against the computer, the
        computer answers at once."""
        _check_notation(notation)
        with self._writing, self.sessions() as session:
            row = self._locked_row(session, text, expected_version)
            game = _copy(self._cache.get(row))
            _check_not_over(row, game)
            if row.mode == "computer" and str(game.position.turn) == row.computer:
                raise GameConflict(f"it is the computer's move ({row.computer})")
            if row.mode == "computer":
                self._searchable()
            _push(game, move_text.strip(), notation)
            self._save(session, row, game)
        self._computer_reply(text)  # the lock is free while the computer thinks
        return self.state(text, notation)

    def computer_move(
        self, text: str, level: str | None = None, expected_version: int | None = None
    ) -> dict[str, Any]:
        """The computer plays the side to move (a hint taken, or a hot-seat side handed to
        it) at `level` (default: the game's level, else easy)."""
        with self.sessions() as session:
            row = self._locked_row(session, text, expected_version)
            level = level or row.level or "easy"
            if level not in LEVELS:
                raise BadRequest(f"level: must be one of {', '.join(LEVELS)}, not {level!r}")
            game = self._cache.get(row)
            _check_not_over(row, game)
            seen = row.version
        move = self._search(game, level)
        with self._writing, self.sessions() as session:
            row = self._locked_row(session, text, seen)
            game = _copy(self._cache.get(row))
            _push_searched(game, move)
            self._save(session, row, game)
            return state(row, self._cache.get(row))

    def _searchable(self) -> None:
        """429 before a move is stored if the computer could not answer it now."""
        search_work.check(self.sessions, self.client)  # `SearchesBusy` is a ComputerBusy

    def _search(self, game: Game, level: str) -> str:
        """The computer's move in `game` at `level`, searched in the search pool on the
        position's FEN, holding no lock (`ball.play.searches`)."""
        move = searches.pool.run(  # `SearchesBusy` when the pool is full: a ComputerBusy
            self.client, move_text, game.position.fen(), level, len(game.moves)
        )
        if move is None:  # the game is over on the board; outcome() said so already
            raise GameConflict("the side to move has no legal move")
        return move

    def declare(
        self, text: str, declaration: str, expected_version: int | None = None
    ) -> dict[str, Any]:
        """End the game off the board: a resignation (4.1.9) or a draw agreed (4.2.2)."""
        endings = {
            "resign-red": lambda: resignation(Color.RED),
            "resign-black": lambda: resignation(Color.BLACK),
            "agreement": agreement,
        }
        if declaration not in endings:
            raise BadRequest(
                f"ending: must be one of {', '.join(DECLARATIONS)}, not {declaration!r}"
            )
        with self._writing, self.sessions() as session:
            row = self._locked_row(session, text, expected_version)
            game = _copy(self._cache.get(row))
            _check_not_over(row, game)
            game.declare(endings[declaration]())
            self._save(session, row, game)
            return state(row, self._cache.get(row))

    def _computer_reply(self, text: str) -> None:
        """The computer's move when it is its turn in a game against it: a job of the
        database's search queue (`ball.games.xiangqi.web.replies`)."""
        from ball.games.xiangqi.web import replies as xiangqi_replies  # it builds on this module

        xiangqi_replies.computer_reply(self, text)

    def store_reply(self, text: str, seen: int, move: str | None) -> None:
        """Store the computer's `move` searched at version `seen`, only if the game is still
        there (else dropped: someone moved it on, or it was stored already)."""
        if move is None:  # no legal move: the game is over on the board
            return
        with self._writing, self.sessions() as session:
            row = self._row(session, text)
            if row.version != seen:
                return
            game = _copy(self._cache.get(row))
            _push_searched(game, move)
            try:
                self._save(session, row, game)
            except GameConflict:  # another process wrote first: its write stands
                return

    def _table_row(
        self, session: Session, event: int, round_: int, table: int
    ) -> XiangqiGameRow | None:
        return session.scalars(
            select(XiangqiGameRow).where(
                XiangqiGameRow.desk_event == event,
                XiangqiGameRow.desk_round == round_,
                XiangqiGameRow.desk_table == table,
            )
        ).first()

    def for_table(self, event: int, round_: int, table: int, title: str) -> int:
        """The id of the hot-seat game recorded for an event's table, created on first use
        from the standard position (a table's game starts there; Red is player A)."""
        with self._writing, self.sessions() as session:
            row = self._table_row(session, event, round_, table)
            if row is None:
                row = XiangqiGameRow(
                    title=title[:200],
                    mode="hotseat",
                    start=Position.start().fen(),
                    desk_event=event,
                    desk_round=round_,
                    desk_table=table,
                    device_key=device_key.new_key(),
                )
                session.add(row)
                try:
                    session.commit()
                except IntegrityError:  # another server process made it first (unique key)
                    session.rollback()
                    row = self._table_row(session, event, round_, table)
                    if row is None:
                        raise
            return row.id

    def table_link(self, event: int, round_: int, table: int) -> str | None:
        """The board's link with the table's device key, for the desk to hand the table's
        tablet (`/xiangqi/ID#key=...`); None before "Record the game" made the game."""
        with self.sessions() as session:
            row = self._table_row(session, event, round_, table)
            return None if row is None else f"/xiangqi/{row.id}#key={row.device_key}"

    def table_access(self, text: str) -> tuple[int, str] | None:
        """(event, device key) of a game the desk opened for a table, None for a free game:
        who may write it is the web layer's question (the desk session or that key)."""
        with self.sessions() as session:
            row = self._row(session, text)
            return None if row.desk_event is None else (row.desk_event, row.device_key)

    def table_ending(self, event: int, round_: int, table: int) -> dict[str, Any] | None:
        """How the game recorded for a table ended on the board (with its move count), or
        None when no game is recorded or it is not over."""
        with self.sessions() as session:
            row = self._table_row(session, event, round_, table)
            if row is None:
                return None
            game = self._cache.get(row)
            ending = _ending_json(game.outcome())
            if ending is None:
                return None
            # The form counts moves as Xiangqi scoresheets do: one per Red-Black pair (D-Y1).
            return {**ending, "id": row.id, "moves": (len(game.moves) + 1) // 2}

    def replay(self, text: str) -> dict[str, Any]:
        with self.sessions() as session:
            row = self._row(session, text)
            return replay_view(self._cache.get(row), row.title)

    def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        with self.sessions() as session:
            rows = session.scalars(
                # The public list holds free games only: a table's game is the desk's.
                select(XiangqiGameRow)
                .where(XiangqiGameRow.desk_event.is_(None))
                .order_by(XiangqiGameRow.updated_at.desc())
                .limit(limit)
            ).all()
            return [
                {
                    "id": r.id,
                    "title": r.title,
                    "mode": r.mode,
                    "plies": len(json.loads(r.moves)),
                    "updated_at": r.updated_at.isoformat() if r.updated_at else None,
                }
                for r in rows
            ]


def _check_not_over(row: XiangqiGameRow, game: Game) -> None:
    ending = game.outcome()
    if ending is not None:
        raise GameConflict(
            f"Xiangqi game {row.id} is over: {ending.result}, {ending.reason} ({ending.detail})"
        )


def _check_notation(name: str) -> None:
    try:
        xiangqi_notation.check(name)
    except XiangqiError as exc:
        raise BadRequest(str(exc)) from None


def _push(game: Game, move_text: str, notation: str) -> None:
    try:
        move = xiangqi_notation.read(game.position, move_text, notation)
        game.push(move)
    except XiangqiError as exc:
        raise GameError(f"move {move_text!r}: {exc}") from None


def _push_searched(game: Game, iccs: str) -> None:
    """Play the computer's move (ICCS) found on this very position."""
    game.push(xiangqi_notation.read(game.position, iccs, "iccs"))


def replay_view(game: Game, title: str = "") -> dict[str, Any]:
    """Every position of a game for the replay viewer: FENs, pieces, moves, the ending."""
    frames = [{"fen": p.fen(), "pieces": pieces(p), "check": p.in_check()} for p in game.positions]
    return {
        "title": title,
        "start": game.start_fen,
        "moves": [m.iccs() for m in game.moves],
        "frames": frames,
        "ending": _ending_json(game.outcome()),
    }


def replay_document(doc: object) -> dict[str, Any]:
    """A game document (`ball-xiangqi-game/1`) read into the replay view."""
    try:
        return replay_view(Game.from_document(doc))
    except XiangqiError as exc:
        raise BadRequest(f"document: {exc}") from None


def replay_pgn(text: str) -> dict[str, Any]:
    """A Xiangqi PGN record (`ball.games.xiangqi.engine.pgn`) replayed into the replay view; a fault
    is a 400 naming its line and column."""
    from ball.games.xiangqi.engine import pgn

    try:
        game = pgn.read(text).game()
    except XiangqiError as exc:
        raise BadRequest(f"pgn: {exc}") from None
    return replay_view(game)


def explain(fen: str, frm: str, to: str | None) -> dict[str, str] | None:
    """Why the piece on `frm` in `fen` cannot move (to `to`), for a tap that did nothing
    (`ball.games.xiangqi.engine.explain`); None when it can. A bad FEN or square is a 422
    naming it."""
    from ball.games.xiangqi.engine.explain import why_not

    try:
        position = Position.from_fen(fen)
    except XiangqiError as exc:
        raise BadRequest(f"fen: {exc}") from None
    try:
        refusal = why_not(position, frm, to)
    except XiangqiError as exc:
        raise BadRequest(f"square: {exc}") from None
    return None if refusal is None else refusal.to_json()
