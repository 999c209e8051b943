"""The arbiter's first steps at the desk, taken in a real browser: create an event, enter
its entrants, pair a round. Shared by the browser tests so that each of them says only what
it is about; every step waits for the page the desk answers with, so the next step acts on
the page it expects."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .conftest import PIN


def create_event(
    page,
    base: str,
    name: str,
    *,
    system: str | None = None,
    game: str | None = None,
    fields: dict[str, str] | None = None,
    format_options: dict[str, str] | None = None,
) -> None:
    """Fill and send the desk's "new event" form; the event's desk (event 1) opens.

    `fields` are plain inputs of the form (place, rounds, hands, ...); `format_options` are
    the fields behind the "format options" disclosure, which is opened first."""
    page.goto(f"{base}/desk")
    form = "#create-event"
    page.fill(f"{form} input[name=name]", name)
    if system is not None:
        page.select_option(f"{form} select[name=system]", system)
    if game is not None:
        page.select_option(f"{form} select[name=game]", game)
    for field, value in (fields or {}).items():
        page.fill(f"{form} input[name={field}]", value)
    if format_options:
        page.click("#format-options summary")
        for field, value in format_options.items():
            if field == "tie_break":  # the one choice among them; the rest are typed in
                page.select_option(f"{form} select[name={field}]", value)
            else:
                page.fill(f"{form} input[name={field}]", value)
    page.fill(f"{form} input[name=pin]", PIN)
    page.fill(f"{form} input[name=pin2]", PIN)
    page.click(f"{form} button[type=submit]")
    page.wait_for_url(f"{base}/desk/1")


def add_entrants(page, names: Iterable[str]) -> None:
    """Enter each name through the desk's one-entrant form."""
    for name in names:
        page.fill("#add-entrant input[name=name]", name)
        page.click("#add-entrant button[type=submit]")
        page.wait_for_url(re.compile(r".*/desk/1#entrants$"))


def import_entrants(page, csv: str) -> None:
    """Paste a CSV of entrants (with its header line) into the desk's import form."""
    page.fill("#import-entrants textarea[name=csv]", csv)
    page.click("#import-entrants button[type=submit]")
    page.wait_for_url(re.compile(r".*/desk/1#entrants$"))


def pair_first_round(page, base: str) -> None:
    """Pair round 1 and wait for its round page."""
    page.click("#pair-next")
    page.wait_for_url(f"{base}/desk/1/rounds/1")
