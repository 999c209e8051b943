"""The simulator's apply-action route, dispatched before FastAPI's routing (issue 15).

Owns `ApplyRoute`. `POST /api/games/{game_id}/actions` is the simulator's hot request: a
game is played through it one action at a time. FastAPI finds it by walking the app's
nested routers and fills its parameters through its dependency solver; that cost about as
much CPU as the engine's work for the action. This route is matched first, at the top of
the app's router, and answers a *plain* request itself: a JSON body (`Content-Type:
application/json`) that `ActionIn` accepts and at most one `since` that is a decimal
number. It answers through `ball.web.api.games.answer_action`, as the FastAPI route does, so
the answer (and every refusal of the service) is the same.

Anything else (another content type, a body that is not JSON or that `ActionIn` refuses,
an odd `since`, a client gone mid-body, an app mounted under a root path) is handed on,
with the body messages read so far replayed, to the app's router as if this route did
not exist: FastAPI then answers exactly as before, its validation errors included. The
FastAPI route stays registered and alone describes the operation in the OpenAPI
document; this route is no `APIRoute`, so the document does not change.
"""

from __future__ import annotations

import json
import re
from collections import deque
from typing import Any
from urllib.parse import parse_qsl

from pydantic import ValidationError
from starlette.datastructures import URLPath
from starlette.requests import Request
from starlette.routing import BaseRoute, Match, NoMatchFound
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ball.web.api.games import ActionIn, answer_action

PREFIX, SUFFIX = "/api/games/", "/actions"
PATH_FORMAT = PREFIX + "{game_id}" + SUFFIX
# Set in the scope once this route has handed a request on, so it does not match again.
HANDED_ON = "ball.apply_route.handed_on"
_DECIMAL = re.compile(r"[0-9]{1,18}")  # what FastAPI reads as the same int, surely


def game_id_of(path: str) -> str | None:
    """The `{game_id}` of an apply path, as Starlette's `[^/]+` would match it, else None."""
    if not (path.startswith(PREFIX) and path.endswith(SUFFIX)):
        return None
    game_id = path[len(PREFIX) : len(path) - len(SUFFIX)]
    return game_id if game_id and "/" not in game_id else None


def plain_since(query_string: bytes) -> tuple[bool, int | None]:
    """(plain, since): whether the query's `since` is absent or one decimal number, and
    its value. The query is split as Starlette splits it (`QueryParams`)."""
    if not query_string:
        return True, None
    values = [
        v for k, v in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True)
        if k == "since"
    ]  # fmt: skip
    if not values:
        return True, None
    if len(values) == 1 and _DECIMAL.fullmatch(values[0]):
        return True, int(values[0])
    return False, None


def _json_content(scope: Scope) -> bool:
    """Whether the first Content-Type header (the one FastAPI reads) is plain JSON."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            return value.lower() == b"application/json"
    return False


def plain_body(body: bytes) -> ActionIn | None:
    """The body as `ActionIn`, read as FastAPI reads it (`json.loads`, then the model in
    Python mode), or None when FastAPI would answer something else (an error) for it."""
    if not body:
        return None
    try:
        return ActionIn.model_validate(json.loads(body))
    except (ValueError, ValidationError):  # JSONDecodeError, UnicodeDecodeError included
        return None


def _replayed(messages: list[Message], receive: Receive) -> Receive:
    """`receive` with `messages` (already read from it) given again first."""
    pending = deque(messages)

    async def replay() -> Message:
        if pending:
            return pending.popleft()
        return await receive()

    return replay


class ApplyRoute(BaseRoute):
    """The apply route for plain requests; `router` (the app's) answers all others."""

    path = path_format = PATH_FORMAT  # named as the FastAPI route is (telemetry reads it)

    def __init__(self, router: ASGIApp) -> None:
        self.router = router

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and not scope.get("root_path")
            and HANDED_ON not in scope
            and game_id_of(scope["path"]) is not None
        ):
            return Match.FULL, {}
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        messages: list[Message] = []
        chunks: list[bytes] = []
        while True:  # the body, as Starlette's Request.stream reads it
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return await self._hand_on(scope, messages, receive, send)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        plain, since = plain_since(scope["query_string"])
        body = plain_body(b"".join(chunks)) if plain and _json_content(scope) else None
        if body is None:
            return await self._hand_on(scope, messages, receive, send)
        game_id = game_id_of(scope["path"])
        assert game_id is not None  # matched above
        request = Request(scope, receive)
        response = await answer_action(request, game_id, body.action, body.version, since)
        await response(scope, receive, send)

    async def _hand_on(
        self, scope: Scope, messages: list[Message], receive: Receive, send: Send
    ) -> None:
        scope[HANDED_ON] = True
        await self.router(scope, _replayed(messages, receive), send)

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        # nameless: `url_for("apply_action", ...)` goes on to the FastAPI route
        raise NoMatchFound(name, path_params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(path={PATH_FORMAT!r}, methods=['POST'])"


def install(app: Any) -> None:
    """Put the route first in `app`'s router (a FastAPI app)."""
    app.router.routes.insert(0, ApplyRoute(app.router))
