"""The small answers every desk page module gives: its router (under `/desk`, answering
HTML), the error page, a refused form again, the redirect after a write (303), a read whose
NotFound is the page's 404, and the request's words. One home, so the desk's modules
(`ball.web.desk.*`, Mahjong's `games/mahjong/web/desk`) answer alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from ball.tournament.errors import NotFound
from ball.tournament.service import TournamentService
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core.deps import not_found
from ball.web.core.language import gettext_for
from ball.web.core.templating import render
from ball.web.desk import field_errors

Service = TournamentService  # the type of the routes' `Depends(tournament)` parameters


def desk_router() -> APIRouter:
    """A router of desk pages. Pages and forms answer HTML; refusals before the form is read
    (no session, bad CSRF token, no such event) are JSON `{"detail": ...}`; a JSON endpoint
    says so itself."""
    return APIRouter(
        prefix="/desk",
        default_response_class=HTMLResponse,
        responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 409, 422, 429)},
    )


def translator(request: Request) -> Callable[[str], str]:
    """The gettext of the request's language, for the words a route writes itself."""
    return gettext_for(getattr(request.state, "lang", "en"))


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
    fault = field_errors.locate(error, rules, translator(request), sides)
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
