"""The layout of the whole package (issue 12): every module under `src/ball` parsed with `ast`.

Imports point downward only in the layer table of docs/architecture.md (read from the
document, so the two cannot drift apart); the pure game packages do no I/O; a `_private`
name is used only in its own module (a package's `_`-modules only inside that package);
the packages' graph has no cycle; every module opens with a docstring saying what it owns;
every table is declared in its subsystem's `models` module; no web route opens a session or
runs a query. A fault names the file and line. The checks are also run on synthetic source
strings, to prove that each one fails when it should.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# The games' rules: pure data and functions, no I/O (docs/architecture.md, "Pure packages").
# `ball.games.*.engine` stands for every game folder's `engine`.
GAME_RULES = "ball.games.*.engine"
PURE = frozenset({GAME_RULES})
# What a pure package may not import: databases, the web, the network, other processes and
# threads, the terminal and the clock. Reading its own rule files (tomllib,
# importlib.resources, pathlib, os.environ for the organiser's directory, D-37) is allowed.
IO_MODULES = frozenset(
    {
        "sqlalchemy", "alembic", "sqlite3", "psycopg", "psycopg2", "dbm", "shelve",
        "fastapi", "starlette", "uvicorn", "jinja2", "weasyprint", "babel",
        "httpx", "requests", "urllib", "http", "socket", "ssl", "asyncio", "selectors",
        "subprocess", "multiprocessing", "threading", "concurrent", "signal",
        "typer", "click", "rich", "curses",
        "time", "datetime", "tempfile", "shutil",
    }
)  # fmt: skip
# Layers 4 and 5 may import within their layer (services use each other, `ball serve`
# starts the web); layers 1 to 3 import only themselves and what is below.
SAME_LAYER_FROM = 4
MIN_DOCSTRING = 40


# ------------------------------------------------------------------- the layer table


def read_layers(markdown: str) -> dict[str, int]:
    """`{package: layer}` from the rows `| n | packages | ... |` of the layer table."""
    layers: dict[str, int] = {}
    for row in re.finditer(r"^\| (\d) \| ([^|]+) \|", markdown, re.MULTILINE):
        for package in re.findall(r"`(ball(?:\.games\.\*)?\.[a-z_0-9]+)`", row.group(2)):
            layers[package] = int(row.group(1))
    return layers


LAYERS = read_layers(ARCHITECTURE.read_text(encoding="utf-8"))


# Inside a game's folder (`ball.games.<game>`) its pure rules are its `engine`, at the bottom;
# its `Game` and result document are its top-level modules, in the games' layer; each other
# sub-folder extends a shared package and sits in that package's layer (the game's web and
# CLI at the top), so a game's rules never import its own pages.
GAME_PARTS = {
    "engine": GAME_RULES,
    "match": "ball.games.*.match",
    "web": "ball.web",
    "cli": "ball.cli",
    "paper": "ball.printing",
    "ai": "ball.games.*.ai",
    "sim": "ball.games.*.sim",
    "play": "ball.play",
    "clocks": "ball.clocks",
    "tournament": "ball.tournament",
}
# The modules of `ball.games` that are no game's folder: the protocol every game implements.
GAMES_SHARED = frozenset({"protocol", "errors", "forms"})


def package_of(module: str) -> str:
    """`ball.x` for any module inside it; `ball` for the root package itself; a game's
    sub-folder (`ball.games.xiangqi.web`) for the modules in it."""
    parts = module.split(".")
    if parts[:2] == ["ball", "games"] and len(parts) >= 4 and parts[3] in GAME_PARTS:
        return ".".join(parts[:4])
    return ".".join(parts[:2])


def layer_of(package: str, layers: dict[str, int]) -> int | None:
    """The layer of a package of the layer table, or of a game's sub-folder (its shared
    package's)."""
    if package.startswith("ball.games."):
        return layers.get(GAME_PARTS[package.rsplit(".", 1)[1]])
    return layers.get(package)


def game_folder(module: str) -> str | None:
    """`ball.games.<game>` when the module is in a game's folder, else None."""
    parts = module.split(".")
    if parts[:2] == ["ball", "games"] and len(parts) >= 3 and parts[2] not in GAMES_SHARED:
        return ".".join(parts[:3])
    return None


# ------------------------------------------------------------------------ modules


@dataclass(frozen=True)
class Module:
    name: str  # dotted: ball.games.ball.engine.board
    path: str  # as shown in a fault
    source: str
    is_package: bool = False


def src_modules() -> list[Module]:
    found = []
    for path in sorted((SRC / "ball").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        rel = str(path.relative_to(ROOT))
        found.append(Module(name, rel, path.read_text(encoding="utf-8"), is_package))
    return found


MODULES = src_modules()
NAMES = frozenset(m.name for m in MODULES)


@dataclass(frozen=True)
class Imported:
    line: int
    target: str  # the module imported from (absolute)
    name: str | None  # the name taken from it (`from target import name`), or None


@cache
def tree_of(module: Module) -> ast.Module:
    return ast.parse(module.source, module.path)


@cache
def nodes_of(module: Module) -> tuple[ast.AST, ...]:
    """Every node of the module's tree in `ast.walk` order, walked once: five checks scan
    every module (~270,000 nodes), and each walk of them cost ~0.3 s of CPU."""
    return tuple(ast.walk(tree_of(module)))


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.name.split(".")
    if not module.is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: Module) -> Iterator[Imported]:
    """Every import in the module, at any depth (lazy imports in functions included)."""
    for node in nodes_of(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(node.lineno, alias.name, None)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, node)
            for alias in node.names:
                yield Imported(node.lineno, target, alias.name)


def _is_private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


# ------------------------------------------------------------------------- checks


def layer_fault(importer: str, target: str, layers: dict[str, int]) -> str | None:
    source, dest = package_of(importer), package_of(target)
    if dest == source or target == "ball":
        return None
    found = {package: layer_of(package, layers) for package in (source, dest)}
    for package, layer in found.items():
        if layer is None:
            return f"{package} is in no layer of docs/architecture.md's layer table"
    low, high = found[source] or 0, found[dest] or 0
    if high > low:
        return f"imports {target} (layer {high}) from layer {low}: imports point downward only"
    if high == low < SAME_LAYER_FROM:
        return f"imports {target}: a layer-{low} package imports only itself"
    return None


def game_folder_fault(importer: str, target: str) -> str | None:
    """Shared code reaches a game's folder only through the registry (`ball.games`, which
    imports each game's `game` module: one line per game); no game reaches another's."""
    folder = game_folder(target)
    if folder is None or game_folder(importer) == folder:
        return None
    if importer == "ball.games" and target == f"{folder}.game":
        return None
    return f"imports {target}: a game's folder is reached through the registry (ball.games)"


def private_fault(importer: str, dotted: str, names: frozenset[str]) -> str | None:
    """`dotted` (a module, or a module's attribute) used from `importer`: a private name is
    used only in its module; a package's `_`-module only inside that package."""
    parts = dotted.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if not _is_private(part):
            continue
        owner = ".".join(parts[:i])
        if ".".join(parts[: i + 1]) in names:  # a private module of package `owner`
            if importer == owner or importer.startswith(owner + "."):
                continue
            return f"uses {dotted}: {part} is private to the package {owner}"
        if importer != owner:
            return f"uses {dotted}: {part} is private to the module {owner}"
    return None


def is_pure(package: str) -> bool:
    """Whether `package` (as `package_of` names it) holds a game's pure rules."""
    if package.startswith("ball.games.") and package.endswith(".engine"):
        return GAME_RULES in PURE
    return package in PURE


def io_fault(importer: str, target: str) -> str | None:
    if is_pure(package_of(importer)) and target.split(".")[0] in IO_MODULES:
        return f"imports {target}: the pure package {package_of(importer)} does no I/O"
    return None


def _module_aliases(module: Module, names: frozenset[str]) -> dict[str, str]:
    """Local names bound to a `ball` module (`import ball.x as y`, `from ball.x import y`)."""
    bound: dict[str, str] = {}
    for node in nodes_of(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and alias.name in names:
                    bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, node)
            for alias in node.names:
                if f"{target}.{alias.name}" in names:
                    bound[alias.asname or alias.name] = f"{target}.{alias.name}"
    return bound


def violations(
    module: Module, names: frozenset[str] = NAMES, layers: dict[str, int] = LAYERS
) -> list[str]:
    """Every layout fault of one module, each as `path:line: what`."""
    found = []
    for imp in imports(module):
        dotted = imp.target if imp.name in (None, "*") else f"{imp.target}.{imp.name}"
        faults = [io_fault(module.name, imp.target)]
        if imp.target == "ball" or imp.target.startswith("ball."):
            faults += [
                layer_fault(module.name, imp.target, layers),
                private_fault(module.name, dotted, names),
                game_folder_fault(module.name, imp.target),
            ]
        found += [f"{module.path}:{imp.line}: {f}" for f in faults if f]
    aliases = _module_aliases(module, names)
    for node in nodes_of(module):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and _is_private(node.attr)
        ):
            fault = private_fault(module.name, f"{aliases[node.value.id]}.{node.attr}", names)
            if fault:
                found.append(f"{module.path}:{node.lineno}: {fault}")
    return found


def package_edges(modules: list[Module]) -> dict[str, set[str]]:
    """`{package: packages it imports}` between different `ball` packages."""
    edges: dict[str, set[str]] = {}
    for module in modules:
        for imp in imports(module):
            source, dest = package_of(module.name), package_of(imp.target)
            if imp.target.startswith("ball.") and dest != source:
                edges.setdefault(source, set()).add(dest)
    return edges


def docstring_fault(module: Module) -> str | None:
    doc = ast.get_docstring(tree_of(module))
    if doc is None:
        return f"{module.path}:1: no opening docstring saying what the module owns"
    if len(doc.strip()) < MIN_DOCSTRING:
        return f"{module.path}:1: opening docstring too short to say what it owns: {doc!r}"
    return None


# -------------------------------------------------------------- the package itself


def test_the_layer_table_lists_every_package_and_the_pure_games_at_the_bottom():
    packages = {package_of(m.name) for m in MODULES} - {"ball"}
    assert not [p for p in packages if layer_of(p, LAYERS) is None], sorted(packages)
    assert {LAYERS[p] for p in PURE} == {1}
    assert LAYERS["ball.storage"] == LAYERS["ball.i18n"] == 1
    assert LAYERS["ball.games.*.match"] == 2 and LAYERS["ball.web"] == LAYERS["ball.cli"] == 5
    # The registry of games sits above the rules it wraps and below every package that asks
    # a game (tournament, printing, web, CLI), so none of them needs to name a game.
    assert LAYERS["ball.games.*.match"] < LAYERS["ball.games"] < LAYERS["ball.tournament"]
    assert LAYERS["ball.games"] < min(LAYERS["ball.printing"], LAYERS["ball.web"])
    # The simulator's stored games sit below the web that serves them (issue 31).
    assert LAYERS["ball.play"] < LAYERS["ball.web"]


def test_imports_point_downward_keep_private_names_home_and_pure_packages_do_no_io():
    faults = [fault for module in MODULES for fault in violations(module)]
    assert not faults, "\n".join(faults)


def test_the_packages_import_each_other_without_a_cycle():
    TopologicalSorter(package_edges(MODULES)).prepare()  # CycleError names the cycle


def test_every_module_opens_with_a_docstring_saying_what_it_owns():
    faults = [f for f in map(docstring_fault, MODULES) if f]
    assert not faults, "\n".join(faults)


# Where each table lives, by the prefix of its name (the desk's rows are the tournament's,
# its access rows the web's).
TABLE_HOMES = {
    "clock": {"ball.clocks.models"},
    "tournament": {"ball.tournament.models"},
    "desk": {"ball.tournament.models", "ball.web.core.models"},
    "web": {"ball.web.core.models", "ball.play.models"},
}


def declared_tables(module: Module) -> Iterator[tuple[int, str]]:
    """`(line, table name)` of each class on `Base` the module declares."""
    for node in nodes_of(module):
        if isinstance(node, ast.ClassDef) and any(
            getattr(b, "id", getattr(b, "attr", "")) == "Base" for b in node.bases
        ):
            for item in node.body:
                if (
                    isinstance(item, ast.Assign)
                    and any(getattr(t, "id", "") == "__tablename__" for t in item.targets)
                    and isinstance(item.value, ast.Constant)
                ):
                    yield node.lineno, str(item.value.value)


def table_faults(modules: list[Module]) -> list[str]:
    faults = []
    for module in modules:
        for line, table in declared_tables(module):
            homes = TABLE_HOMES.get(table.split("_")[0], {"(a module for a listed prefix)"})
            if module.name not in homes:
                faults.append(f"{module.path}:{line}: table {table} belongs in {sorted(homes)}")
    return faults


def test_every_table_is_declared_in_its_subsystems_models_module():
    tables = {table for m in MODULES for _line, table in declared_tables(m)}
    assert {"clock_clocks", "clock_events", "tournament_events", "desk_access"} <= tables
    faults = table_faults(MODULES)
    assert not faults, "\n".join(faults)


ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "api_route"})
STORAGE_CALLS = frozenset({"sessions", "select", "scalar", "scalars", "execute"})


def route_faults(module: Module) -> list[str]:
    """Calls that open a session or run a query inside a route function of a web module."""
    found = []
    for node in tree_of(module).body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        decorators = [d for d in node.decorator_list if isinstance(d, ast.Call)]
        if not any(getattr(d.func, "attr", "") in ROUTE_DECORATORS for d in decorators):
            continue
        for call in ast.walk(node):
            if isinstance(call, ast.Call):
                name = getattr(call.func, "attr", getattr(call.func, "id", ""))
                if name in STORAGE_CALLS:
                    found.append(f"{module.path}:{call.lineno}: route {node.name} calls {name}")
    return found


def test_no_web_route_opens_a_session_or_runs_a_query():
    web = [m for m in MODULES if package_of(m.name) == "ball.web"]
    faults = [f for m in web for f in route_faults(m)]
    assert not faults, "\n".join(faults)


# ------------------------------------------------------------------ inside the web

# `ball.web` by audience (issue 31): the core every page module shares at the bottom, the
# audiences above it (importing the core and each other, without a cycle), and the app's
# wiring on top (`create_app`, the workers, `ball publish`), which nothing below imports.
WEB_CORE = "ball.web.core"
WEB_AUDIENCES = frozenset(
    {"ball.web.api", "ball.web.clocks", "ball.web.desk", "ball.web.print", "ball.web.public"}
)
WEB_WIRING = frozenset({"ball.web", "ball.web.app", "ball.web.workers", "ball.web.static_site"})
# The caches still at the top of `ball.web` (the fast paths that pay, docs/performance.md),
# each counted with the audience it serves.
WEB_WAITING = {
    "ball.web.page_cache": "ball.web.public",
    "ball.web.page_store": "ball.web.public",
    "ball.web.pdf_cache": "ball.web.print",
}
WEB_LEVEL = {WEB_CORE: 0, **dict.fromkeys(WEB_AUDIENCES, 1), "ball.web": 2}
# Only the web speaks HTTP: below it (the simulator's games in `ball.play` included) no
# module imports a web framework.
WEB_FRAMEWORKS = frozenset({"fastapi", "starlette"})


def web_part(module: str) -> str | None:
    """The part of `ball.web` a module belongs to: its sub-package, the audience a waiting
    module serves, or `ball.web` for the wiring; None for a module in no part."""
    sub = ".".join(module.split(".")[:3])
    if sub in WEB_LEVEL and sub != "ball.web":
        return sub
    if module in WEB_WAITING:
        return WEB_WAITING[module]
    return "ball.web" if module in WEB_WIRING else None


def imported_module(imp: Imported, names: frozenset[str]) -> str:
    """The module an import reads: `from ball.web import app` reads `ball.web.app`."""
    dotted = f"{imp.target}.{imp.name}"
    return dotted if dotted in names else imp.target


def is_game_web(module: str) -> bool:
    """A game's own pages (`ball.games.<game>.web.*`): web code in the game's folder."""
    parts = module.split(".")
    return parts[:2] == ["ball", "games"] and len(parts) > 4 and parts[3] == "web"


def web_faults(module: Module, names: frozenset[str] = NAMES) -> list[str]:
    """Imports inside `ball.web` that point upward (core < audiences < wiring), and a web
    framework imported outside the web (`ball.web` and the games' `web` folders)."""
    found = []
    inside = package_of(module.name) == "ball.web"
    if inside and web_part(module.name) is None:
        found.append(f"{module.path}:1: {module.name} is in no part of ball.web (test_layout)")
    for imp in imports(module):
        if not inside:
            if imp.target.split(".")[0] in WEB_FRAMEWORKS and not is_game_web(module.name):
                found.append(f"{module.path}:{imp.line}: imports {imp.target} below the web")
            continue
        target = imported_module(imp, names)
        source, dest = web_part(module.name), web_part(target)
        if package_of(target) != "ball.web" or None in (source, dest) or source == dest:
            continue
        if WEB_LEVEL[dest] > WEB_LEVEL[source]:  # type: ignore[index]
            found.append(
                f"{module.path}:{imp.line}: imports {target} ({dest}) from {source}: inside the "
                "web, imports point downward (core, then the audiences, then the app's wiring)"
            )
    return found


def web_edges(modules: list[Module], names: frozenset[str] = NAMES) -> dict[str, set[str]]:
    """`{part of ball.web: the parts it imports}`."""
    edges: dict[str, set[str]] = {}
    for module in modules:
        source = web_part(module.name)
        if package_of(module.name) != "ball.web" or source is None:
            continue
        for imp in imports(module):
            dest = web_part(imported_module(imp, names))
            if dest is not None and dest != source:
                edges.setdefault(source, set()).add(dest)
    return edges


def test_the_web_imports_downward_by_audience_and_only_the_web_speaks_http():
    assert WEB_AUDIENCES | {WEB_CORE} <= NAMES  # each part is a sub-package of ball.web
    faults = [fault for module in MODULES for fault in web_faults(module)]
    assert not faults, "\n".join(faults)


def test_the_webs_parts_import_each_other_without_a_cycle():
    TopologicalSorter(web_edges(MODULES)).prepare()  # CycleError names the cycle


WEB_NAMES = NAMES | {"ball.web.core.x", "ball.web.desk.x", "ball.web.public.x", "ball.web.app"}


@pytest.mark.parametrize(
    ("name", "source", "expected"),
    [
        ("ball.web.core.deps", "from ball.web.desk import forms\n",
         "src/ball/web/core/deps.py:1: imports ball.web.desk.forms (ball.web.desk) from "
         "ball.web.core"),
        ("ball.web.desk.x", "def f():\n    from ball.web.app import STATIC\n",
         "src/ball/web/desk/x.py:2: imports ball.web.app (ball.web) from ball.web.desk"),
        ("ball.web.public.x", "from ball.web import app\n", "imports ball.web.app"),
        ("ball.web.core.x", "from ball.web import page_cache\n",
         "imports ball.web.page_cache (ball.web.public) from ball.web.core"),
        ("ball.web.stray", "import os\n", "ball.web.stray is in no part of ball.web"),
        ("ball.games.ball.play.store", "from fastapi import HTTPException\n",
         "src/ball/games/ball/play/store.py:1: imports fastapi below the web"),
        ("ball.games.xiangqi.paper.forms", "from fastapi import HTTPException\n",
         "imports fastapi below the web"),
    ],
)  # fmt: skip
def test_an_upward_import_inside_the_web_is_caught(name, source, expected):
    module = Module(name, f"src/{name.replace('.', '/')}.py", source)
    faults = web_faults(module, WEB_NAMES)
    assert len(faults) == 1 and expected in faults[0], faults


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("ball.web.desk.x", "from ball.web.core import deps\nfrom ball.web.public import x\n"),
        ("ball.web.app", "from ball.web.desk import x\nfrom ball.web import page_cache\n"),
        ("ball.web.public.x", "from ball.web.public import x\nfrom ball.play import store\n"),
        ("ball.web.page_cache", "from ball.web.public import x\n"),
        ("ball.games.xiangqi.web.pages", "from fastapi import APIRouter\n"),
        ("ball.tournament.service", "from sqlalchemy import select\n"),
    ],
)
def test_a_downward_import_inside_the_web_passes(name, source):
    module = Module(name, f"src/{name.replace('.', '/')}.py", source)
    assert web_faults(module, WEB_NAMES) == []


def test_a_cycle_between_the_webs_audiences_is_caught():
    cyclic = [
        Module("ball.web.desk.x", "a.py", "from ball.web.public import x\n"),
        Module("ball.web.public.x", "b.py", "from ball.web.desk import x\n"),
    ]
    with pytest.raises(CycleError):
        TopologicalSorter(web_edges(cyclic, WEB_NAMES)).prepare()


# ------------------------------------------------- the checks fail when they should


SYNTHETIC_NAMES = NAMES | {"ball.games.xiangqi.engine._tables", "ball.games.xiangqi.engine.game"}


def fake(name: str, source: str, is_package: bool = False) -> list[str]:
    module = Module(name, f"src/{name.replace('.', '/')}.py", source, is_package)
    return violations(module, SYNTHETIC_NAMES)


@pytest.mark.parametrize(
    ("name", "source", "expected"),
    [
        ("ball.games.ball.engine.board", "import os\n\nfrom ball.web.app import create_app\n",
         "src/ball/games/ball/engine/board.py:3: imports ball.web.app (layer 5) from layer 1"),
        ("ball.games.ball.match.flow", "def f():\n    from ball.tournament import service\n",
         "src/ball/games/ball/match/flow.py:2: imports ball.tournament (layer 4) from layer 2"),
        ("ball.games.xiangqi.game", "from ball.tournament.errors import NotFound\n",
         "imports ball.tournament.errors (layer 4) from layer 3"),
        ("ball.games.ball.game", "from ball.games import protocol\nfrom ball.clocks import x\n",
         "imports ball.clocks (layer 4) from layer 3"),
        ("ball.games.ball.engine.game", "from ball.storage import Base\n",
         "imports ball.storage: a layer-1 package imports only itself"),
        ("ball.games.xiangqi.engine.game", "from ball.i18n import N_\n",
         "imports ball.i18n: a layer-1 package imports only itself"),
        # a game's rules sit below its own `Game`
        ("ball.games.xiangqi.engine.game", "from ball.games.xiangqi.game import REASONS\n",
         "imports ball.games.xiangqi.game (layer 3) from layer 1"),
        ("ball.cli.chess", "from ball.chess import board\n",
         "ball.chess is in no layer of docs/architecture.md's layer table"),
        ("ball.web.desk", "from ball.tournament.service import _tx\n",
         "uses ball.tournament.service._tx: _tx is private to the module "
         "ball.tournament.service"),
        ("ball.games.ball.web.api",
         "import ball.games.ball.match.result as result\n\nresult._halves({})\n",
         "src/ball/games/ball/web/api.py:3: uses ball.games.ball.match.result._halves"),
        ("ball.games.ball.web.api",
         "from ball.games.ball.match import result\nresult._halves({})\n",
         "src/ball/games/ball/web/api.py:2: uses ball.games.ball.match.result._halves"),
        # BALL's folder too is reached through the registry, as every game's
        ("ball.web.desk.forms", "from ball.games.ball.match.result import SheetError\n",
         "a game's folder is reached through the registry"),
        ("ball.games.xiangqi.game", "from ball.games.ball.match import result\n",
         "a game's folder is reached through the registry"),
        ("ball.games.xiangqi.web.pages", "from ball.games.xiangqi.engine import _tables\n",
         "uses ball.games.xiangqi.engine._tables: _tables is private to the package "
         "ball.games.xiangqi.engine"),
        ("ball.games.xiangqi.web.pages",
         "from ball.games.xiangqi.engine._tables import ATTACKS\n",
         "_tables is private to the package ball.games.xiangqi.engine"),
        ("ball.games.ball.engine.ruleset", "import sqlalchemy\n",
         "src/ball/games/ball/engine/ruleset.py:1: imports sqlalchemy: the pure package "
         "ball.games.ball.engine"),
        ("ball.games.mahjong.engine.seating", "from datetime import date\n",
         "imports datetime: the pure package ball.games.mahjong.engine does no I/O"),
        ("ball.games.xiangqi.engine.rules", "def f():\n    import subprocess\n",
         "src/ball/games/xiangqi/engine/rules.py:2: imports subprocess"),
        # a game's rules never import its own pages; its paper never imports the web
        ("ball.games.xiangqi.game", "from ball.games.xiangqi.web import pages\n",
         "imports ball.games.xiangqi.web (layer 5) from layer 3"),
        ("ball.games.mahjong.paper.forms", "from ball.web.templating import render\n",
         "imports ball.web.templating (layer 5) from layer 4"),
        # shared code, and another game, reach a game's folder through the registry only
        ("ball.web.public", "from ball.games.mahjong.web.public import standings_page\n",
         "imports ball.games.mahjong.web.public: a game's folder is reached through the "
         "registry"),
        ("ball.printing.render", "from ball.games.xiangqi.game import XiangqiGame\n",
         "a game's folder is reached through the registry"),
        ("ball.games.mahjong.web.desk", "from ball.games.xiangqi.web import api\n",
         "a game's folder is reached through the registry"),
    ],
)  # fmt: skip
def test_a_bad_import_is_caught_with_its_file_and_line(name, source, expected):
    faults = fake(name, source)
    assert len(faults) == 1 and expected in faults[0], faults


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("ball.games.xiangqi.engine.game",
         "from ball.games.xiangqi.engine import _tables\nfrom . import _tables as t\n"),
        ("ball.games.xiangqi.engine", "from ._tables import ATTACKS\n"),
        ("ball.games.ball.engine.ruleset",
         "import os\nimport tomllib\nfrom importlib import resources\n"),
        ("ball.games.ball.engine.game",
         "from .board import SquareError\nfrom ball import __version__\n"),
        ("ball.tournament.desk_service", "from ball.clocks.store import ClockStore\n"),
        ("ball.tournament.service", "import sqlalchemy\nimport time\n"),
        ("ball.cli.serve", "from ball.web.app import create_app\n"),
        ("ball.games.xiangqi.game",
         "from ball.games.xiangqi.engine import rules\nfrom ball.sanctions import x\n"),
        ("ball.tournament.standings", "from ball.games import game\n"),
        # the registry's one line per game; a game's folder inside itself, and its web on
        # the shared web and on its own rules
        ("ball.games", "from ball.games.xiangqi.game import XiangqiGame\n"),
        ("ball.games.xiangqi.web.api", "from ball.web import security\n"
         "from ball.games.xiangqi.game import REASONS\nfrom ball.games import game\n"),
        ("ball.games.mahjong.cli.event", "from ball.cli.common import fail\n"),
    ],
)
def test_a_good_import_passes(name, source):
    assert fake(name, source, is_package=name == "ball.games.xiangqi.engine") == []


def test_a_cycle_between_packages_is_caught():
    cyclic = [
        Module("ball.clocks.store", "a.py", "from ball.tournament import signals\n"),
        Module("ball.tournament.desk_service", "b.py", "from ball.clocks import store\n"),
    ]
    with pytest.raises(CycleError):
        TopologicalSorter(package_edges(cyclic)).prepare()


def test_a_module_without_its_docstring_or_a_route_with_a_query_is_caught():
    assert docstring_fault(Module("ball.x", "src/ball/x.py", "import os\n"))
    assert docstring_fault(Module("ball.x", "src/ball/x.py", '"""Helpers."""\n'))
    assert (
        docstring_fault(Module("ball.x", "x.py", '"""' + "Owns the x of y. " * 3 + '"""')) is None
    )
    route = (
        "@router.post('/x')\n"
        "def x(request):\n"
        "    with request.app.state.sessions() as s:\n"
        "        return s.scalar(select(Event))\n"
    )
    faults = route_faults(Module("ball.web.x", "src/ball/web/x.py", route))
    assert [f.rsplit(" ", 1)[1] for f in faults] == ["sessions", "scalar", "select"]
    assert faults[0].startswith("src/ball/web/x.py:3: route x")


def test_a_table_outside_its_models_module_is_caught():
    row = 'class ClockRow(Base):\n    __tablename__ = "clock_clocks"\n'
    assert table_faults([Module("ball.clocks.store", "src/ball/clocks/store.py", row)]) == [
        "src/ball/clocks/store.py:1: table clock_clocks belongs in ['ball.clocks.models']"
    ]
    assert table_faults([Module("ball.clocks.models", "m.py", row)]) == []
    odd = 'class Row(storage.Base):\n    __tablename__ = "chess_games"\n'
    assert len(table_faults([Module("ball.web.core.models", "m.py", odd)])) == 1


def test_the_layer_table_is_read_from_its_rows():
    table = "| layer | packages |\n|---|---|\n| 1 | `ball.games.*.engine`, `ball.io` (x) | y |\n"
    table += "| 3 | `ball.s` | z |\n"
    assert read_layers(table) == {"ball.games.*.engine": 1, "ball.io": 1, "ball.s": 3}
