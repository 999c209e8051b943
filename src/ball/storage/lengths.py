"""Every stored text field has a length limit (issue 30 item 12): a 900,000-character
entrant name was stored in a column that says 200 (SQLite does not enforce VARCHAR
lengths) and made the forms PDF six times slower.

The limits are the columns' own: `String(n)` is n characters; a `Text` column holding
free text says its limit in `info={"max_chars": n}`; any other `Text` column (JSON the code
writes from checked input) gets the backstop TEXT_MAX. The services refuse a long value
first, naming the field as the user knows it (`ball.storage.text.too_long`); this check,
run on every flush of every session, is the net under them: a value past its column's
limit never reaches the database, and the error names the table, column and limit.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import String, event, inspect
from sqlalchemy.orm import Session

# The backstop for a Text column without its own limit (JSON documents: positions, sheets,
# clock states), far above any the code writes from checked input.
TEXT_MAX = 1_000_000


class TextTooLong(ValueError):
    """A value longer than its column's limit."""


def column_limit(column: Any) -> int:
    """The most characters `column` may hold."""
    limit = column.info.get("max_chars")
    if limit is None and isinstance(column.type, String):
        limit = column.type.length
    return int(limit or TEXT_MAX)


def check_row(instance: object) -> None:
    """`TextTooLong` for the first text attribute of `instance` longer than its column's
    limit."""
    mapper = inspect(instance).mapper
    for column in mapper.columns:
        if not isinstance(column.type, String):  # Text is a String too
            continue
        value = getattr(instance, mapper.get_property_by_column(column).key, None)
        if isinstance(value, str) and len(value) > (limit := column_limit(column)):
            raise TextTooLong(
                f"{column.table.name}.{column.name} is at most {limit} characters, got {len(value)}"
            )


@event.listens_for(Session, "before_flush")
def _check_lengths(session: Session, _context: object, _instances: object) -> None:
    for instance in (*session.new, *session.dirty):
        check_row(instance)
