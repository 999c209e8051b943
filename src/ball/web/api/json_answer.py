"""The simulator's answers as JSON bytes, exactly as Starlette's `JSONResponse` writes them,
encoded by orjson.

Owns `StateResponse`. Issue 15: `json.dumps` of a game state (the position, the legal
actions, the log's tail) cost about a tenth of a simulator action's CPU; orjson writes the
same bytes several times faster. "The same bytes" holds for what a state is made of: dicts
with string keys, lists, strings, booleans, None and integers; orjson and Starlette's
settings (`ensure_ascii=False`, no spaces, key order kept) agree there, and
`tests/web/test_json_answer.py` checks it on recorded answers and on generated documents.
Anything else orjson refuses (an integer past 64 bits, a string that is not valid UTF-8,
a dataclass, a date) goes to Starlette's settings of `json.dumps`, so it answers, or fails,
as before. One difference is left, since finding it would cost what orjson saves: a float
NaN or infinity is written `null` where `json.dumps` refused it (a 500); no state holds a
float (positions, logs and versions are integers and strings).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from fastapi.responses import JSONResponse

# Types orjson would write on its own but `json.dumps` refuses: hand them back (TypeError),
# so the fallback decides as before.
_AS_JSON_DUMPS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def _refuse(value: Any) -> Any:
    raise TypeError(f"not JSON: {type(value).__name__}")


def encode(content: Any) -> bytes:
    """`content` as `JSONResponse` would write it: orjson when it can, else Starlette."""
    try:
        return orjson.dumps(content, default=_refuse, option=_AS_JSON_DUMPS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(  # Starlette's JSONResponse.render, word for word
            content, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
        ).encode("utf-8")


class StateResponse(JSONResponse):
    """A `JSONResponse` whose body is written by `encode`."""

    def render(self, content: Any) -> bytes:
        return encode(content)
