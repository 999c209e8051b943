"""HTML pages of the simulator, the interactive rulebook and the replay viewer.

Thin: the pages carry data attributes and the scripts ask the JSON API for everything else.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse

from ball.games.ball.engine.ruleset import available_rulesets
from ball.games.ball.web import rulebook
from ball.web.core.language import STATIC_JS
from ball.web.core.templating import N_, render, request_language

FAVICON = STATIC_JS.parent / "favicon.svg"  # the site's, in the shared static folder

router = APIRouter(include_in_schema=False)

# How the "New game" bar names the shipped rulesets; another ruleset shows its file name.
RULESET_LABELS = {
    "standard": N_("Standard rules"),
    "pe": N_("PE mode"),
    "cards": N_("Card mode (provisional deck)"),
}


def ruleset_choices() -> list[tuple[str, str]]:
    """(name, message id) of every shipped and organiser-installed ruleset, standard first."""
    names = sorted(available_rulesets(), key=lambda n: (n != "standard", n))
    return [(name, RULESET_LABELS.get(name, name)) for name in names]


@router.get("/", response_class=HTMLResponse)
def simulator(request: Request, game: str | None = None):
    context = {"game_id": game or "", "rulesets": ruleset_choices()}
    return render(request, "ball/simulator.html", context)


@router.get("/rulebook", response_class=HTMLResponse)
def rulebook_index(request: Request):
    sections = rulebook.sections(request_language(request))
    return render(request, "ball/rulebook/index.html", {"sections": sections})


@router.get("/rulebook/all", response_class=HTMLResponse)
def rulebook_all(request: Request):
    sections = rulebook.sections(request_language(request))
    context = {"sections": sections, "shown": sections, "one": None}
    return render(request, "ball/rulebook/section.html", context)


@router.get("/rulebook/{slug}", response_class=HTMLResponse)
def rulebook_section(request: Request, slug: str):
    lang = request_language(request)
    one = rulebook.section(lang, slug)
    if one is None:
        raise HTTPException(404, f"no rulebook section {slug!r}")
    sections = rulebook.sections(lang)
    index = sections.index(one)
    return render(
        request,
        "ball/rulebook/section.html",
        {
            "sections": sections,
            "shown": [one],
            "one": one,
            "previous": sections[index - 1] if index > 0 else None,
            "next": sections[index + 1] if index + 1 < len(sections) else None,
        },
    )


@router.get("/replay", response_class=HTMLResponse)
def replay(request: Request, game: str | None = None):
    return render(request, "ball/replay.html", {"game_id": game or ""})


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico whatever the page says; they get the SVG icon."""
    return FileResponse(FAVICON, media_type="image/svg+xml")
