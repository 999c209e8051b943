"""The public display: read-only pairings, results and standings for a projector or a phone.

No PIN: anyone on the venue's network may look. Pages refresh themselves (`?refresh=N`
seconds, default 30, 0 = never), use large type that scales with the screen, and scroll
sideways on a phone. Standings come from `TournamentService.standings` with every tie-break
of the event's chain as a column; pairings, results and the round's signals come from the
read use cases of `ball.tournament.desk_service` (plain data, no session in a route).
"""

from __future__ import annotations

import contextlib
from urllib.parse import quote

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from markupsafe import Markup

from ball.games import game, load, runs_sessions
from ball.games.protocol import Game
from ball.tournament.errors import NotFound, TournamentError
from ball.tournament.names import search_key
from ball.tournament.outcomes import StandingsTable
from ball.tournament.service import TournamentService
from ball.tournament.standings import Standing
from ball.tournament.views import EventView, RoundView, published_only
from ball.web.api.openapi import TEMPORARY_REDIRECT, json_errors
from ball.web.core.deps import desk_gap, gap_of, not_found, now_of, service_for, tournament
from ball.web.core.language import LANGUAGES, gettext_for, js_message_ids
from ball.web.core.templating import N_, render, request_language, templates
from ball.web.core.timefmt import hms
from ball.web.page_cache import PageCache, app_cache, cache_of, cached_page, data_key, shared
from ball.web.public.live_stream import hub_of
from ball.web.public.need import needs_of

router = APIRouter(
    prefix="/public", default_response_class=HTMLResponse, responses=json_errors(404, 422)
)

DEFAULT_REFRESH = 30

# Column headings of the systems' tie-breaks (message ids); a game's own tie-breaks carry
# their words (`GameTieBreak.label`, `short`, `description`).
TIEBREAK_LABELS = {
    "direct-encounter": N_("Direct encounter"),
    "buchholz": N_("Buchholz"),
    "buchholz-cut1": N_("Buchholz cut 1"),
    "buchholz-median": N_("Median Buchholz"),
    "sonneborn-berger": N_("Sonneborn-Berger"),
    "wins": N_("Wins"),
    "won": N_("Games won"),
    "progressive": N_("Progressive score"),
    "koya": N_("Koya"),
}

# Short column headings for a projector (issue 13: eight tie-breaks at 1366x768); the
# legend under the table spells each out. Message ids: each language has its own short form.
TIEBREAK_SHORT = {
    "direct-encounter": N_("DE"),
    "buchholz": N_("Bh"),
    "buchholz-cut1": N_("Bh-1"),
    "buchholz-median": N_("mBh"),
    "sonneborn-berger": N_("SB"),
    "wins": N_("Win"),
    "won": N_("Won"),
    "progressive": N_("Prog"),
    "koya": N_("Koya"),
}
# Rows of standings on one page of a phone or a laptop; a longer table has page links
# (`?page=N`). The projector view has its own, fitted to the screen (`ball.web.public.projector`).
ROWS_PER_PAGE = 25
MAX_QUERY = 80  # a name search longer than any name is cut, not refused
# Started servers fill the shared data of this many newest events before the first request
# (`warm`): three entries each, within the cache's `DATA_ENTRIES`.
WARM_EVENTS = 4
WARM_TEMPLATES = ("public/standings.html", "public/pairings.html", "public/results.html")

# What each of the systems' tie-breaks means, shown as a tooltip and in the legend (message
# ids). The tournament core owns the rule; these are its words for the page, in the page's
# language, and tests/web/test_loose_ends.py checks they say what the core says.
TIEBREAK_DESCRIPTIONS = {
    "direct-encounter": N_(
        "rank inside the tied group by the games between its entrants (1 = best)"
    ),
    "buchholz": N_("sum of the opponents' adjusted scores"),
    "buchholz-cut1": N_("Buchholz without the lowest contribution"),
    "buchholz-median": N_("Buchholz without the lowest and the highest contribution"),
    "sonneborn-berger": N_("sum of opponent's adjusted score times the points scored against them"),
    "wins": N_("rounds scored as a win (forfeit wins and pairing-allocated byes included)"),
    "won": N_("games won over the board"),
    "progressive": N_("sum of the running score after each round"),
    "koya": N_("points scored against opponents who made at least half the maximum"),
}


def _refresh(value: int | None) -> int:
    if value is None:
        return DEFAULT_REFRESH
    return 0 if value <= 0 else max(5, min(value, 600))


refresh_seconds = _refresh  # the other public page modules' name for it


def _event(svc: TournamentService, event_id: int, request: Request) -> EventView:
    return shared(request, event_id, "event", lambda: published_only(svc.desk.event_page(event_id)))


def event_head(svc: TournamentService, event_id: int, request: Request) -> EventView:
    """The event without its entrants and tables (`event_head`), once per event token."""
    return shared(request, event_id, "head", lambda: svc.desk.event_head(event_id))


def warm(app: FastAPI) -> None:
    """At the server's start (`page_cache.lifespan`), before it takes a request: what the
    pages of the `WARM_EVENTS` newest events share under their current tokens (the event
    with its tables, its head, its ranking: the same `shared` entries a first reader would
    fill), the public templates and the languages' messages. Nothing is rendered and
    nothing watched: only the first phones of a (re)started server no longer pay for it.
    Entries are keyed by token, so a write meanwhile only leaves them unused."""
    for name in WARM_TEMPLATES:
        templates.env.get_template(name)
    js_message_ids()
    for lang in LANGUAGES:
        gettext_for(lang)
    svc, cache = service_for(app), app_cache(app)
    for event in svc.desk.event_list()[:WARM_EVENTS]:
        token = svc.desk.event_revision(event.id)
        if token is None:
            continue
        _warm_event(svc, cache, event.id, event.game, token)


def _warm_event(
    svc: TournamentService, cache: PageCache, event_id: int, game_name: str, token: str
) -> None:
    cache.data(data_key(event_id, token, "head"), lambda: svc.desk.event_head(event_id))
    cache.data(
        data_key(event_id, token, "event"), lambda: published_only(svc.desk.event_page(event_id))
    )
    if not runs_sessions(game_name):  # tables of four: no tie-break ranking (`_standings`)
        with contextlib.suppress(TournamentError):  # its page answers 400 itself
            cache.data(
                data_key(event_id, token, "standings"),
                lambda: svc.ranking.standings(event=event_id),
            )


def _figure(value: float | None) -> str:
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


def half_points(value: float) -> str:
    whole = int(value)
    return (str(whole) if whole else "") + "½" if value - whole == 0.5 else _figure(value)


def page_context(request: Request, event: EventView, view: str, refresh: int | None) -> dict:
    return {
        "event": event,
        "view": view,
        "refresh": _refresh(refresh),
        "rounds": [r.number for r in event.rounds_],
    }


@router.get("")
def public_home(
    request: Request,
    refresh: int | None = Query(None),
    svc: TournamentService = Depends(tournament),
):
    events = svc.desk.event_list()
    context = {"events": events, "refresh": _refresh(refresh), "first_view": first_view}
    return render(request, "public/index.html", context)


# The page an event's public display opens on, by its system (issue 36 item 14: a
# knockout opened on Standings); any other system opens on its standings.
FIRST_VIEW = {"knockout": "bracket"}


def first_view(system: str) -> str:
    return FIRST_VIEW.get(system, "standings")


@router.get(
    "/{event_id}",
    status_code=307,
    response_class=RedirectResponse,
    responses=TEMPORARY_REDIRECT,
)
def public_event(event_id: int, request: Request):
    event = event_head(service_for(request.app), event_id, request)
    return RedirectResponse(f"/public/{event_id}/{first_view(event.system)}", status_code=307)


@router.get("/{event_id}/standings")
async def public_standings(
    event_id: int,
    request: Request,
    refresh: int | None = Query(None),
    page: int | None = Query(None, ge=1, le=10_000),
    find: str = Query("", max_length=1000),
):
    svc = service_for(request.app)  # no dependency: a sync one would wait for a thread
    return await cached_page(
        request,
        svc,
        event_id,
        lambda: _standings(event_id, request, refresh, page, find, svc),
    )


def _standings(
    event_id: int,
    request: Request,
    refresh: int | None,
    page: int | None,
    find: str,
    svc: TournamentService,
):
    # the event's head only: the ranking reads the event's rows itself (reading them twice
    # was a third of the first view after a result at 1,000 entrants, issue 15)
    event = event_head(svc, event_id, request)
    query = find.strip()[:MAX_QUERY]
    own = game(event.game).public_standings
    if own is not None:  # tables of four: table points, not a tie-break chain
        page_of = load(own).standings_page
        return page_of(request, _event(svc, event_id, request), refresh, query, svc)
    context = page_context(request, event, "standings", refresh)
    table = ranking(svc, event_id, request)
    found = found_rows(table, query, ROWS_PER_PAGE)
    pages = page_count(len(table.standings), ROWS_PER_PAGE)
    # "find my name" opens the page of the first name found
    page = min(page or (found[0]["page"] if found else 1), pages)
    shown = table.standings[(page - 1) * ROWS_PER_PAGE : page * ROWS_PER_PAGE]
    hits = {row["number"] for row in found}
    page_url = f"/public/{event_id}/standings?page={{n}}" + (
        f"&refresh={refresh}" if refresh is not None else ""
    )
    for row in found:
        row["url"] = page_url.format(n=row["page"]) + "&find=" + quote(query)
    if found and table.in_progress is not None:  # "what I need" in the round being played
        needs = needs_of(svc, event_id, [row["name"] for row in found])
        for row in found:
            row["need"] = needs.get(row["name"])
    context.update(
        rows=[standing_row(s, table.tiebreaks, s.number in hits) for s in shown],
        page=page,
        pages=pages,
        # a reader keeps their page (issue 36 item 13): the refresh reloads this one, and
        # the projector view (`ball.web.public.projector`) is the one that pages by itself
        page_url=page_url,
        find=query,
        found=found,
        # a search is read on a phone: no refresh pulling the answer away
        refresh=0 if query else context["refresh"],
        tiebreaks=tiebreak_columns(table.tiebreaks, game(event.game)),
        after=table.rounds,
        in_progress=table.in_progress,
        rules=table.rules,
    )
    return render(request, "public/standings.html", context)


def ranking(svc: TournamentService, event_id: int, request: Request) -> StandingsTable:
    """The event's ranking, shared by every page of a long table and the projector; an
    event without entrants ranks nobody (after round 0, with its chain)."""
    return shared(request, event_id, "standings", lambda: svc.ranking.standings(event=event_id))


def page_count(rows: int, per_page: int) -> int:
    return max(1, -(-rows // per_page))


def found_rows(table: StandingsTable, query: str, per_page: int) -> list[dict]:
    """ "Find my name": the entrants whose name contains `query` (case and accents ignored,
    the Mahjong seating's `search_key`), each with its rank, points and page."""
    key = search_key(query)
    if not key:
        return []
    return [
        {
            "rank": s.rank,
            "name": s.name,
            "number": s.number,
            "points": half_points(s.points),
            "page": i // per_page + 1,
        }
        for i, s in enumerate(table.standings)
        if key in search_key(s.name)
    ]


def tiebreak_words(tb: str, plugin: Game) -> tuple[str, str, str]:
    """(heading, description, short heading) of tie-break `tb` (message ids): the game's own
    words (`GameTieBreak`), else the systems' tables; an unknown name is shown as it is."""
    own = plugin.tiebreaks.get(tb)
    if own is not None:
        label = own.label or tb
        return label, own.description, own.short or label
    label = TIEBREAK_LABELS.get(tb, tb)
    return label, TIEBREAK_DESCRIPTIONS.get(tb, ""), TIEBREAK_SHORT.get(tb, label)


def tiebreak_columns(tiebreaks: list[str], plugin: Game) -> list[tuple[str, str, str, str]]:
    """(name, heading, description, short heading) of each tie-break column (message ids),
    for the public standings and the desk's, in the event's game's words."""
    return [(tb, *tiebreak_words(tb, plugin)) for tb in tiebreaks]


def standing_row(s: Standing, tiebreaks: list[str], hit: bool = False) -> dict:
    """One row of the standings table as the page shows it (only the page's rows are
    formatted, not the 1,000 of the ranking); `hit`: a name "find my name" found."""
    return {
        "hit": hit,
        "rank": s.rank,
        "name": s.name,
        "number": s.number,
        "points": half_points(s.points),
        "tiebreaks": [_figure(s.tiebreaks.get(tb)) for tb in tiebreaks],
    }


@router.get("/{event_id}/pairings")
async def public_pairings(
    event_id: int,
    request: Request,
    round: int | None = Query(None),
    refresh: int | None = None,
):  # noqa: A002 - the query parameter's public name
    svc = service_for(request.app)
    return await cached_page(
        request,
        svc,
        event_id,
        lambda: _pairings(event_id, request, round, refresh, svc),
        # the round's state line names signal 2's earliest: the page depends on the app's
        # own gap (the one the event's game sets is the same for every rendering of it)
        extra=f"gap={desk_gap(request)}",
    )


def _pairings(
    event_id: int,
    request: Request,
    number: int | None,
    refresh: int | None,
    svc: TournamentService,
):
    event = _event(svc, event_id, request)
    if runs_sessions(event.game):  # a session's tables are its seating
        return RedirectResponse(f"/public/{event_id}/seating", status_code=307)
    rnd = event.round(number)  # the event's own read (a second service call would read it again)
    if number is not None and rnd is None:
        raise not_found(NotFound(f"round {number} is not paired"))
    # the round's tables as the event's read has them (not read again for the control)
    control = (
        svc.desk.control_of_round(event_id, rnd, now_of(request), gap_of(request, event.game))
        if rnd
        else None
    )
    context = page_context(request, event, "pairings", refresh)
    tables = [{"p": p, "result": p.result} for p in rnd.pairings] if rnd else []
    # the round's live boards, once the desk publishes them (a write: a new event token)
    live = rnd is not None and hub_of(request.app).boards.published(event_id, rnd.number)
    context.update(round=rnd, tables=tables, control=control, hms=hms, live=live)
    return render(request, "public/pairings.html", context)


@router.get("/{event_id}/results")
async def public_results(
    event_id: int,
    request: Request,
    refresh: int | None = Query(None),
):
    svc = service_for(request.app)
    return await cached_page(
        request, svc, event_id, lambda: _results(event_id, request, refresh, svc)
    )


def _results(event_id: int, request: Request, refresh: int | None, svc: TournamentService):
    event = _event(svc, event_id, request)
    if runs_sessions(event.game):  # tables of four: their results by session
        return RedirectResponse(f"/public/{event_id}/tables", status_code=307)
    context = page_context(request, event, "results", refresh)
    context["rounds_html"] = [_results_round(request, event, r) for r in reversed(event.rounds_)]
    return render(request, "public/results.html", context)


def _results_round(request: Request, event: EventView, rnd: RoundView) -> Markup:
    """One round's part of the results page. Kept by the digest of the round's rows (and
    the language, and the game, whose result wording differs): a result re-renders its own
    round, not the event's 2,500 tables (issue 15)."""

    def build() -> str:
        tables = [{"p": p, "result": p.result} for p in rnd.pairings]
        context = {"request": request, "event": event, "rnd": rnd, "tables": tables}
        return templates.get_template("public/_results_round.html").render(context)

    if rnd.digest is None:
        return Markup(build())
    key = ("results-round", event.id, event.game, rnd.number, rnd.digest, request_language(request))
    return Markup(cache_of(request).part(key, build))


def groups_context(svc: TournamentService, event: EventView) -> dict:
    """The tables of a groups event as the pages show them (the public page and the desk
    read this one function): each group's rows, the final's, and the tie-break columns.
    Every figure is the core's `standings(...).groups`; nothing is ranked here."""
    section = svc.ranking.standings(event=event.id).groups if event.entrants else None
    chain = list(event.tiebreaks)

    def rows(table: list[dict]) -> list[dict]:
        return [
            {
                "rank": r["rank"],
                "name": r["name"],
                "points": half_points(r["points"]),
                "qualified": bool(r.get("qualified")),
                "tiebreaks": [_figure(r["tiebreaks"].get(tb)) for tb in chain],
            }
            for r in table
        ]

    return {
        "groups": [(g["group"], rows(g["standings"])) for g in (section or {}).get("groups", [])],
        "final": rows(section["final"]["standings"]) if section and section["final"] else None,
        "final_system": section["final"]["system"] if section and section["final"] else "",
        "tiebreaks": [
            (tb, label, short) for tb, label, _d, short in tiebreak_columns(chain, game(event.game))
        ],
    }


@router.get("/{event_id}/groups")
async def public_groups(
    event_id: int,
    request: Request,
    refresh: int | None = Query(None),
):
    """A groups event (seed 004, 11.3): one table per group (rank, name, points and the
    chain's tie-breaks; the qualifiers marked), then the final's table once it started."""
    svc = service_for(request.app)
    return await cached_page(
        request, svc, event_id, lambda: _groups(event_id, request, refresh, svc)
    )


def _groups(event_id: int, request: Request, refresh: int | None, svc: TournamentService):
    event = _event(svc, event_id, request)
    if event.system != "groups":
        raise HTTPException(404, f"event {event_id} is not played in groups")
    tables = groups_context(svc, event)
    context = page_context(request, event, "groups", refresh)
    context.update(tables)
    return render(request, "public/groups.html", context)
