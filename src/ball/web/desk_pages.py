"""The small answers every desk page module gives: the error page, the redirect after a
write (303) and a read whose NotFound is the page's 404. One home, so the desk's modules
(`desk`, `desk_formats`, `desk_mahjong`) answer alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ball.tournament.errors import NotFound
from ball.web.deps import not_found
from ball.web.templating import render


def fail(request: Request, status: int, message: str, back: str) -> HTMLResponse:
    """The desk's error page with a link `back`."""
    return render(
        request, "desk/error.html", {"message": message, "back": back}, status_code=status
    )


def see(url: str) -> RedirectResponse:
    """Where a browser goes after a write (303: GET the page)."""
    return RedirectResponse(url, status_code=303)


def found(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A read use case whose NotFound is the page's 404."""
    try:
        return call(*args, **kwargs)
    except NotFound as exc:
        raise not_found(exc) from None
