"""The one Jinja environment of the web toolbox, shared by every page module.

Plug-in page modules render with `render(request, "their/template.html", {...})`; every
template may use `_("text")` (gettext in the request's language), `lang`, `languages` and
`nav` (the main navigation), and may extend `base.html`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import BaseLoader, ChoiceLoader, Environment, TemplateNotFound, pass_context

from ball.games import GAMES, game, pairs_players, runs_sessions
from ball.web.core.language import DEFAULT_LANGUAGE, LANGUAGES, gettext_for, js_messages

TEMPLATES = Path(__file__).parents[1] / "templates"


def N_(message: str) -> str:
    """Marks a message id for extraction; translated where it is shown."""
    return message


# Main navigation: (path, message id). Page modules of other engineers add one line here;
# each registered game's pages (`Game.nav`) come between the simulator's and the tools.
TOOLS_NAV: list[tuple[str, str]] = [
    ("/clock", N_("Clocks")),
    ("/desk", N_("Arbiter desk")),
    ("/public", N_("Public display")),
    ("/print/regulation", N_("Print edition")),
]


def request_language(request: Request) -> str:
    return getattr(request.state, "lang", DEFAULT_LANGUAGE)


@pass_context
def _gettext(context, message: str, **variables: Any) -> str:
    request = context.get("request")
    lang = request_language(request) if request is not None else DEFAULT_LANGUAGE
    text = gettext_for(lang)(message)
    return text % variables if variables else text


def _common(request: Request) -> dict[str, Any]:
    lang = request_language(request)
    # `ball publish` (ball.web.static_site) renders through the same routes with the
    # languages it writes in the request's state: the pages then leave out what needs the
    # server (site navigation, searches, the language cookie's script) and offer only those
    # languages. No HTTP request can set the ASGI state, so the live pages never change.
    published = getattr(request.state, "static_languages", None)
    languages = LANGUAGES if published is None else {k: LANGUAGES[k] for k in published}
    return {
        "lang": lang,
        "languages": languages,
        "nav": [*(item for g in GAMES.values() for item in g.nav), *TOOLS_NAV],
        "ui_messages": js_messages(lang),
        "static_site": published is not None,
    }


class GameTemplates(BaseLoader):
    """The templates a registered game brings in its own folder (`Game.templates`: its desk
    form), looked up when the shared folder has no such template. The registry is read at
    each lookup, so a game registered after start-up (a test's) is found too."""

    def get_source(self, environment: Environment, template: str):
        for entry in GAMES.values():
            path = None if entry.templates is None else entry.templates / template
            if path is not None and path.is_file():
                return path.read_text(encoding="utf-8"), str(path), _unchanged(path)
        raise TemplateNotFound(template)


def _unchanged(path: Path):
    """Whether the template file is as it was read (Jinja's auto-reload check)."""
    mtime = path.stat().st_mtime
    return lambda: path.is_file() and path.stat().st_mtime == mtime


templates = Jinja2Templates(directory=str(TEMPLATES), context_processors=[_common])
assert templates.env.loader is not None  # Starlette's loader of TEMPLATES
templates.env.loader = ChoiceLoader([templates.env.loader, GameTemplates()])
templates.env.globals["_"] = _gettext
templates.env.globals["gettext"] = _gettext
# Whether a game's events rank through the shared standings (the registered two-player
# games); the registry answers, so a template never names a game for it.
templates.env.globals["has_standings"] = pairs_players
# What a template asks the event's game (its side labels, its table clocks, ...): the game
# answers, by its registry entry (`ball.games`).
templates.env.globals["game_of"] = game
templates.env.globals["runs_sessions"] = runs_sessions


def render(request: Request, name: str, context: dict[str, Any] | None = None, **kwargs: Any):
    """A TemplateResponse of `name` for `request` (language and navigation filled in)."""
    return templates.TemplateResponse(request, name, context or {}, **kwargs)
