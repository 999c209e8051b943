"""The small answers every desk page module gives: the error page, the redirect after a
write (303) and a read whose NotFound is the page's 404. One home, so the desk's modules
(`desk`, `desk_formats`, Mahjong's `games/mahjong/web/desk`) answer alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ball.tournament.errors import NotFound
from ball.web import field_errors
from ball.web.deps import not_found
from ball.web.i18n import gettext_for
from ball.web.templating import render


def fail(request: Request, status: int, message: str, back: str) -> HTMLResponse:
    """The desk's error page with a link `back`."""
    return render(
        request, "desk/error.html", {"message": message, "back": back}, status_code=status
    )


def refused(
    request: Request,
    template: str,
    context: dict[str, Any],
    error: str,
    rules: Sequence[field_errors.Rule],
    form: Mapping[str, Any],
    status: int = 400,
    sides: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """A refused desk form's page again (issue 36 item 12), as typed (PINs and the CSRF
    token aside), with why it was not done beside the field it is about (`rules`), else at
    the top of the form; same status as the dead-end page it replaces."""
    gettext = gettext_for(getattr(request.state, "lang", "en"))
    fault = field_errors.locate(error, rules, gettext, sides)
    secret = ("pin", "pin2", "csrf", "_files")
    values = {k: v for k, v in form.items() if k not in secret and isinstance(v, str)}
    context = context | {"values": values, "fault": fault, "error": error}
    return render(request, template, context, status_code=status)


def see(url: str) -> RedirectResponse:
    """Where a browser goes after a write (303: GET the page)."""
    return RedirectResponse(url, status_code=303)


def found(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A read use case whose NotFound is the page's 404."""
    try:
        return call(*args, **kwargs)
    except NotFound as exc:
        raise not_found(exc) from None
