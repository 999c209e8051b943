"""The arbiter desk's access rules: an event PIN, PIN sessions and CSRF tokens (no accounts).

- The PIN is set when the event is created and stored only as a salted scrypt hash
  (`desk_access`).
- Entering the PIN opens a *desk session*: a random token in an HttpOnly, SameSite=Strict
  cookie named per event; the database keeps only the token's SHA-256 with the session's
  CSRF token and expiry (`desk_sessions`), so sessions survive a server restart.
- After 5 wrong PINs in a row an event's PIN page refuses every PIN for a minute (429).
- Every state-changing request must (1) not come from another site (`Origin` /
  `Sec-Fetch-Site` checked when the browser sends them), (2) carry a valid session for the
  event (else 401), and (3) repeat the session's CSRF token in the form field `csrf` or the
  `X-CSRF-Token` header (else 403).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi import HTTPException, Request, Response
from sqlalchemy import Float, ForeignKey, String, delete
from sqlalchemy.orm import Mapped, Session, mapped_column

from ball.storage import Base

SESSION_SECONDS = 16 * 3600  # one long tournament day
MAX_FAILURES = 5  # wrong PINs in a row for one event ...
LOCK_SECONDS = 60.0  # ... close its PIN page this long (a 4-digit PIN is otherwise guessable)
PIN_MIN, PIN_MAX = 4, 64
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class DeskAccess(Base):
    __tablename__ = "desk_access"

    event_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_events.id", ondelete="CASCADE"), primary_key=True
    )
    pin_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[float] = mapped_column(Float)


class DeskSession(Base):
    __tablename__ = "desk_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("tournament_events.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)


class PinError(ValueError):
    """A PIN that cannot be set (the message says why)."""


# ------------------------------------------------------------------------------ the PIN


def check_pin_text(pin: str) -> str:
    if not isinstance(pin, str) or not PIN_MIN <= len(pin) <= PIN_MAX or pin.strip() != pin:
        raise PinError(f"pin: {PIN_MIN} to {PIN_MAX} characters without surrounding spaces")
    return pin


def hash_pin(pin: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    try:
        scheme, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    got = hashlib.scrypt(pin.encode(), salt=bytes.fromhex(salt), **_SCRYPT)
    return hmac.compare_digest(got.hex(), digest)


def set_pin(session: Session, event_id: int, pin: str, now: float) -> None:
    session.merge(
        DeskAccess(event_id=event_id, pin_hash=hash_pin(check_pin_text(pin)), created_at=now)
    )


class PinThrottle:
    """Wrong PINs per event, kept in memory: after `MAX_FAILURES` in a row the event refuses
    every PIN for `LOCK_SECONDS` (a restart forgets the count, which is fine for a venue)."""

    def __init__(self) -> None:
        self._state: dict[int, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def wait(self, event_id: int, now: float) -> float:
        """Seconds until the event's PIN page opens again (0 when open)."""
        with self._lock:
            _count, until = self._state.get(event_id, (0, 0.0))
            return max(0.0, until - now)

    def failed(self, event_id: int, now: float) -> None:
        with self._lock:
            count, until = self._state.get(event_id, (0, 0.0))
            count += 1
            if count >= MAX_FAILURES:
                count, until = 0, now + LOCK_SECONDS
            self._state[event_id] = (count, until)

    def succeeded(self, event_id: int) -> None:
        with self._lock:
            self._state.pop(event_id, None)


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
