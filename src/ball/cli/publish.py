"""`ball publish`: an event's public pages as static files for any web host (issue 35 §4).

The pages themselves are `ball.web.static_site`'s; this module reads the options, says how
many files were written and how many were already up to date, and turns a refusal into the
CLI's one-line exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from ball.cli.common import fail
from ball.cli.tournament_common import DB, EVENT, event_ref, require_existing_file, run, service


def publish_command(
    out: Path = typer.Option(
        ..., "--out", help="Folder to write the pages into (made if missing)."
    ),
    lang: str | None = typer.Option(
        None, "--lang", help="Languages to write, comma-separated (default: en,ko,bg)."
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help='{"event", "out", "languages", "pages", "written", "unchanged", "removed", "dropped"}',
    ),
    db: str | None = DB,
    event: str | None = EVENT,
) -> None:
    """The event's public pages as static files; a second run rewrites only what changed."""
    from ball.web.static_site import PublishError, parse_languages, publish

    require_existing_file(db)
    try:
        languages = parse_languages(lang)
    except PublishError as exc:
        fail(str(exc))
    # the event as every tournament command names it (id, #id, name, or the latest)
    svc = service(db)
    event_id = run(lambda: svc.events.event_info(event_ref(event))).id
    svc.engine.dispose()
    try:
        site = publish(db, event_id, out, languages)
    except PublishError as exc:
        fail(str(exc))
    if as_json:
        shown = {
            "event": site.event,
            "out": str(out),
            "languages": site.languages,
            "pages": site.pages,
            "written": site.written,
            "unchanged": site.unchanged,
            "removed": site.removed,
            "dropped": site.dropped,
        }
        typer.echo(json.dumps(shown, ensure_ascii=False))
        return
    typer.echo(
        f"event {site.event}: {site.pages} pages in {', '.join(site.languages)} to {out}: "
        f"{len(site.written)} files written, {len(site.unchanged)} unchanged, "
        f"{len(site.removed)} removed"
    )
    for link in site.dropped:
        typer.echo(f"left out (needs the server): {link}")


def register(app: typer.Typer) -> None:
    app.command("publish")(publish_command)
