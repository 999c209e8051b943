"""The arbiter desk's access rules: an event PIN, PIN sessions and CSRF tokens (no accounts).

- The PIN is set when the event is created and stored only as a salted scrypt hash
  (`desk_access`).
- Entering the PIN opens a *desk session*: a random token in an HttpOnly, SameSite=Strict
  cookie named per event; the database keeps only the token's SHA-256 with the session's
  CSRF token and expiry (`desk_sessions`), so sessions survive a server restart.
- Guessing is throttled per client address, not per event (issue 11 item 5; `PinThrottle`):
  5 wrong PINs in a row from one address lock that address out for a minute (429), while
  every other address can still sign in. A cap per event bounds a guess from many addresses:
  beyond `EVENT_MAX_FAILURES` wrong PINs in `EVENT_WINDOW` seconds, every further wrong PIN
  locks its address for `EVENT_LOCK_SECONDS` at once. The right PIN from an address that is
  not locked is always accepted, so nobody can keep the arbiter out. The counts are stored
  (`desk_pin_throttle`), so restarting the server does not reset them.
- Every state-changing request must (1) not come from another site (`Origin` /
  `Sec-Fetch-Site` checked when the browser sends them), (2) carry a valid session for the
  event (else 401), and (3) repeat the session's CSRF token in the form field `csrf` or the
  `X-CSRF-Token` header (else 403).

The rows (`DeskAccess`, `DeskSession`, `PinThrottleRow`) are declared in `ball.web.models`;
routes reach them through the functions at the end of this module (each its own session).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi import HTTPException, Request, Response
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ball import pin_hash
from ball.web.models import DeskAccess, DeskSession, PinThrottleRow

SESSION_SECONDS = 16 * 3600  # one long tournament day
MAX_FAILURES = 5  # wrong PINs in a row from one client address for one event (or clock) ...
LOCK_SECONDS = 60.0  # ... lock that address out this long (a 4-digit PIN is otherwise guessable)
# A guesser with many addresses: once an event has seen this many wrong PINs in the window,
# each further wrong PIN locks its address for EVENT_LOCK_SECONDS at once, so every address
# gets one guess per 10 minutes (a /24 of addresses: 25 guesses a minute, not 1270). The
# arbiter, not locked, still gets in with the right PIN: a cap that also refused right PINs
# would hand the event to whoever guesses wrongly fastest.
EVENT_MAX_FAILURES = 30
EVENT_WINDOW = 600.0
EVENT_LOCK_SECONDS = 600.0
PIN_MIN, PIN_MAX = 4, 64


class PinError(ValueError):
    """A PIN that cannot be set (the message says why)."""


# ------------------------------------------------------------------------------ the PIN


def check_pin_text(pin: str) -> str:
    if not isinstance(pin, str) or not PIN_MIN <= len(pin) <= PIN_MAX or pin.strip() != pin:
        raise PinError(f"pin: {PIN_MIN} to {PIN_MAX} characters without surrounding spaces")
    return pin


def hash_pin(pin: str) -> str:
    return pin_hash.hash_pin(pin)  # scrypt, its cost in the string (ball.pin_hash)


def pin_matches(pin: str, stored: str) -> bool:
    return pin_hash.pin_matches(pin, stored)


def set_pin(session: Session, event_id: int, pin: str, now: float) -> None:
    set_pin_hash(session, event_id, hash_pin(check_pin_text(pin)), now)


def set_pin_hash(session: Session, event_id: int, pin_hash: str, now: float) -> None:
    """Store a hash made by `hash_pin` (a web request makes it in a worker thread: scrypt
    takes tens of milliseconds and would stop every other request on the event loop)."""
    session.merge(DeskAccess(event_id=event_id, pin_hash=pin_hash, created_at=now))


def event_pin_is(sessions: sessionmaker, event_id: int, pin: str) -> bool:
    """Whether `pin` is the event's PIN (blocking: scrypt; web requests call it in a thread)."""
    with sessions() as session:
        access = session.get(DeskAccess, event_id)
        return access is not None and pin_matches(pin, access.pin_hash)


EVERYONE = "*"


def client_address(request: Request) -> str:
    """The address a PIN guess comes from (the TCP peer: no proxy header is trusted)."""
    host = request.client.host if request.client else "unknown"
    return host[:64]


class PinThrottle:
    """Wrong PINs per client address and per target (see the module's doc), in the database:
    `wait` before checking a PIN, then `failed` or `succeeded`."""

    def __init__(self, sessions: sessionmaker, scope: str = "desk") -> None:
        self._sessions = sessions
        self._scope = scope

    def _row(self, session: Session, target: int, client: str) -> PinThrottleRow:
        row = session.get(PinThrottleRow, (self._scope, target, client))
        if row is None:
            row = PinThrottleRow(
                scope=self._scope,
                target_id=target,
                client=client,
                streak=0,
                locked_until=0.0,
                window_start=0.0,
                window_failures=0,
            )
            session.add(row)
        return row

    def wait(self, target: int, client: str, now: float) -> float:
        """Seconds until `client` may try a PIN for `target` again (0 when it may now)."""
        with self._sessions() as session:
            row = session.get(PinThrottleRow, (self._scope, target, client))
            return 0.0 if row is None else max(0.0, row.locked_until - now)

    def failed(self, target: int, client: str, now: float) -> None:
        with self._sessions() as session:
            everyone = self._row(session, target, EVERYONE)
            if now - everyone.window_start >= EVENT_WINDOW:
                everyone.window_start, everyone.window_failures = now, 0
            everyone.window_failures += 1
            under_attack = everyone.window_failures > EVENT_MAX_FAILURES
            row = self._row(session, target, client)
            row.streak += 1
            if under_attack:
                row.streak, row.locked_until = 0, now + EVENT_LOCK_SECONDS
            elif row.streak >= MAX_FAILURES:
                row.streak, row.locked_until = 0, now + LOCK_SECONDS
            try:
                session.commit()
            except IntegrityError:  # a racing first failure made the row: count it next time
                session.rollback()

    def succeeded(self, target: int, client: str) -> None:
        with self._sessions() as session:
            row = session.get(PinThrottleRow, (self._scope, target, client))
            if row is not None:
                session.delete(row)
                session.commit()


# --------------------------------------------------------------------------- sessions


def cookie_name(event_id: int) -> str:
    return f"ball_desk_{event_id}"


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Arbiter:
    """An authenticated desk session for one event."""

    event_id: int
    csrf: str


def open_session(
    session: Session, event_id: int, pin: str, now: float, response: Response
) -> Arbiter | None:
    """Check `pin`; on success store a new session and set its cookie on `response`."""
    access = session.get(DeskAccess, event_id)
    if access is None or not pin_matches(pin, access.pin_hash):
        return None
    return start_session(session, event_id, now, response)


def start_session(session: Session, event_id: int, now: float, response: Response) -> Arbiter:
    """A new desk session for a caller whose PIN was already checked; sets its cookie."""
    session.execute(delete(DeskSession).where(DeskSession.expires_at < now))
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    session.add(
        DeskSession(
            token_hash=_token_hash(token),
            event_id=event_id,
            csrf=csrf,
            created_at=now,
            expires_at=now + SESSION_SECONDS,
        )
    )
    response.set_cookie(
        cookie_name(event_id),
        token,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="strict",
        path="/",
    )
    return Arbiter(event_id, csrf)


def close_session(session: Session, request: Request, event_id: int, response: Response) -> None:
    token = request.cookies.get(cookie_name(event_id))
    if token:
        session.execute(delete(DeskSession).where(DeskSession.token_hash == _token_hash(token)))
    response.delete_cookie(cookie_name(event_id), path="/")


def current_arbiter(
    session: Session, request: Request, event_id: int, now: float
) -> Arbiter | None:
    token = request.cookies.get(cookie_name(event_id))
    if not token:
        return None
    row = session.get(DeskSession, _token_hash(token))
    if row is None or row.event_id != event_id or row.expires_at < now:
        return None
    return Arbiter(event_id, row.csrf)


# ---------------------------------------------------------------------- write checks


def same_origin(request: Request) -> None:
    """403 for a request a browser reports as coming from another site."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise HTTPException(403, "cross-site request refused")
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin == "null" or urlsplit(origin).netloc != host:
            raise HTTPException(403, "cross-site request refused (Origin does not match)")


def require_write(
    session: Session, request: Request, event_id: int, now: float, form_token: str | None
) -> Arbiter:
    """The checks of every state-changing desk request: same origin, session, CSRF token."""
    same_origin(request)
    arbiter = current_arbiter(session, request, event_id, now)
    if arbiter is None:
        raise HTTPException(401, "the arbiter desk needs the event PIN (no desk session)")
    token = form_token or request.headers.get("x-csrf-token") or ""
    if not hmac.compare_digest(token.encode(), arbiter.csrf.encode()):
        raise HTTPException(403, "missing or wrong CSRF token; reload the page and try again")
    return arbiter


# ------------------------------------------------------- the same, in their own transaction
# What routes call (through `ball.web.deps`): each opens, commits and closes its session, so
# no route holds one while the tournament service writes.


def arbiter_of(sessions: sessionmaker, request: Request, event_id: int, now: float):
    """The signed-in arbiter of the event (None when there is no valid desk session)."""
    with sessions() as session:
        return current_arbiter(session, request, event_id, now)


def check_write(
    sessions: sessionmaker, request: Request, event_id: int, now: float, form_token: str | None
) -> Arbiter:
    """`require_write` in its own session."""
    with sessions() as session:
        return require_write(session, request, event_id, now, form_token)


def open_desk(
    sessions: sessionmaker,
    event_id: int,
    now: float,
    response: Response,
    *,
    pin_hash: str | None = None,
) -> Arbiter:
    """Start a desk session (setting its cookie on `response`) for a caller whose PIN was
    checked; with `pin_hash`, first store it as the event's new PIN. One transaction."""
    with sessions() as session:
        if pin_hash is not None:
            set_pin_hash(session, event_id, pin_hash, now)
        arbiter = start_session(session, event_id, now, response)
        session.commit()
        return arbiter


def end_desk(sessions: sessionmaker, request: Request, event_id: int, response: Response) -> None:
    """Sign out: forget the request's desk session and clear its cookie."""
    with sessions() as session:
        close_session(session, request, event_id, response)
        session.commit()
