"""The desk's share of the pairing check (issue 35 §2): the round page shows the verdict
beside the round's *Publish* state (`desk/_round_check.html`), and these two forms check
the stored pairing again or publish the round. A failed check refuses to publish with the
checker's message; the arbiter may still publish with a reason (logged with the message),
as `ball round publish --override` does. Same checks as every desk write: the event's PIN
session, same origin, the CSRF token.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from ball.tournament.errors import TournamentError
from ball.tournament.service import TournamentService
from ball.web.api.openapi import SEE_OTHER, page_errors
from ball.web.core import security
from ball.web.core.deps import desk_writer, read_form, tournament
from ball.web.desk.pages import found, refused, see
from ball.web.desk.rounds import round_context

router = APIRouter(
    prefix="/desk",
    default_response_class=HTMLResponse,
    responses={**SEE_OTHER, **page_errors(400, 401, 403, 404, 422, 429)},
)


@router.post("/{event_id}/rounds/{number}/check")
async def check_round(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: TournamentService = Depends(tournament),
):
    """Check the round's stored pairing again and keep the verdict (a failure takes the
    round back from the players)."""
    form = await read_form(request)
    found(svc.desk.round_view, event_id, number)
    try:
        # off the event loop: a Swiss check runs the checker for seconds on a large field
        await run_in_threadpool(svc.checks.check_round, number, event=event_id)
    except TournamentError as exc:
        return _refused(request, svc, event_id, number, arbiter, str(exc), form)
    return see(f"/desk/{event_id}/rounds/{number}#check")


@router.post("/{event_id}/rounds/{number}/publish")
async def publish_round(
    event_id: int,
    number: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_writer),
    svc: TournamentService = Depends(tournament),
):
    """Publish the round after checking it again; refused with the checker's message when
    the check fails, unless the form gives the reason to publish anyway (`override`)."""
    form = await read_form(request)
    found(svc.desk.round_view, event_id, number)
    override = form.get("override", "")
    try:
        await run_in_threadpool(
            svc.checks.publish_round, number,
            override=override if isinstance(override, str) else "", event=event_id,
        )  # fmt: skip
    except TournamentError as exc:
        return _refused(request, svc, event_id, number, arbiter, str(exc), form)
    return see(f"/desk/{event_id}/rounds/{number}#check")


def _refused(
    request: Request,
    svc: TournamentService,
    event_id: int,
    number: int,
    arbiter: security.Arbiter,
    error: str,
    form,
) -> HTMLResponse:
    """The round page again, the refusal at the top of its check panel."""
    context = round_context(request, svc, event_id, number, arbiter) | {"refused": "check"}
    return refused(request, "desk/round.html", context, error, (), form)
