"""Signing in to an event's desk (issue 6, issue 30 item 4): the PIN page, the PIN
throttled per client address, the recovery code (its sheet, a new one, "noted") and
signing out. The rules are `ball.web.core.security`'s; these are the routes."""

from __future__ import annotations

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool

from ball.web.core import security
from ball.web.core.deps import desk_reader, desk_writer, now_of, read_form, tournament
from ball.web.core.templating import N_, render
from ball.web.desk.pages import Service, desk_router
from ball.web.desk.pages import found as _found
from ball.web.desk.pages import see as _see
from ball.web.desk.pages import translator as _t

router = desk_router()

def _recovery_cookie(event_id: int) -> str:
    return f"ball_recovery_{event_id}"


def show_recovery_code(response, event_id: int, code: str) -> None:
    """Hand a new recovery code to the desk browser that made it, for the desk's pages to
    show (and print) until the arbiter says it is noted or an hour passes: the server keeps
    only its hash, so this cookie is the one place the code is readable."""
    response.set_cookie(
        _recovery_cookie(event_id),
        code,
        max_age=RECOVERY_SHOWN_SECONDS,
        httponly=True,
        samesite="strict",
        path=f"/desk/{event_id}",
    )


RECOVERY_SHOWN_SECONDS = 3600


def shown_recovery_code(request: Request, event_id: int) -> str:
    """The new recovery code this desk browser was handed, or "" (only ever shown on pages
    that need the desk session)."""
    return security.recovery_text(request.cookies.get(_recovery_cookie(event_id), "")) or ""


@router.get("/{event_id}/login")
def login_page(
    event_id: int,
    request: Request,
    next: str = "",  # noqa: A002
    svc: Service = Depends(tournament),
):
    event = _found(svc.desk.event_page, event_id)
    return render(request, "desk/login.html", {"event": event, "next": next, "error": ""})


@router.post("/{event_id}/login")
async def login(event_id: int, request: Request, svc: Service = Depends(tournament)):
    security.same_origin(request)
    form = await read_form(request)
    target = form.get("next", "")
    if not target.startswith(f"/desk/{event_id}"):
        target = f"/desk/{event_id}"
    response = _see(target)
    # Throttled per client address (`security.PinThrottle`): a guesser locks out itself,
    # never the arbiter at another desk.
    sessions = request.app.state.sessions
    throttle = security.PinThrottle(sessions, "desk")
    client = security.client_address(request)
    now = now_of(request)
    _found(svc.desk.require_event, event_id)

    def refuse(status: int, message: str, headers: dict[str, str] | None = None):
        context = {"event": _found(svc.desk.event_page, event_id), "next": target, "error": message}
        page = render(request, "desk/login.html", context, status_code=status)
        page.headers.update(headers or {})
        return page

    pin = form.get("pin", "")
    if security.recovery_text(pin) is not None:
        recovered = await _recover(request, event_id, pin, client, now)
        if recovered is not None:
            return recovered
    # Counted and decided in one transaction before the check (scrypt, in a worker thread:
    # a PIN check must not stop every other request).
    wait = await run_in_threadpool(throttle.take, event_id, client, now)
    if wait > 0:
        message = _t(request)(N_("Too many wrong PINs: try again in %(s)s seconds."))
        seconds = int(wait + 0.999)
        return refuse(429, message % {"s": seconds}, {"Retry-After": str(seconds)})
    if not await run_in_threadpool(security.event_pin_is, sessions, event_id, pin):
        return refuse(403, _t(request)(N_("Wrong PIN.")))
    await run_in_threadpool(lambda: throttle.succeeded(event_id, client, counted=True))
    security.open_desk(sessions, event_id, now, response)
    return response


async def _recover(request: Request, event_id: int, typed: str, client: str, now: float):
    """Sign in with the recovery code (issue 30 item 4): accepted even from an address that
    wrong PINs locked, it lifts that lock and is spent, and the desk shows its successor.
    None when `typed` is not the code (the caller then checks it as a PIN). Wrong codes are
    slowed per address only, so a stranger cannot use up the arbiter's tries."""
    sessions = request.app.state.sessions
    codes = security.PinThrottle(sessions, security.RECOVERY_SCOPE, event_cap=False)
    if await run_in_threadpool(codes.take, event_id, client, now) > 0:
        return None
    if not await run_in_threadpool(security.recovery_code_is, sessions, event_id, typed):
        return None
    await run_in_threadpool(lambda: codes.succeeded(event_id, client, counted=True))
    await run_in_threadpool(security.PinThrottle(sessions, "desk").reset, event_id, client)
    code = security.new_recovery_code()
    code_hash = await run_in_threadpool(security.hash_recovery, code)
    response = _see(f"/desk/{event_id}/recovery")
    security.open_desk(sessions, event_id, now, response, recovery_hash=code_hash)
    show_recovery_code(response, event_id, code)
    return response


@router.get("/{event_id}/recovery")
def recovery_sheet(
    event_id: int,
    request: Request,
    arbiter: security.Arbiter = Depends(desk_reader),
    svc: Service = Depends(tournament),
):
    """The arbiter's recovery sheet: the new code while this desk browser holds it, ready to
    print; without it, the form that makes a new one (the old one then stops working)."""
    event = _found(svc.desk.event_page, event_id)
    code = shown_recovery_code(request, event_id)
    context = {"event": event, "csrf": arbiter.csrf, "code": code}
    return render(request, "desk/recovery.html", context)


@router.post("/{event_id}/recovery")
async def new_recovery_code(
    event_id: int, request: Request, _w: security.Arbiter = Depends(desk_writer)
):
    """Replace the event's recovery code (a lost or seen sheet) and show the new one once."""
    code = security.new_recovery_code()
    code_hash = await run_in_threadpool(security.hash_recovery, code)
    security.store_recovery_hash(request.app.state.sessions, event_id, code_hash, now_of(request))
    response = _see(f"/desk/{event_id}/recovery")
    show_recovery_code(response, event_id, code)
    return response


@router.post("/{event_id}/recovery/noted")
async def recovery_code_noted(
    event_id: int, request: Request, _w: security.Arbiter = Depends(desk_writer)
):
    """The arbiter has the code on paper: this browser stops showing it."""
    response = _see(f"/desk/{event_id}")
    response.delete_cookie(_recovery_cookie(event_id), path=f"/desk/{event_id}")
    return response


@router.post("/{event_id}/logout")
async def logout(event_id: int, request: Request, _w: security.Arbiter = Depends(desk_writer)):
    response = _see("/desk")
    security.end_desk(request.app.state.sessions, request, event_id, response)
    return response


