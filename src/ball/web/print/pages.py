"""Print pages of the web toolbox: the regulation with every form, and one round's forms.

The HTML page is the printed edition itself with a screen-only toolbar (print button, PDF
download, language and paper switches); the print stylesheet keeps that toolbar off paper.
The PDF downloads are rendered by WeasyPrint from exactly the same HTML, once per key
(`ball.web.pdf_cache`: kind, event and its revision, round, language, paper, audience).

A round's filled-in forms print the desk-only fields (sanctions, the arbiter's notes) only
for a request carrying that event's desk session; anyone else gets the public fields, as the
public pages show them (issue 30, `ball.printing.from_event`).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ball.printing import (
    LANGUAGES,
    PAPERS,
    Controls,
    Edition,
    FormSet,
    PrintingError,
    render_html,
    render_pdf,
)
from ball.printing.render import labels
from ball.web.api.openapi import PDF, json_errors
from ball.web.core import security
from ball.web.pdf_cache import cached_pdf

router = APIRouter(prefix="/print", tags=["print"], responses=json_errors(404, 422, 429))
# The document lists the codes the renderer takes, so a request built from it is accepted
# (issue 30 item 15); the renderer still refuses any other value with a 400 naming it.
Lang = Annotated[str | None, Query(json_schema_extra={"enum": list(LANGUAGES)})]
Paper = Annotated[str, Query(json_schema_extra={"enum": list(PAPERS)})]


def _language(request: Request, lang: str | None) -> str:
    if lang is not None:
        return lang  # checked by the renderer, so a wrong code is a 400 naming it
    chosen = getattr(request.state, "lang", "en")
    return chosen if chosen in LANGUAGES else "en"


def _controls(path: str, query: dict[str, str], lang: str, paper: str) -> Controls:
    def url(target: str, **changes: str) -> str:
        return f"{target}?{urlencode({**query, 'lang': lang, 'paper': paper, **changes})}"

    return Controls(
        pdf_url=url(f"{path}.pdf"),
        languages=[
            (code, labels(code)["language_name"], url(path, lang=code)) for code in LANGUAGES
        ],
        papers=[(code, PAPERS[code][1], url(path, paper=code)) for code in PAPERS],
        home_url="/",
    )


def _edition(
    request: Request,
    kind: str,
    lang: str | None,
    paper: str,
    event: str,
    round_: int | None,
) -> Edition:
    lang = _language(request, lang)
    path = f"{router.prefix}/{kind}"
    query = {"event": event} if event else {}
    if round_ is not None:
        query["round"] = str(round_)
    try:
        forms = _round_forms(request, round_, event) if round_ is not None else None
        return render_html(
            kind,  # type: ignore[arg-type]
            lang=lang,
            paper=paper,
            forms=forms,
            # `event` selects the event (its id or name); a round's forms carry the event's
            # name themselves (issue 36 item 14: the id "2" was the cover line and header)
            event=event if forms is None else "",
            controls=_controls(path, query, lang, paper.lower()),
        )
    except PrintingError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None


def _round_forms(request: Request, round_: int, event: str) -> FormSet:
    from ball.printing.from_event import EventDataError, forms_from_sessions

    # The app's own sessions: opening the live SQLite file a second time (by its URL) and
    # closing it again drops this process's locks, and the next opener deletes the live WAL
    # with every acknowledged write in it (issue 11).
    sessions = getattr(request.app.state, "sessions", None)
    if sessions is None:
        raise HTTPException(status_code=404, detail="this server has no event database")

    def desk(event_id: int) -> bool:  # the reader is this event's signed-in arbiter
        from ball.web.core.deps import now_of

        return security.arbiter_of(sessions, request, event_id, now_of(request)) is not None

    try:
        return forms_from_sessions(
            sessions, round_, event_id=event or None, desk=desk, link_base=link_base(request)
        )
    except EventDataError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None


def link_base(request: Request) -> str:
    """The address the players' phones reach this server at, for the table links' QR codes
    (issue 35 §1): the LAN address `ball serve --host` printed (`app.state.link_base`),
    else the address this request came in by."""
    configured = getattr(request.app.state, "link_base", None)
    return str(configured or request.base_url).rstrip("/")


async def _pdf(request: Request, key: tuple[str, ...], name: str, edition) -> Response:
    """The PDF of `edition()` (an `Edition` maker), kept under `key` plus the language and
    paper (`ball.web.pdf_cache`: rendered once per key, one at a time, off the loop)."""
    lang = _language(request, request.query_params.get("lang"))
    paper = request.query_params.get("paper", "a4")
    body = await cached_pdf(request, (*key, lang, paper), lambda: render_pdf(edition()))
    return Response(
        body,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}-{lang}.pdf"'},
    )


def _revision(request: Request, event: str) -> tuple[str, str]:
    """The event whose round is printed and its revision token (it changes with every
    write to the event), for the PDF's key; ("", "") when there is none (the render
    answers the 404)."""
    from ball.tournament import TournamentError
    from ball.web.core.deps import service_for

    if getattr(request.app.state, "sessions", None) is None:
        return "", ""  # no event database: the render answers 404
    svc = service_for(request.app)
    try:
        event_id = svc.events.event_info(event or None).id
    except (TournamentError, ValueError):
        return "", ""
    return str(event_id), svc.desk.event_revision(event_id) or ""


@router.get("/regulation", response_class=HTMLResponse)
def regulation_page(
    request: Request, lang: Lang = None, paper: Paper = "a4", event: str = ""
) -> HTMLResponse:
    """The regulation followed by every form, ready for the browser's print dialog."""
    return HTMLResponse(_edition(request, "regulation", lang, paper, event, None).html)


@router.get("/regulation.pdf", response_class=Response, responses=PDF)
async def regulation_pdf(
    request: Request, lang: Lang = None, paper: Paper = "a4", event: str = ""
) -> Response:
    # the regulation and blank forms show only the event's name as given: no revision
    return await _pdf(
        request,
        ("regulation", event),
        "ball-regulation",
        lambda: _edition(request, "regulation", lang, paper, event, None),
    )


@router.get("/forms", response_class=HTMLResponse)
def forms_page(
    request: Request,
    round: int | None = None,  # noqa: A002 - the query parameter's public name
    lang: Lang = None,
    paper: Paper = "a4",
    event: str = "",
) -> HTMLResponse:
    """Every form: blank, or with `round` filled in from the event in the database."""
    return HTMLResponse(_edition(request, "forms", lang, paper, event, round).html)


@router.get("/forms.pdf", response_class=Response, responses=PDF)
async def forms_pdf(
    request: Request,
    round: int | None = None,  # noqa: A002
    lang: Lang = None,
    paper: Paper = "a4",
    event: str = "",
) -> Response:
    name = f"ball-forms-round-{round}" if round is not None else "ball-forms"
    key: tuple[str, ...] = ("forms", event)
    if round is not None:  # filled in from the event: kept per its revision
        revision = await run_in_threadpool(_revision, request, event)
        key = ("forms", *revision, str(round), link_base(request))
    return await _pdf(
        request, key, name, lambda: _edition(request, "forms", lang, paper, event, round)
    )
