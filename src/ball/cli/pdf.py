"""`ball pdf`: the printed edition — the regulation with every form, or one round's forms.

The output format follows the file name: `.pdf` (WeasyPrint) or `.html` (the same document
with its print stylesheet, for a browser's print dialog).
"""

from __future__ import annotations

from pathlib import Path

import typer

from ball.cli.common import fail
from ball.games import GAMES, load
from ball.printing import (
    LANGUAGES,
    PAPERS,
    Edition,
    FormSet,
    PrintingError,
    render_html,
    render_pdf,
)

app = typer.Typer(help="Print the regulation and its forms (PDF or HTML).", no_args_is_help=True)

_LANG_HELP = f"Language: {', '.join(LANGUAGES)}."
_PAPER_HELP = f"Paper size: {', '.join(PAPERS)}."
_OUT_HELP = "Output file; .pdf or .html."


def _write(edition: Edition, out: Path) -> None:
    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".html", ".htm"):
        fail(f"{out}: the output file must end in .pdf or .html")
    if not out.parent.is_dir():
        fail(f"{out.parent}: no such directory")
    data = edition.html.encode("utf-8") if suffix != ".pdf" else render_pdf(edition)
    try:
        out.write_bytes(data)
    except OSError as exc:
        fail(f"{out}: cannot write ({exc.strerror or exc})")
    typer.echo(f"wrote {out}")


@app.command("regulation")
def regulation(
    out: Path = typer.Option(..., "-o", "--output", help=_OUT_HELP),
    lang: str = typer.Option("en", "--lang", help=_LANG_HELP),
    paper: str = typer.Option("a4", "--paper", help=_PAPER_HELP),
    event: str = typer.Option("", "--event", help="Event name for the running header."),
) -> None:
    """The full regulation followed by every blank form (the appendices)."""
    try:
        edition = render_html("regulation", lang=lang, paper=paper, event=event)
    except PrintingError as exc:
        fail(str(exc))
    _write(edition, out)


@app.command("forms")
def forms(
    out: Path = typer.Option(..., "-o", "--output", help=_OUT_HELP),
    db: str | None = typer.Option(None, "--db", help="Tournament database to fill the forms from."),
    round_: int | None = typer.Option(None, "--round", help="Round to print (with --db)."),
    event_id: int | None = typer.Option(
        None, "--event-id", help="Event in the database (default: the only or latest one)."
    ),
    lang: str = typer.Option("en", "--lang", help=_LANG_HELP),
    paper: str = typer.Option("a4", "--paper", help=_PAPER_HELP),
    event: str = typer.Option("", "--event", help="Event name on blank forms."),
    game_name: str = typer.Option(
        "ball",
        "--game",
        help="Blank forms of this game: ball, xiangqi or mahjong (with --db: the event's).",
    ),
) -> None:
    """Every form: blank, or with --db and --round filled in for one round of an event."""
    form_set: FormSet | None = None
    printed = [name for name, entry in GAMES.items() if entry.paper is not None]
    if game_name not in printed:
        choose = ", ".join(printed[:-1]) + " or " + printed[-1]
        fail(f"--game: {game_name!r} has no printed forms; choose {choose}")
    printing = GAMES[game_name].paper
    blank = None if printing is None else printing.blank
    if blank is not None and db is None:
        form_set = load(blank)(event)
    if db is not None or round_ is not None:
        if db is None or round_ is None:
            fail("--db and --round go together: give both to fill in the forms of a round")
        if not Path(db).is_file():
            fail(f"{db}: no such database file")
        from ball.printing.from_event import EventDataError, forms_for_round

        try:
            form_set = forms_for_round(db, round_, event_id=event_id)
        except EventDataError as exc:
            fail(str(exc))
    try:
        edition = render_html("forms", lang=lang, paper=paper, forms=form_set, event=event)
    except PrintingError as exc:
        fail(str(exc))
    _write(edition, out)
