"""The scanner shared by the toolbox's tag-pair game records — BALL's `.bgn`
(`ball.games.ball.match.record`) and Xiangqi PGN (`ball.games.xiangqi.engine.pgn`): line and column
tracking, tag pairs `[Name "value"]`, quoted strings with `\\"` and `\\\\` escapes, and `{...}`
comments.

Each record format subclasses `TagLexer` for what differs (which characters end a word, extra
punctuation, rest-of-line comments) and passes its own error class, so a fault is still
reported as that format's error with the line and column where it was found.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Token:
    kind: str  # "tag", "comment", "word", and what a format adds ("string", "comma")
    text: str
    line: int
    column: int
    name: str = ""  # a tag's name


ErrorFactory = Callable[[int, int, str], Exception]


class TagLexer(ABC):
    """Tokens of a record text; subclasses define `token()` (and may widen `skip_space`)."""

    def __init__(self, text: str, make_error: ErrorFactory) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.column = 1
        self._make_error = make_error

    def error(self, reason: str, line: int | None = None, column: int | None = None) -> Exception:
        return self._make_error(line or self.line, column or self.column, reason)

    def tokens(self) -> list[Token]:
        out: list[Token] = []
        while True:
            self.skip_space()
            if self.pos >= len(self.text):
                return out
            out.append(self.token())

    @abstractmethod
    def token(self) -> Token:
        """The next token at `pos` (spaces already skipped): each record format's own."""

    def advance(self, count: int = 1) -> str:
        chunk = self.text[self.pos : self.pos + count]
        for ch in chunk:
            if ch == "\n":
                self.line, self.column = self.line + 1, 1
            else:
                self.column += 1
        self.pos += count
        return chunk

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_space(self) -> None:
        while self.peek() and self.peek().isspace():
            self.advance()

    def word(self, line: int, column: int, stops: str) -> Token:
        """The run of characters up to white space or one of `stops`."""
        start = self.pos
        while self.peek() and not self.peek().isspace() and self.peek() not in stops:
            self.advance()
        return Token("word", self.text[start : self.pos], line, column)

    def comment(self, line: int, column: int) -> Token:
        """A `{...}` comment (the scanner is on its `{`); its text as written."""
        self.advance()
        end = self.text.find("}", self.pos)
        if end < 0:
            raise self.error("comment '{' is never closed", line, column)
        body = self.advance(end - self.pos)
        self.advance()
        return Token("comment", body, line, column)

    def string(self, line: int, column: int) -> str:
        """A quoted string (the scanner is on its opening quote), escapes resolved."""
        self.advance()
        chars: list[str] = []
        while True:
            ch = self.peek()
            if not ch or ch == "\n":
                raise self.error("string is never closed", line, column)
            self.advance()
            if ch == '"':
                return "".join(chars)
            if ch == "\\":
                escaped = self.peek()
                if escaped not in ('"', "\\"):
                    where = (self.line, self.column - 1)
                    raise self.error(f"unknown escape '\\{escaped}' in string", *where)
                self.advance()
                chars.append(escaped)
            else:
                chars.append(ch)

    def tag(self, line: int, column: int) -> Token:
        """A tag pair `[Name "value"]` (the scanner is on its `[`)."""
        self.advance()
        match = re.match(r"[A-Za-z0-9_]+", self.text[self.pos :])
        if not match:
            raise self.error('tag pair needs a name: [Name "value"]')
        name = self.advance(match.end())
        self.skip_space()
        if self.peek() != '"':
            raise self.error(f"tag {name}: value must be a quoted string")
        value = self.string(self.line, self.column)
        self.skip_space()
        if self.peek() != "]":
            raise self.error(f"tag {name}: expected ']'")
        self.advance()
        return Token("tag", value, line, column, name=name)
