"""The recovery code `ball event create` prints: the arbiter's way into the desk when
strangers' wrong PINs have locked it (issue 30 item 4; `ball.web.core.security`).

The code is printed once and only its hash is stored. An event made here has no desk PIN:
the code also opens its desk the first time (the desk then shows the code's successor)."""

from __future__ import annotations

import time
from typing import Any

import typer


def issue(svc: Any, event_id: int) -> None:
    """Make, store (hashed) and print a new recovery code of `event_id`."""
    from sqlalchemy.orm import sessionmaker

    from ball.web.core import security

    code = security.new_recovery_code()
    sessions = sessionmaker(svc.engine)
    security.store_recovery_hash(sessions, event_id, security.hash_recovery(code), time.time())
    typer.echo(
        f"recovery code: {code}  (shown only now; it opens the desk at /desk/{event_id} "
        "even when wrong PINs have locked it, and is then replaced)"
    )
