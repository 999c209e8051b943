"""Where the desk's code lives (issue 12): tables in their subsystem's `models.py`, routes
without sessions or queries, and no module importing the desk's helpers."""

from __future__ import annotations

import ast
import inspect

import ball.web.desk.entrants
import ball.web.desk.events
import ball.web.desk.results
import ball.web.desk.rounds
import ball.web.public.display
from ball.storage import Base
from ball.web.app import create_app

HOMES = {"tournament": "ball.tournament.models", "desk": None, "web": "ball.web.core.models"}
WEB_DESK_TABLES = {
    "desk_access", "desk_sessions", "desk_pin_throttle", "desk_recovery", "desk_live_broadcasts",
}  # fmt: skip
PLAY_TABLES = {"web_games", "web_search_jobs"}  # the simulator's games, below the web


def test_every_desk_tournament_and_web_table_is_declared_in_a_models_module():
    create_app()  # imports every router, so every table is mapped
    homes = {m.local_table.name: m.class_.__module__ for m in Base.registry.mappers}
    for table, module in homes.items():
        prefix = table.split("_")[0]
        if prefix not in HOMES:
            continue
        if table in PLAY_TABLES:
            assert module == "ball.play.models", (table, module)
        elif table in WEB_DESK_TABLES or prefix == "web":
            assert module == "ball.web.core.models", (table, module)
        else:
            assert module == "ball.tournament.models", (table, module)


def _routes(module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(inspect.getsource(module))
    return [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(
            isinstance(d, ast.Call) and getattr(d.func, "attr", "") in ("get", "post")
            for d in node.decorator_list
        )
    ]


def test_routes_open_no_session_and_run_no_query():
    desk = ball.web.desk
    pages = (desk.events, desk.entrants, desk.rounds, desk.results)
    for module in (*pages, ball.web.public.display):
        routes = _routes(module)
        assert routes, module
        for route in routes:
            for node in ast.walk(route):
                if isinstance(node, ast.Call):
                    name = getattr(node.func, "attr", getattr(node.func, "id", ""))
                    assert name not in ("sessions", "select", "scalar", "scalars", "execute"), (
                        module.__name__,
                        route.name,
                        name,
                    )


def test_public_display_does_not_reach_into_the_desk():
    tree = ast.parse(inspect.getsource(ball.web.public.display))
    imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(m == "ball.web.desk" or m.startswith("ball.web.desk.") for m in imported)
