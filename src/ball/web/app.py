"""The web toolbox's FastAPI application and how other modules plug into it.

Plugging in a page or API module (one line)
-------------------------------------------
Add the module path to `ROUTERS` below. The module must expose `router: fastapi.APIRouter`;
it is included as-is (give it its own prefix, e.g. `APIRouter(prefix="/clock")`). Add a
navigation entry with one line in `ball.web.core.templating.TOOLS_NAV` if the module has a page
(`("/path", N_("Label"))`; the label is translated through the shared catalogue).

What a plug-in module gets
--------------------------
- Database: `request.app.state.sessions` is the SQLAlchemy `sessionmaker` of the migrated
  database (every Alembic branch is at its head); `request.app.state.engine` is the Engine.
  As a dependency: `session: Session = Depends(ball.web.app.db_session)` (one session per
  request, closed afterwards; commit yourself).
- Language: `request.state.lang` is one of `ball.web.core.language.LANGUAGES` ("en", "ko", "bg"),
  chosen from `?lang=`, the `ball_lang` cookie, Accept-Language, then English.
  `ball.web.core.language.gettext_for(lang)` gives the gettext function for Python-side strings.
- Pages: `ball.web.core.templating.render(request, "clock/page.html", {...})`; templates extend
  `base.html` (blocks `title`, `head`, `content`, `scripts`), call `_("text")` for UI
  strings, and mark everything that must not be printed with class `no-print` (nav and
  `.controls` are hidden in print already).
- Static files: `src/ball/web/static/` is served at `/static/` (so `static/clock/x.js` is
  `/static/clock/x.js`), then each game's own folder (`Game.static`: `xiangqi.js` is
  `games/xiangqi/static/js/xiangqi.js`). Nothing comes from a CDN.
- Demo data: `ball serve --demo` calls every function named in `DEMO_SEEDERS`
  ("module:function", called with the sessionmaker; make it idempotent), then each game's
  (`Game.demo`).
- Access (arbiter desk, `ball.web.core.security`): public pages need nothing; a desk page needs the
  event's PIN session (cookie per event, hashes in `desk_sessions`), and every state-changing
  desk request is refused unless it is same-origin (403), has the session (401) and repeats
  its CSRF token in the form field `csrf` or the `X-CSRF-Token` header (403).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import Engine, create_engine
from sqlalchemy.exc import DataError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from ball.games import GAMES
from ball.storage import make_engine, migrate
from ball.web import page_cache
from ball.web.api import openapi
from ball.web.core import methods, tournament_errors
from ball.web.core.headers import TEST_HOSTS, HostCheck, SecurityHeaders, inline_script_hashes
from ball.web.core.language import Language
from ball.web.core.limits import BodyLimit, Limits, RequestBudget
from ball.web.core.methods import not_allowed, path_taken_by_another_route

STATIC = Path(__file__).with_name("static")

# Modules exposing `router: APIRouter`, included in this order; each registered game's own
# (`Game.routers`) come after these.
ROUTERS: list[str] = [
    "ball.web.clocks.pages",
    "ball.web.print.pages",
    "ball.web.desk.events",
    "ball.web.desk.access",
    "ball.web.desk.entrants",
    "ball.web.desk.rounds",
    "ball.web.desk.results",
    "ball.web.desk.sanctions",
    "ball.web.desk.formats",
    "ball.web.desk.check",
    "ball.web.desk.standings",
    "ball.web.desk.whatif",
    "ball.web.desk.table_entry",
    "ball.web.public.display",
    "ball.web.public.formats",
    "ball.web.public.projector",
    "ball.web.public.crosstable",
    "ball.web.public.live_pages",
]

# "module:function" called with the app when it starts, before its first request
# (`page_cache.lifespan`): the public display's shared data of the newest events.
WARM_UP = "ball.web.public.display:warm"

# "module:function" called with the sessionmaker by `ball serve --demo`.
DEMO_SEEDERS: list[str] = [
    "ball.web.desk.demo:seed_demo_event",
    "ball.web.clocks.pages:seed_demo_clocks",
]


def _database(db: str | None) -> Engine:
    """The migrated engine of `db`; without one (tests, quick looks) an in-memory SQLite."""
    if db is None:
        import os

        from ball.storage import DEFAULT_ENV

        if os.environ.get(DEFAULT_ENV):
            engine = make_engine(None)
        else:
            engine = create_engine(
                "sqlite://",
                poolclass=StaticPool,
                connect_args={"check_same_thread": False},
            )
    else:
        engine = make_engine(db)
    migrate(engine)
    return engine


def static_folders() -> list[Path]:
    """Where the files under /static/ are: the shared folder, then each game's own."""
    return [STATIC, *game_static()]


def game_static() -> list[Path]:
    """The static folders of every registered game, in the registry's order."""
    return [entry.static for entry in GAMES.values() if entry.static is not None]


def game_routers() -> list[str]:
    """The web modules of every registered game, in the registry's order."""
    return [name for entry in GAMES.values() for name in entry.routers]


def game_demos() -> list[str]:
    """The demo seeders of every registered game, in the registry's order."""
    return [entry.demo for entry in GAMES.values() if entry.demo is not None]


def _resolve(spec: str):
    module_name, _, attribute = spec.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def db_session(request: Request) -> Iterator[Session]:
    """FastAPI dependency: one session of the app's database for the request."""
    with request.app.state.sessions() as session:
        yield session


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def _offline_docs(app: FastAPI) -> None:
    """OpenAPI docs at /docs with Swagger UI from the `swagger-ui-bundle-v2` package."""
    import swagger_ui_bundle

    app.mount(
        "/api-docs-assets",
        StaticFiles(directory=swagger_ui_bundle.swagger_ui_path),
        name="api-docs-assets",
    )

    # A module-level endpoint, not a closure over `app`: FastAPI's caches keyed by endpoint
    # would otherwise keep every app alive (one per process in production, but hundreds
    # per test worker, each full garbage collection walking them all).
    app.add_api_route("/docs", _docs, include_in_schema=False)


def _docs(request: Request) -> HTMLResponse:
    """Swagger UI over the app's own OpenAPI document (assets served from the package)."""
    from fastapi.openapi.docs import get_swagger_ui_html

    page = get_swagger_ui_html(
        openapi_url=request.app.openapi_url or "/openapi.json",
        title="BALL Toolbox API",
        swagger_js_url="/api-docs-assets/swagger-ui-bundle.js",
        swagger_css_url="/api-docs-assets/swagger-ui.css",
        swagger_favicon_url="/api-docs-assets/favicon-32x32.png",
    )
    # Swagger UI starts from an inline script: allow exactly that one by its hash.
    scripts = " ".join(inline_script_hashes(bytes(page.body).decode()))
    page.headers["Content-Security-Policy"] = (
        f"default-src 'self'; script-src 'self' {scripts}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )
    return page


def _desk_session_check(app: FastAPI):
    """The request budget's question "is this an arbiter?", on the app's own database."""
    import time

    from ball.web.core.security import any_desk_session

    def check(cookies: dict[str, str]) -> bool:
        source = getattr(app.state, "clock_time", None) or time.time
        return any_desk_session(app.state.sessions, cookies, float(source()))

    return check


def create_app(
    db: str | None = None,
    *,
    demo: bool = False,
    limits: Limits | None = None,
    allowed_hosts: Iterable[str] | None = None,
) -> FastAPI:
    """The web toolbox on database `db` (file path or URL; None = BALL_DB or in memory);
    `limits` (default: `Limits.from_env()`) bounds what one client may make it do;
    `allowed_hosts` are the Host names it answers to (default: loopback and `testserver`;
    `ball serve` passes the addresses it binds, see `ball.web.core.headers`)."""
    app = FastAPI(
        title="BALL Toolbox",
        summary="Simulator, interactive rulebook and tournament toolbox for BALL.",
        version="0.1.0",
        docs_url=None,  # served below from packaged assets: the venue has no internet
        redoc_url=None,
        lifespan=page_cache.lifespan,  # public pages render after writes while it runs
    )
    _offline_docs(app)
    engine = _database(db)
    app.state.engine = engine
    app.state.sessions = sessionmaker(engine, expire_on_commit=False)
    app.state.limits = limits or Limits.from_env()
    # Pure ASGI (not BaseHTTPMiddleware): the body is counted as it streams in.
    app.add_middleware(BodyLimit, max_bytes=app.state.limits.max_body_bytes)
    # Before any route: one address's flood is refused, the arbiter's session never is.
    app.add_middleware(
        RequestBudget, limits=app.state.limits, has_desk_session=_desk_session_check(app)
    )
    app.add_middleware(SecurityHeaders)
    # Outside the others of ours: a foreign Host is refused before any route runs.
    hosts = TEST_HOSTS if allowed_hosts is None else tuple(allowed_hosts)
    app.add_middleware(HostCheck, allowed=hosts)
    app.add_middleware(Language)  # pure ASGI too: BaseHTTPMiddleware cost 16 % (issue 15)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        # GET /desk/events reaches GET /desk/{event_id}, whose id does not convert: the
        # resource is POST /desk/events, so the answer is its 405, not the id's 422.
        in_path = all(error.get("loc", ("",))[0] == "path" for error in exc.errors())
        if in_path and (allowed := path_taken_by_another_route(request)):
            return not_allowed(allowed)
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    methods.install(app)  # every 405 lists all the path's methods in Allow
    tournament_errors.install(app)  # a refused use case is 400, a missing event 404

    @app.exception_handler(DataError)
    async def refused_value(_request: Request, exc: DataError):
        # PostgreSQL refuses values SQLite stores (NUL bytes, numbers beyond a column's
        # range); the transaction is rolled back, so it is bad input, not a server fault.
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else "invalid value"
        return JSONResponse({"detail": f"rejected by the database: {reason}"}, status_code=400)

    files = StaticFiles(directory=str(STATIC))
    files.all_directories = [*files.all_directories, *game_static()]  # searched in order
    app.mount("/static", files, name="static")
    for module_name in [*ROUTERS, *game_routers()]:
        app.include_router(importlib.import_module(module_name).router)
    app.state.warm_up = _resolve(WARM_UP)
    openapi.install(app)  # the document says what the routes really answer
    if demo:
        for spec in [*DEMO_SEEDERS, *game_demos()]:
            _resolve(spec)(app.state.sessions)
    return app
