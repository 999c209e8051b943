"""Xiangqi PGN: reading and writing game records (tags, moves in ICCS, WXF or Chinese,
comments, the arbiter's rulings), and replaying a record through the engine.

The layout follows the PGN convention of Xiangqi programs: `[Game "Chinese Chess"]`, the tags
`Event`, `Site`, `Date`, `Round`, `RedTeam`, `Red`, `BlackTeam`, `Black`, `Result`, `FEN` and
`Format` (`ICCS`, `WXF` or `Chinese`), then numbered moves (`1. h2e2 h9g7`), `{comments}` and
the result. A ruling is a comment `{ruling: RESULT REASON DETAIL}` after the move it rules
on (`record.rulings`); an optional `[Ruling "RESULT REASON DETAIL"]` tag is read the same way.
The arbiter's log goes in as comments `{log: H:MM:SS SIDE KIND …}`
(`ball.games.xiangqi.engine.gamelog`). Reading checks the syntax and names the line and column of
every fault, like `.bgn` (`ball.games.ball.match.record`); `XiangqiRecord.game()` replays the moves
and names the first one that cannot be read or is illegal.

Published archives are read as they are: `decode` takes the file's bytes (UTF-8 with or
without a byte-order mark, else GB18030, the superset of GBK and GB2312);
full-width forms (`Ｃ２＝５`, `１．`) read as ASCII; a record without a result marker is read
with the `Result` tag's result, else `*`, and text after the result (a footer) is ignored;
each of these leaves a line in `record.warnings`, never a refusal. One size limit,
`MAX_CHARS`, holds for every reader of a record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ball.tag_lexer import TagLexer, Token

from . import notation as _notation
from .errors import XiangqiError
from .fen import START_FEN
from .game import Game
from .gamelog import LogEntry, LogState, entry_line, fold, parse_entry
from .notation import Notation, halfwidth
from .position import Position
from .repetition import Ruling
from .rules import XiangqiRules

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# Tags written first, in this order; any other tag follows in the order it was given.
TAG_ORDER = (
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "RedTeam",
    "Red",
    "BlackTeam",
    "Black",
    "Result",
    "FEN",
    "Format",
    "Ruling",
)
FORMAT_OF_TAG = {"ICCS": Notation.ICCS, "WXF": Notation.WXF, "CHINESE": Notation.CHINESE}
TAG_OF_FORMAT = {Notation.ICCS: "ICCS", Notation.WXF: "WXF", Notation.CHINESE: "Chinese"}
RULING_PREFIX = "ruling:"
LOG_PREFIX = "log:"
_REASON_RE = re.compile(r"[a-z0-9][a-z0-9.\-]*")
_MOVE_NUMBER_RE = re.compile(r"(\d+)\.(\.\.)?")
_NAG_RE = re.compile(r"\$\d{1,3}")
MAX_MOVES = 2000
# The longest record text any reader takes (command line, web): a long game with comments
# is a few tens of thousands of characters.
MAX_CHARS = 1_000_000


class PgnError(XiangqiError):
    """A record that cannot be read or replayed; says where (line, column) and why."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"line {line}, column {column}: {reason}")
        self.line = line
        self.column = column
        self.reason = reason


def parse_ruling(text: str) -> dict[str, str]:
    """`RESULT REASON DETAIL…` → {"result", "reason", "detail"}; XiangqiError if malformed.
    RESULT is 1-0, 0-1, 1/2-1/2 or * (a ruling that does not end the game, such as an order
    to change a forbidden repetition); REASON one word (`perpetual-check`, `4.1.7`)."""
    parts = text.split(None, 2)
    if len(parts) < 2:
        raise XiangqiError(f"ruling {text!r} needs RESULT and REASON")
    result, reason = parts[0], parts[1]
    if result not in RESULTS:
        raise XiangqiError(f"ruling result {result!r} is not 1-0, 0-1, 1/2-1/2 or *")
    if not _REASON_RE.fullmatch(reason):
        raise XiangqiError(f"ruling reason {reason!r} must be one lower-case word")
    return {"result": result, "reason": reason, "detail": parts[2] if len(parts) > 2 else ""}


def ruling_text(ruling: dict[str, Any]) -> str:
    return " ".join(str(ruling[k]) for k in ("result", "reason", "detail") if ruling.get(k))


@dataclass
class XiangqiRecord:
    """A game record. `moves` hold the texts in the record's notation; `comments[k]` is the
    comment after the k-th move (0: before the first); each ruling dict has `ply` (the move
    it follows, None for the `Ruling` tag), `result`, `reason` and `detail`."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    rulings: list[dict[str, Any]] = field(default_factory=list)
    # The arbiter's log written into the record: (the move it follows, the entry).
    log: list[tuple[int, LogEntry]] = field(default_factory=list)
    result: str = "*"
    # Where each move stood in the text that was read (line, column); empty when built.
    places: list[tuple[int, int]] = field(default_factory=list, compare=False)
    # What reading passed over: a missing result, a footer after it (line, column, why).
    warnings: list[str] = field(default_factory=list, compare=False)

    @property
    def notation(self) -> Notation:
        """The `Format` tag's notation; without the tag, the first move's (ICCS if none)."""
        if "Format" in self.tags:
            return FORMAT_OF_TAG[self.tags["Format"].upper()]
        return _notation.detect(self.moves[0]) if self.moves else Notation.ICCS

    @property
    def start(self) -> Position:
        return Position.from_fen(self.tags.get("FEN", START_FEN))

    def _where(self, k: int) -> tuple[int, int]:
        return self.places[k] if k < len(self.places) else (0, 0)

    def game(self) -> Game:
        """Replay the moves through the engine; PgnError names the first bad one."""
        game = Game(self.start)
        # Many records in the wild have no Format tag: each move's notation is then detected.
        fmt = self.notation if "Format" in self.tags else None
        for k, text in enumerate(self.moves):
            mover = game.position.turn
            try:
                game.push(_notation.read(game.position, text, fmt))
            except XiangqiError as exc:
                number = game.position.fullmove
                line, column = self._where(k)
                raise PgnError(line, column, f"move {number} ({mover}) {text}: {exc}") from None
        return game

    def log_state(self, rules: XiangqiRules | None = None) -> LogState:
        """The arbiter's log of this record folded (`ball.games.xiangqi.engine.gamelog`)."""
        return fold((entry for _, entry in self.log), rules)

    def add_ruling(self, result: str, reason: str, detail: str = "", ply: int | None = -1) -> None:
        """Record an arbiter's ruling after move `ply` (default: the last move; None: as the
        `Ruling` tag)."""
        ruling: dict[str, Any] = dict(
            parse_ruling(" ".join(p for p in (result, reason, detail) if p))
        )
        ruling["ply"] = len(self.moves) if ply == -1 else ply
        if ruling["ply"] is None:
            # One Ruling tag, listed first, as reading a record lists it.
            self.tags["Ruling"] = ruling_text(ruling)
            self.rulings = [r for r in self.rulings if r.get("ply") is not None]
            self.rulings.insert(0, ruling)
        else:
            self.rulings.append(ruling)

    def add_repetition_ruling(self, ruling: Ruling) -> None:
        """Write a repetition ruling (`ball.games.xiangqi.engine.repetition`) after the last move:
        the verdict, the article, the side told to change and the cycle's plies, so the record
        carries what the arbiter was advised (X-25's grammar, reason `repetition`)."""
        if ruling.verdict not in ("draw", "loss", "must-change"):
            raise XiangqiError(f"no repetition ruling to record ({ruling.reason})")
        parts = [ruling.verdict, f"art.{ruling.article}", f"rules:{ruling.rules}"]
        if ruling.must_change is not None:
            parts.append(f"change:{ruling.must_change}")
        if ruling.cycle:
            parts.append(f"plies:{ruling.cycle[0].ply}-{ruling.cycle[-1].ply}")
        parts += [f"{side.color}:{side.label.replace(' ', '-')}" for side in ruling.sides]
        self.add_ruling(ruling.result, "repetition", " ".join(parts))

    def converted(self, fmt: str | Notation) -> XiangqiRecord:
        """The same record with its moves written in another notation."""
        notation = Notation(str(fmt).lower())
        game = self.game()
        texts = _texts(game, notation)
        tags = dict(self.tags)
        tags["Format"] = TAG_OF_FORMAT[notation]
        return XiangqiRecord(
            tags, texts, dict(self.comments), list(self.rulings), list(self.log), self.result
        )


def _texts(game: Game, notation: Notation) -> list[str]:
    pairs = zip(game.positions, game.moves, strict=False)
    return [_notation.write(p, m, notation) for p, m in pairs]


def from_game(
    game: Game, fmt: str | Notation = Notation.ICCS, tags: dict[str, str] | None = None
) -> XiangqiRecord:
    """A record of `game` with its moves in notation `fmt`."""
    notation = Notation(str(fmt).lower())
    all_tags = {"Game": "Chinese Chess", **(tags or {})}
    all_tags["Format"] = TAG_OF_FORMAT[notation]
    if game.start_fen != START_FEN:
        all_tags["FEN"] = game.start_fen
    texts = _texts(game, notation)
    result = all_tags.pop("Result", "*")  # kept as record.result, written as the tag
    return XiangqiRecord(all_tags, texts, result=result)


# --- writing ---------------------------------------------------------------------------------


def _escape(value: str) -> str:
    if "\n" in value or "\r" in value:
        raise XiangqiError(f"a tag value is one line: {value!r}")
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    if "}" in text:
        raise XiangqiError(f"a comment cannot hold '}}': {text!r}")
    return "{" + text + "}"


def _ordered_tags(tags: dict[str, str]) -> list[tuple[str, str]]:
    first = [(k, tags[k]) for k in TAG_ORDER if k in tags]
    return first + [(k, v) for k, v in tags.items() if k not in TAG_ORDER]


def write_pgn(record: XiangqiRecord) -> str:
    """The PGN text of `record` (canonical layout: one move pair per line)."""
    tags = dict(record.tags)
    tags.setdefault("Game", "Chinese Chess")
    tags["Result"] = record.result
    lines = [f'[{name} "{_escape(value)}"]' for name, value in _ordered_tags(tags)]
    lines.append("")
    start = record.start
    after: dict[int, list[str]] = {}
    for k, text in record.comments.items():
        after.setdefault(k, []).append(_comment(text))
    for ply, entry in record.log:
        after.setdefault(ply, []).append(_comment(f"{LOG_PREFIX} {entry_line(entry)}"))
    for ruling in record.rulings:
        if ruling.get("ply") is not None:
            text = _comment(f"{RULING_PREFIX} {ruling_text(ruling)}")
            after.setdefault(ruling["ply"], []).append(text)
    if after.get(0):
        lines.append(" ".join(after[0]))
    side, number = start.turn.side, start.fullmove
    line: list[str] = []
    for k, text in enumerate(record.moves, 1):
        if side == 0 or not line:
            if line:
                lines.append(" ".join(line))
            line = [f"{number}." if side == 0 else f"{number}..."]
        line.append(text)
        line.extend(after.get(k, []))
        number += side
        side = 1 - side
    line.append(record.result)
    lines.append(" ".join(line))
    return "\n".join(lines) + "\n"


# --- reading ---------------------------------------------------------------------------------


class _Lexer(TagLexer):
    """The PGN scanner: tag pairs, comments (white space folded), `;` rest-of-line comments
    and a byte-order mark skipped; parentheses (variations) are refused."""

    def __init__(self, text: str) -> None:
        super().__init__(text, PgnError)
        self.footer: Token | None = None  # where text after the result begins

    def tokens(self) -> list[Token]:
        """The tokens up to and including the result; what follows it is not scanned (a
        footer may hold anything), only its first word kept in `footer`."""
        out: list[Token] = []
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                return out
            if out and out[-1].kind == "word" and halfwidth(out[-1].text) in RESULTS:
                line, column = self.line, self.column
                self.footer = self.word(line, column, "")
                return out
            out.append(self.token())

    def skip_space(self) -> None:
        while self.peek() and (self.peek().isspace() or self.peek() == "\ufeff"):
            self.advance()
        if self.peek() == ";":  # a PGN rest-of-line comment
            while self.peek() and self.peek() != "\n":
                self.advance()
            self.skip_space()

    def token(self) -> Token:
        line, column = self.line, self.column
        ch = self.peek()
        if ch == "[":
            return self.tag(line, column)
        if ch == "{":
            found = self.comment(line, column)
            return Token("comment", " ".join(found.text.split()), line, column)
        if ch in '}]"()':
            raise self.error(f"unexpected '{ch}'", line, column)
        return self.word(line, column, '{}"[]();')


def _at(tok: Token, reason: str) -> PgnError:
    return PgnError(tok.line, tok.column, reason)


def _check_tags(record: XiangqiRecord, where: dict[str, Token]) -> None:
    game = record.tags.get("Game")
    if game is not None and game.lower() not in ("chinese chess", "xiangqi"):
        raise _at(where["Game"], f'tag Game is "{game}", not "Chinese Chess"')
    fmt = record.tags.get("Format")
    if fmt is not None and fmt.upper() not in FORMAT_OF_TAG:
        raise _at(where["Format"], f'tag Format "{fmt}" is not ICCS, WXF or Chinese')
    if "FEN" in record.tags:
        try:
            Position.from_fen(record.tags["FEN"])
        except XiangqiError as exc:
            raise _at(where["FEN"], f"tag FEN: {exc}") from None
    result = record.tags.get("Result")
    if result is not None and result not in RESULTS:
        raise _at(where["Result"], f'tag Result "{result}" is not 1-0, 0-1, 1/2-1/2 or *')
    if "Ruling" in record.tags:
        try:
            ruling = parse_ruling(record.tags["Ruling"])
        except XiangqiError as exc:
            raise _at(where["Ruling"], f"tag Ruling: {exc}") from None
        record.rulings.append({"ply": None, **ruling})


class _Movetext:
    """The move section: move numbers, moves, comments, rulings and the result."""

    def __init__(self, record: XiangqiRecord, tokens: list[Token]) -> None:
        self.record = record
        self.tokens = tokens
        start = record.start
        self.side, self.number = start.turn.side, start.fullmove
        self.ended: Token | None = None

    def run(self) -> None:
        for tok in self.tokens:
            if tok.kind == "tag":
                raise _at(tok, f"tag {tok.name} after the moves began")
            if tok.kind == "comment":
                self._comment(tok)
            else:
                self._word(tok)

    def _comment(self, tok: Token) -> None:
        ply = len(self.record.moves)
        if tok.text.lower().startswith(LOG_PREFIX):
            try:
                entry = parse_entry(tok.text[len(LOG_PREFIX) :].strip())
            except XiangqiError as exc:
                raise _at(tok, f"log entry: {exc}") from None
            self.record.log.append((ply, entry))
            return
        if tok.text.lower().startswith(RULING_PREFIX):
            try:
                ruling = parse_ruling(tok.text[len(RULING_PREFIX) :])
            except XiangqiError as exc:
                raise _at(tok, str(exc)) from None
            self.record.rulings.append({"ply": ply, **ruling})
            return
        old = self.record.comments.get(ply)
        self.record.comments[ply] = tok.text if old is None else f"{old} {tok.text}"

    def _word(self, tok: Token) -> None:
        text = tok.text
        plain = halfwidth(text)  # full-width numbers and results (`１．`, `１－０`)
        if plain in RESULTS:
            self.ended = tok
            self.record.result = plain
            return
        if _NAG_RE.fullmatch(plain):  # a numeric annotation ($1 …): kept by no reader here
            return
        number = _MOVE_NUMBER_RE.match(plain)
        if number:
            self._number(tok, int(number[1]), bool(number[2]))
            text = text[number.end() :]
            if not text:
                return
        if len(self.record.moves) >= MAX_MOVES:
            raise _at(tok, f"more than {MAX_MOVES} moves")
        self.record.moves.append(text)
        self.record.places.append((tok.line, tok.column + len(tok.text) - len(text)))
        self.number += self.side
        self.side = 1 - self.side

    def _number(self, tok: Token, number: int, black: bool) -> None:
        if number != self.number:
            raise _at(tok, f"move number {number} where {self.number} was expected")
        if black and self.side == 0:
            raise _at(tok, f"'{tok.text}' marks a Black move but it is Red's move {number}")


def decode(data: bytes) -> tuple[str, str]:
    """A record file's bytes as text, and the encoding read: UTF-8 after its byte-order
    mark; else UTF-8 if the bytes are valid UTF-8 (GBK text almost never is), else GB18030
    (which reads GBK and GB2312, the common encodings of Chinese archives). XiangqiError
    when none fits."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # UTF-8's byte-order mark
        encodings: tuple[str, ...] = ("utf-8",)
    else:
        encodings = ("utf-8", "gb18030")
    for encoding in encodings:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise XiangqiError("the record is neither UTF-8 nor GB18030 (GBK) text")


def read_pgn(text: str) -> XiangqiRecord:
    """Read one PGN game; PgnError with line and column on any fault of syntax or tags.
    The moves are checked by `XiangqiRecord.game()` (they need the position to be read)."""
    if len(text) > MAX_CHARS:
        raise PgnError(1, 1, f"the record is longer than {MAX_CHARS:,} characters")
    lexer = _Lexer(text)
    tokens = lexer.tokens()
    record = XiangqiRecord()
    where: dict[str, Token] = {}
    i = 0
    while i < len(tokens) and tokens[i].kind == "tag":
        tok = tokens[i]
        if tok.name in record.tags:
            raise _at(tok, f"tag {tok.name} appears twice")
        record.tags[tok.name] = tok.text
        where[tok.name] = tok
        i += 1
    _check_tags(record, where)
    movetext = _Movetext(record, tokens[i:])
    movetext.run()
    tagged = record.tags.get("Result")
    if movetext.ended is None:
        lines = text.splitlines() or [""]
        record.result = tagged or "*"
        source = "its Result tag's" if tagged else ""
        record.warnings.append(
            f"line {len(lines)}, column {len(lines[-1]) + 1}: no result after the moves; "
            f"read with {source or 'the result'} {record.result}"
        )
        record.tags.pop("Result", None)
        return record
    if lexer.footer is not None:
        foot = lexer.footer
        record.warnings.append(
            f"line {foot.line}, column {foot.column}: text after the result "
            f"{record.result} ignored ('{foot.text[:20]}')"
        )
    if tagged is not None and tagged != record.result:
        raise _at(movetext.ended, f"result {record.result} differs from tag Result {tagged}")
    record.tags.pop("Result", None)
    return record


def read(text: str) -> XiangqiRecord:
    """`read_pgn` under its short name."""
    return read_pgn(text)


def write(record: XiangqiRecord) -> str:
    """`write_pgn` under its short name."""
    return write_pgn(record)


__all__ = [
    "PgnError",
    "XiangqiRecord",
    "decode",
    "from_game",
    "parse_ruling",
    "read",
    "read_pgn",
    "write",
    "write_pgn",
]
