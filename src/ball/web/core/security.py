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
  locks its address for `EVENT_LOCK_SECONDS` at once. Each try is counted, and its check
  decided, in one transaction before the PIN is checked (issue 30 item 5). The counts are
  stored (`desk_pin_throttle`), so restarting the server does not reset them.
- The *recovery code* (issue 30 item 4; `desk_recovery`, its hash only) is shown once when
  the event is made. It signs the arbiter in even from a locked address, lifts that
  address's lock and is then replaced by a new one, so strangers' wrong PINs can slow the
  arbiter's typos but never keep the arbiter out.
- Every state-changing request must (1) not come from another site (`Origin` /
  `Sec-Fetch-Site` checked when the browser sends them), (2) carry a valid session for the
  event (else 401), and (3) repeat the session's CSRF token in the form field `csrf` or the
  `X-CSRF-Token` header (else 403).

The rows (`DeskAccess`, `DeskSession`, `PinThrottleRow`, `DeskRecovery`) are declared in
`ball.web.core.models`; routes reach them through the functions of this module (each its own
session).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from urllib.parse import urlsplit

from fastapi import HTTPException, Request, Response
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from ball import pin_hash
from ball.tournament.table_result import insert_if_missing
from ball.web.core.models import DeskAccess, DeskRecovery, DeskSession, PinThrottleRow

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
    """The address a request comes from: the TCP peer. `ball serve` trusts no proxy header
    unless the operator names a proxy (`--proxy ADDRESS`); then uvicorn puts the forwarded
    address here for that proxy's connections only."""
    host = request.client.host if request.client else "unknown"
    return host[:64]


class PinThrottle:
    """Wrong PINs per client address and per target (see the module's doc), in the database.

    `take` counts a try and decides whether it may be checked in one transaction (issue 30
    item 5): the try is counted as wrong *before* the PIN is checked, so 40 simultaneous
    logins from one address get exactly `MAX_FAILURES` checks, not whatever slipped between
    a read and a write; `succeeded(counted=True)` takes the count back. The table clocks
    use `wait`, then `failed` or `succeeded`. On SQLite the transaction's first
    statement is a write, which holds the database's write lock until the commit; on
    PostgreSQL the two rows are locked (`FOR UPDATE`, always the event's row first).

    `event_cap=False` counts per address only (the recovery code: a stranger's wrong codes
    must never lock the arbiter's address)."""

    def __init__(self, sessions: sessionmaker, scope: str = "desk", *, event_cap: bool = True):
        self._sessions = sessions
        self._scope = scope
        self._event_cap = event_cap

    def _locked_rows(
        self, session: Session, target: int, client: str
    ) -> tuple[PinThrottleRow, PinThrottleRow]:
        """The event's row and the client's, created when missing, locked until commit."""
        for who in (EVERYONE, client):
            values = {
                "scope": self._scope,
                "target_id": target,
                "client": who,
                "streak": 0,
                "locked_until": 0.0,
                "window_start": 0.0,
                "window_failures": 0,
            }
            inserted = insert_if_missing(session, PinThrottleRow, values, list(_THROTTLE_KEY))
            if not inserted and session.get(PinThrottleRow, (self._scope, target, who)) is None:
                session.add(PinThrottleRow(**values))
                session.flush()
        query = (
            select(PinThrottleRow)
            .where(
                PinThrottleRow.scope == self._scope,
                PinThrottleRow.target_id == target,
                PinThrottleRow.client.in_((EVERYONE, client)),
            )
            .order_by(PinThrottleRow.client)  # "*" sorts first: one lock order for everyone
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        rows = {row.client: row for row in session.scalars(query)}
        return rows[EVERYONE], rows[client]

    def _count_wrong(self, everyone: PinThrottleRow, row: PinThrottleRow, now: float) -> None:
        """One wrong try more for the event and the address; lock the address at its limit."""
        if now - everyone.window_start >= EVENT_WINDOW:
            everyone.window_start, everyone.window_failures = now, 0
        everyone.window_failures += 1
        row.streak += 1
        if self._event_cap and everyone.window_failures > EVENT_MAX_FAILURES:
            row.streak, row.locked_until = 0, now + EVENT_LOCK_SECONDS
        elif row.streak >= MAX_FAILURES:
            row.streak, row.locked_until = 0, now + LOCK_SECONDS

    def take(self, target: int, client: str, now: float) -> float:
        """Count one try of `client` at `target`'s PIN; 0 when the PIN may now be checked,
        else the seconds the address stays locked (then nothing is counted)."""
        locked = self.wait(target, client, now)  # a read: a locked flood takes no write lock
        if locked > 0:
            return locked
        with self._sessions() as session:
            everyone, row = self._locked_rows(session, target, client)
            if row.locked_until > now:
                session.rollback()
                return row.locked_until - now
            self._count_wrong(everyone, row, now)
            session.commit()
            return 0.0

    def wait(self, target: int, client: str, now: float) -> float:
        """Seconds until `client` may try a PIN for `target` again (0 when it may now)."""
        with self._sessions() as session:
            row = session.get(PinThrottleRow, (self._scope, target, client))
            return 0.0 if row is None else max(0.0, row.locked_until - now)

    def failed(self, target: int, client: str, now: float) -> None:
        """Count a wrong PIN checked without `take` (the table clocks: a press is checked
        first and counted only when its PIN is wrong), in one locked transaction."""
        with self._sessions() as session:
            everyone, row = self._locked_rows(session, target, client)
            self._count_wrong(everyone, row, now)
            session.commit()

    def succeeded(self, target: int, client: str, *, counted: bool = False) -> None:
        """The PIN was right: forget the address's count and lock. `counted`: the try was
        counted by `take`, so it is also taken back from the event's count."""
        with self._sessions() as session:
            if counted:
                everyone, row = self._locked_rows(session, target, client)
                everyone.window_failures = max(0, everyone.window_failures - 1)
                session.delete(row)
                session.commit()
                return
            found = session.get(PinThrottleRow, (self._scope, target, client))
            if found is not None:
                session.delete(found)
                session.commit()

    def reset(self, target: int, client: str) -> None:
        """Lift `client`'s lock on `target` (the arbiter signed in with the recovery code)."""
        with self._sessions() as session:
            session.execute(
                delete(PinThrottleRow).where(
                    PinThrottleRow.scope == self._scope,
                    PinThrottleRow.target_id == target,
                    PinThrottleRow.client == client,
                )
            )
            session.commit()


_THROTTLE_KEY = ("scope", "target_id", "client")


# ------------------------------------------------------------------- the recovery code
# Shown once when the event is made (the desk, `ball event create`), stored only as its
# scrypt hash. It always signs the arbiter in, even from an address that wrong PINs locked,
# and it is spent when used: the desk then shows a new one. 20 characters of Crockford's
# base32 (100 bits) cannot be guessed, so wrong codes are only slowed per address
# (`RECOVERY_SCOPE`), never per event: a stranger cannot spend the arbiter's tries.

RECOVERY_SCOPE = "recovery"
_RECOVERY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # no I, L, O, U: nothing to misread
_RECOVERY_LENGTH = 20
_RECOVERY_GROUP = 5


def new_recovery_code() -> str:
    """A fresh code of 20 characters in four dash-joined groups of five, for reading aloud
    and copying."""
    raw = "".join(secrets.choice(_RECOVERY_ALPHABET) for _ in range(_RECOVERY_LENGTH))
    return "-".join(raw[i : i + _RECOVERY_GROUP] for i in range(0, len(raw), _RECOVERY_GROUP))


def recovery_text(typed: str) -> str | None:
    """The canonical code of what was typed (case, spaces and dashes ignored, O read as 0 and
    I, L as 1), or None when it is not shaped like a recovery code (then it is a PIN)."""
    if not isinstance(typed, str) or len(typed) > 64:
        return None
    text = "".join(c for c in typed.upper() if c not in " -")
    text = text.translate(str.maketrans("OIL", "011"))
    if len(text) != _RECOVERY_LENGTH or any(c not in _RECOVERY_ALPHABET for c in text):
        return None
    return "-".join(text[i : i + _RECOVERY_GROUP] for i in range(0, len(text), _RECOVERY_GROUP))


def hash_recovery(code: str) -> str:
    canonical = recovery_text(code)
    if canonical is None:
        raise PinError("recovery code: not a code made by new_recovery_code")
    return pin_hash.hash_pin(canonical)


def set_recovery_hash(session: Session, event_id: int, code_hash: str, now: float) -> None:
    session.merge(DeskRecovery(event_id=event_id, code_hash=code_hash, created_at=now))


def store_recovery_hash(sessions: sessionmaker, event_id: int, code_hash: str, now: float) -> None:
    """`set_recovery_hash` in its own transaction (the CLI, a new code from the desk)."""
    with sessions() as session:
        set_recovery_hash(session, event_id, code_hash, now)
        session.commit()


def recovery_code_is(sessions: sessionmaker, event_id: int, typed: str) -> bool:
    """Whether `typed` is the event's recovery code (blocking: scrypt; run in a thread)."""
    canonical = recovery_text(typed)
    if canonical is None:
        return False
    with sessions() as session:
        row = session.get(DeskRecovery, event_id)
        return row is not None and pin_matches(canonical, row.code_hash)


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


def any_desk_session(sessions: sessionmaker, cookies: dict[str, str], now: float) -> bool:
    """Whether one of `cookies` (name -> token) is a valid desk session of the event its
    name says (the request budget lets such a request through)."""
    with sessions() as session:
        for name, token in cookies.items():
            row = session.get(DeskSession, _token_hash(token))
            if row is not None and name == cookie_name(row.event_id) and row.expires_at >= now:
                return True
    return False


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
# What routes call (through `ball.web.core.deps`): each opens, commits and closes its session, so
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
    recovery_hash: str | None = None,
) -> Arbiter:
    """Start a desk session (setting its cookie on `response`) for a caller whose PIN was
    checked; with `pin_hash`, first store it as the event's new PIN, with `recovery_hash`
    as its new recovery code. One transaction."""
    with sessions() as session:
        if pin_hash is not None:
            set_pin_hash(session, event_id, pin_hash, now)
        if recovery_hash is not None:
            set_recovery_hash(session, event_id, recovery_hash, now)
        arbiter = start_session(session, event_id, now, response)
        session.commit()
        return arbiter


def end_desk(sessions: sessionmaker, request: Request, event_id: int, response: Response) -> None:
    """Sign out: forget the request's desk session and clear its cookie."""
    with sessions() as session:
        close_session(session, request, event_id, response)
        session.commit()
