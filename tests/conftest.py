"""Fixtures shared by every test folder: Debian's Chromium, live app servers, test lanes,
the migrated template database and the session caches of Typer commands and FastAPI routes."""

from __future__ import annotations

import gc
import inspect
import os
import shutil
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager
from typing import Any

import pytest

# No `ball` child process of the suite hands its command to the CLI start-up agent or
# leaves one running (ball.cli.agent_client); tests/tournament/test_cli_agent.py opts in.
os.environ["BALL_AGENT"] = "0"

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))

# Flags for Chromium in this sandbox: no sandboxing as root, no GPU, and none of the
# background connections that a closed network refuses.
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (one per test worker)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = shutil.which("chromium")
    if executable is None:
        message = "Debian's chromium is not installed (bash scripts/setup.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI runs the set-up: a missing browser is a broken install
        pytest.skip(message)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=executable, args=BROWSER_ARGS)
        yield _CspTolerantBrowser(b)
        b.close()


class _CspTolerantBrowser:
    """The browser with pages that ignore the site's Content-Security-Policy by default:
    Playwright's `wait_for_function` evaluates its predicate string with `eval`, which the
    policy (rightly) forbids. Pass `bypass_csp=False` to test under the policy
    (tests/security/test_headers_host.py does, for the pages' own scripts)."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_page(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_page(**options)

    def new_context(self, **options):
        options.setdefault("bypass_csp", True)
        return self._browser.new_context(**options)

    def __getattr__(self, name):
        return getattr(self._browser, name)


AXE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   "tools", "axe", "node_modules", "axe-core", "axe.min.js")


@pytest.fixture(scope="session")
def axe() -> Callable[..., list[str]]:
    """`axe(page)` injects axe-core (tools/axe, installed by scripts/setup.sh; read from
    disk, never fetched) into the page and returns its serious and critical violations as
    "rule (impact): first targets" lines; [] is a pass."""
    if not os.path.exists(AXE):
        message = "axe-core is not installed (bash scripts/setup.sh runs npm ci in tools/axe)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with open(AXE, encoding="utf-8") as fh:
        source = fh.read()

    def findings(page) -> list[str]:
        page.add_script_tag(content=source)
        return list(page.evaluate(
            """async () => {
          const result = await axe.run(document, { resultTypes: ['violations'] });
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 4)
              .map((n) => n.target.join(' ')).join(' | '));
        }"""
        ))

    return findings


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def serve() -> Iterator[Callable[..., str]]:
    """`serve(app)` runs an ASGI app under uvicorn on a free loopback port and returns its
    base URL; every server started is stopped when the test ends."""
    import uvicorn

    running: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(app, timeout: float = 30.0) -> str:
        port = _free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        running.append((server, thread))
        deadline = time.monotonic() + timeout
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return f"http://127.0.0.1:{port}"

    yield start
    for server, thread in running:
        server.should_exit = True
        thread.join(timeout=10)


class ServerProcess:
    """`ball serve` in a child process of its own (not a thread of the test process), so a
    test can SIGKILL it and start it again on the same database, exactly as at a venue."""

    def __init__(self, db: str, *, demo: bool = False, extra: tuple[str, ...] = ()):
        self.db = db
        self.demo = demo
        self.extra = extra
        self.port = _free_port()
        self.proc = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> str:
        import subprocess
        import sys
        import urllib.request

        args = [sys.executable, "-m", "ball.cli", "serve", "--db", self.db,
                "--host", "127.0.0.1", "--port", str(self.port), *self.extra]
        if self.demo:
            args.append("--demo")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"ball serve exited: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/openapi.json", timeout=2):
                    return self.url
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("ball serve did not answer in time") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the venue's power goes."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()


@pytest.fixture
def server_process(tmp_path) -> Iterator[Callable[..., ServerProcess]]:
    """`server_process(db=None, demo=False)` starts `ball serve` as a separate process on a
    free loopback port (by default on a fresh SQLite file under tmp_path) and returns the
    handle; `.kill()` then `.start()` restarts it on the same database. All are stopped at
    the end of the test."""
    started: list[ServerProcess] = []

    def start(db: str | None = None, *, demo: bool = False,
              extra: tuple[str, ...] = ()) -> ServerProcess:
        handle = ServerProcess(db or str(tmp_path / "toolbox.sqlite"), demo=demo, extra=extra)
        handle.start()
        started.append(handle)
        return handle

    yield start
    for handle in started:
        handle.stop()


# --- Garbage collection sized for a test worker: each worker imports the whole package and
# ~2,000 test modules, then every test builds apps, engines and ORM sessions, so CPython's
# default thresholds (a collection every 700 net allocations, a full one every 100 of those)
# walk that heap thousands of times: ~10 % of the desk tests' CPU. Bigger thresholds keep
# collections rarer (garbage is still collected, cycles included), and the heap built by
# collection (modules, functions, fixtures: all alive to the end) is frozen out of the
# collector's walks. pytest's own end-of-run collections still see everything the tests
# left behind, so a leaked cycle with a failing __del__ is still reported. See
# docs/testing.md; BALL_TEST_GC=default keeps CPython's settings.

TEST_GC_THRESHOLDS = (10_000, 10, 10)


def pytest_configure(config) -> None:
    if os.environ.get("BALL_TEST_GC") != "default":
        gc.set_threshold(*TEST_GC_THRESHOLDS)


def pytest_collection_finish(session) -> None:
    if os.environ.get("BALL_TEST_GC") != "default":
        gc.freeze()


# --- Test lanes: markers by folder or fixture, so `scripts/test.sh --fast` can leave out what
# needs Chromium, PostgreSQL, WeasyPrint or child processes without every file saying so.

LANE_FIXTURES = {"browser": "browser", "page": "browser", "postgres_server": "postgres",
                 "postgres_url": "postgres", "fresh_postgres_url": "postgres",
                 "server_process": "process", "web_server": "process"}
# Files whose tests run `ball` or a server as child processes (about a second of start-up
# each, a third of the quick lane's time); a new such file belongs here.
PROCESS_FILES = {"engine/test_cli.py", "match/test_cli_record.py", "sim/test_selfplay.py",
                 "security/test_live_process.py", "tournament/test_crash.py",
                 "tournament/test_concurrency.py", "mahjong/test_cli_process.py",
                 "web/test_openapi_live.py", "properties/test_compiled_build.py",
                 "test_build_choice.py",
                 "security/test_campaign_devices.py", "security/test_devices_sigkill.py"}


def lane_markers(path: str, name: str, fixtures) -> set[str]:
    """The lane markers of one test from its file (relative to tests/), name and fixtures."""
    marks = {LANE_FIXTURES[f] for f in fixtures if f in LANE_FIXTURES} | file_markers(path)
    if "pdf" in name.lower():
        marks.add("pdf")
    return marks


def file_markers(path: str) -> set[str]:
    """The lane markers that every test of a file (relative to tests/) gets from its path."""
    path = path.replace(os.sep, "/")
    folder, _, file = path.rpartition("/")
    marks = set()
    if path in PROCESS_FILES:
        marks.add("process")
    if folder == "storage" and file.startswith("test_postgres_"):
        marks.add("postgres")
    if folder == "printing":
        marks.add("pdf")
    return marks


def marks_left_out(markexpr: str) -> set[str]:
    """The markers whose tests a `-m` expression surely deselects: the `not X` terms of an
    expression that is only `and`s of terms (the quick lane's is); none for anything else."""
    terms = markexpr.split(" and ")
    if any(token in markexpr for token in ("(", ")", " or ")):
        return set()
    return {term.split()[1] for term in terms
            if len(term.split()) == 2 and term.split()[0] == "not"}


# A file whose every test the run's `-m` deselects by the file's path alone is not imported at
# all: collecting it would import WeasyPrint, psycopg or schemathesis in every worker for no
# test (the quick lane: ~25 files, ~0.35 s of CPU per worker). The tests that run are the
# same; pytest just stops counting these as "deselected".


def pytest_ignore_collect(collection_path, config) -> bool | None:
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    marks = file_markers(os.path.relpath(str(collection_path), TESTS_DIR))
    if marks and marks <= marks_left_out(config.getoption("markexpr") or ""):
        return True
    return None


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        path = os.path.relpath(str(item.path), TESTS_DIR)
        for mark in lane_markers(path, item.name, getattr(item, "fixturenames", ())):
            item.add_marker(getattr(pytest.mark, mark))


# --- One migrated SQLite template per test run, copied to each new test database, instead of
# an Alembic migration per app or service (0.3-0.5 s each, a few hundred of them). Under xdist
# the workers share one template in the run's base folder: the first worker that needs it
# migrates it while the other waits on a file lock (one Alembic run per run, not per worker:
# ~0.5 s of CPU). No test writes the template: tests only copy it (`template_db_patches`).


class MigratedTemplate:
    """A SQLite file at every branch's head, migrated by the real code once per test run, and
    only when a test first opens a database (engine-only runs never pay for it)."""

    def __init__(self, folder, migrate) -> None:
        self.path = str(folder / "migrated-template.sqlite")
        self._migrate = migrate  # the real one: tests patch ball.storage.migrate
        self._lock = threading.Lock()  # apps may open their database in a server thread
        self._ready = False

    def ready(self) -> str:
        """The template's path; the first call of the run migrates it."""
        import fcntl

        with self._lock:
            if not self._ready:
                with open(f"{self.path}.lock", "a") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
                    if not os.path.exists(self.path):
                        self._build()
                self._ready = True
        return self.path

    def _build(self) -> None:
        """Migrate a file of this process's own, then rename it into place: a worker sees
        either no template or a whole one."""
        from ball.storage import make_engine

        building = f"{self.path}.{os.getpid()}"
        engine = make_engine(building)
        self._migrate(engine)
        engine.dispose()  # closing the last connection checkpoints the WAL
        if os.path.exists(f"{building}-wal"):
            raise RuntimeError("the template database's WAL was not checkpointed")
        os.replace(building, self.path)

    @property
    def real_migrate(self) -> Callable[[Any], None]:
        return self._migrate

    def migrate(self, engine) -> None:
        """`ball.storage.migrate` for a test: a SQLite file that does not exist yet starts as
        a copy of the template, and an empty in-memory database (`create_app()` without a
        path) as a backup of it; the real `migrate` then finds either at head at once."""
        from sqlalchemy.pool import StaticPool

        if engine.dialect.name == "sqlite":
            path = engine.url.database
            if path and path != ":memory:":
                # A missing folder is left for SQLite to refuse, as it would outside the tests.
                if os.path.isdir(os.path.dirname(path)) and not os.path.exists(path):
                    shutil.copyfile(self.ready(), path)
            elif isinstance(engine.pool, StaticPool):  # one connection: one database
                self._fill_memory(engine)
        self._migrate(engine)

    def _fill_memory(self, engine) -> None:
        raw = engine.raw_connection()
        try:
            memory = raw.driver_connection
            if memory.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                with closing(sqlite3.connect(self.ready())) as template:
                    template.backup(memory)
        finally:
            raw.close()  # back to the pool, which keeps the one connection open


@pytest.fixture(scope="session")
def migrated_template(request, tmp_path_factory) -> MigratedTemplate:
    from ball.storage import migrate

    folder = tmp_path_factory.getbasetemp()
    # An xdist worker (its config has `workerinput`; not the environment variable, which a
    # child pytest would inherit): its base folder is a folder in the run's, made afresh
    # by the controller for each run.
    if hasattr(request.config, "workerinput"):
        folder = folder.parent
    return MigratedTemplate(folder, migrate)


def template_db_patches(request, migrated_template) -> list[tuple[Any, str, Any]]:
    """The `migrate` this test's apps and services use: the template's copy
    (`MigratedTemplate.migrate`), or the real one on empty files for tests/storage and tests
    marked `real_migrations`. Returns the (object, attribute, value) patches that set it."""
    real = request.node.get_closest_marker("real_migrations") or \
        request.path.parent.name == "storage"
    return migrate_patches(migrated_template.real_migrate if real else migrated_template.migrate)


def migrate_patches(migrate: Callable[[Any], None]) -> list[tuple[Any, str, Any]]:
    import ball.storage

    # open_database looks `migrate` up in ball.storage; the web app imported it by name.
    patches: list[tuple[Any, str, Any]] = [(ball.storage, "migrate", migrate)]
    if "ball.web.app" in sys.modules:
        patches.append((sys.modules["ball.web.app"], "migrate", migrate))
    return patches


@contextmanager
def template_for_wider_fixtures(migrated_template) -> Iterator[None]:
    """The template's `migrate` for the whole session too, not only inside each test:
    module- and session-scoped fixtures (an app or a service shared by a file's tests) are
    set up before the test's own patches, and each ran Alembic on its empty database (~0.3 s
    of CPU each). Tests that need the real one get it back for their duration."""
    patches = migrate_patches(migrated_template.migrate)
    saved = [(target, name, getattr(target, name)) for target, name, _ in patches]
    for target, name, value in patches:
        setattr(target, name, value)
    try:
        yield
    finally:
        for target, name, value in reversed(saved):
            setattr(target, name, value)


# --- PIN hashes at a test cost: scrypt at the production cost is ~60 ms of CPU per hash, and
# most desk, web and clock tests only need *a* PIN. ball.pin_hash reads COST at hash time and
# stores it in the hash, so a cheap hash still verifies. The security tests keep production's
# in the full run (CI). The quick lane (`scripts/test.sh --fast` sets BALL_TEST_LANE=fast)
# keeps it only where the cost itself is asserted: the throttle and desk security tests count
# and compare, which no cost changes, and at production cost they were ~7 % of the lane.

PRODUCTION_PIN_COST_PATHS = ("security/", "desk/test_security.py")
QUICK_LANE_PRODUCTION_PIN_COST_PATHS = ("security/test_pin_hash.py",)


def production_pin_cost_paths() -> tuple[str, ...]:
    quick = os.environ.get("BALL_TEST_LANE") == "fast"
    return QUICK_LANE_PRODUCTION_PIN_COST_PATHS if quick else PRODUCTION_PIN_COST_PATHS


def cheap_pin_patches(request) -> list[tuple[Any, str, Any]]:
    """The patch that lowers the PIN hash cost for this test, if its file does not keep
    production's."""
    if _tests_path(request).startswith(production_pin_cost_paths()):
        return []
    from ball import pin_hash

    return [(pin_hash, "COST", pin_hash.ScryptCost(n=2**4, r=8, p=1))]


def _tests_path(request) -> str:
    """The test's file relative to tests/, with forward slashes."""
    path = str(request.path)
    if path.startswith(TESTS_DIR + os.sep):  # the usual case, without os.path.relpath's cost
        return path[len(TESTS_DIR) + 1:].replace(os.sep, "/")
    return os.path.relpath(path, TESTS_DIR).replace(os.sep, "/")


# --- The per-test patches above, set by one autouse fixture and undone in reverse order when
# the test ends (after the test's own monkeypatch has undone its changes, so a test may patch
# the same attributes again). One fixture, not two using `monkeypatch`: every test of the
# suite pays for each function-scoped autouse fixture, and the two with their `monkeypatch`
# were ~0.9 ms of a trivial test's ~1.7 ms (docs/testing.md).


@pytest.fixture(autouse=True)
def _per_test_patches(request, migrated_template) -> Iterator[None]:
    patches = [*template_db_patches(request, migrated_template), *cheap_pin_patches(request)]
    saved = [(target, name, getattr(target, name)) for target, name, _ in patches]
    try:
        for target, name, value in patches:
            setattr(target, name, value)
        yield
    finally:
        for target, name, value in reversed(saved):
            setattr(target, name, value)


# --- One Click command per Typer app: Typer's CliRunner.invoke rebuilds the whole command
# tree from the app's functions on every call (signatures, type hints, every group of `ball`:
# ~0.1 s of CPU each, a tenth of the quick lane's CPU over a few hundred invocations). The
# tree depends only on the app, which no test changes after building it, and Click makes a
# new Context for every invocation, so the built command is kept per app object.


@contextmanager
def one_click_command_per_typer_app() -> Iterator[None]:
    import typer.testing

    build = typer.testing._get_command
    built: dict[object, object] = {}  # holds the apps too, so no id is reused

    def command_of(app):
        if app not in built:
            built[app] = build(app)
        return built[app]

    typer.testing._get_command = command_of
    yield
    typer.testing._get_command = build


# --- One FastAPI route analysis per endpoint: FastAPI 0.165 builds each route's dependant
# (signature, type hints, pydantic fields) lazily per app, on the app's first request: ~1 ms a
# route, ~0.1 s per fresh `create_app`, over 350 apps in the quick lane. The dependant is a
# function of the route's path, endpoint and dependencies only (the routers are module-level,
# so every app has the same ones), FastAPI itself shares it across all requests of an app,
# and dependency overrides are looked up on the request's own app when it is served. So the
# build is kept per (path, endpoint, dependencies) for the session. Guarded: if a FastAPI
# release renames or reshapes the internal, `shared_dependant_builds` returns None and every
# app builds its routes as in production (one app per process there, so nothing to share).
# See docs/testing.md.

DEPENDANT_BUILDER = "_build_dependant_with_parameterless_dependencies"


def shared_dependant_builds(routing) -> Callable[..., Any] | None:
    """A caching stand-in for FastAPI's dependant builder in module `routing`, or None when
    the internal is not there with the keyword-only (path, call, dependencies) it had."""
    build = getattr(routing, DEPENDANT_BUILDER, None)
    if build is None:
        return None
    try:
        params = inspect.signature(build).parameters
    except (TypeError, ValueError):
        return None
    if list(params) != ["path", "call", "dependencies"] or any(
            p.kind is not inspect.Parameter.KEYWORD_ONLY for p in params.values()):
        return None
    built: dict[tuple[Any, ...], Any] = {}  # the keys hold the endpoints: no id is reused

    def build_once(*, path: str, call: Callable[..., Any], dependencies) -> Any:
        key = (path, call, tuple(dependencies))
        try:
            return built[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable dependency: build it as FastAPI would
            return build(path=path, call=call, dependencies=dependencies)
        built[key] = build(path=path, call=call, dependencies=dependencies)
        return built[key]

    build_once.original = build  # type: ignore[attr-defined]
    return build_once


# The same holds for each route's response field (a pydantic TypeAdapter of the response
# model, named after the route's unique id): FastAPI builds it per app too, with
# `create_model_field(name=..., type_=..., mode=...)`, ~1.6 % of the quick lane's CPU. It is
# a function of those three, so it is kept per (name, type, mode) for the session; a call
# with any other argument, or an unhashable type, is built as FastAPI would.

MODEL_FIELD_BUILDER = "create_model_field"
MODEL_FIELD_PARAMS = ["name", "type_", "default", "field_info", "alias", "mode"]


def shared_model_fields(routing) -> Callable[..., Any] | None:
    """A caching stand-in for `create_model_field` as module `routing` calls it, or None when
    it is not there with the parameters it had."""
    build = getattr(routing, MODEL_FIELD_BUILDER, None)
    if build is None:
        return None
    try:
        params = list(inspect.signature(build).parameters)
    except (TypeError, ValueError):
        return None
    if params != MODEL_FIELD_PARAMS:
        return None
    built: dict[tuple[Any, ...], Any] = {}  # the keys hold the types: no id is reused

    def build_once(*args: Any, **kwargs: Any) -> Any:
        if args or set(kwargs) - {"name", "type_", "mode"}:
            return build(*args, **kwargs)
        key = (kwargs.get("name"), kwargs.get("type_"), kwargs.get("mode", "validation"))
        try:
            return built[key]
        except KeyError:
            pass
        except TypeError:  # an unhashable type: build it as FastAPI would
            return build(**kwargs)
        built[key] = build(**kwargs)
        return built[key]

    build_once.original = build  # type: ignore[attr-defined]
    return build_once


@contextmanager
def one_dependant_per_route() -> Iterator[None]:
    from fastapi import routing

    # BALL_TEST_SHARED_ROUTES=0 turns the caches off (to measure them, or to rule them out).
    if os.environ.get("BALL_TEST_SHARED_ROUTES") == "0":
        yield
        return
    cached = {name: make(routing) for name, make in
              ((DEPENDANT_BUILDER, shared_dependant_builds),
               (MODEL_FIELD_BUILDER, shared_model_fields))}
    for name, stand_in in cached.items():
        if stand_in is not None:
            setattr(routing, name, stand_in)
    yield
    for name, stand_in in cached.items():
        if stand_in is not None:
            setattr(routing, name, stand_in.original)


# --- One compiled-SQL cache per dialect configuration: SQLAlchemy caches each statement's
# compiled form per engine, keyed by the engine's dialect *object*, and nearly every test opens
# engines of its own, so each test compiled again every statement it ran (~5 % of the quick
# lane's CPU). Compilation depends only on the statement and the dialect's configuration (its
# class and settings, the server version found on first connect), so the suite hands every
# connection, through SQLAlchemy's public `compiled_cache` execution option, one bounded cache
# whose keys name the dialect by that configuration. A dialect with state the fingerprint
# cannot compare, or not yet connected, keeps keys by identity (as production does: one engine
# per process there, so nothing to share). The ORM's flush statements keep their per-mapper
# caches. BALL_TEST_SHARED_SQL=0 turns it off. See docs/testing.md.

SHARED_SQL_CACHE_SIZE = 5_000


def dialect_fingerprint(dialect) -> tuple[Any, ...] | None:
    """The configuration that SQL compiled by `dialect` depends on, comparable across dialect
    objects; None when a setting is not comparable or the dialect has not connected yet."""
    from weakref import WeakKeyDictionary

    from sqlalchemy.sql.compiler import GenericTypeCompiler, IdentifierPreparer

    if getattr(dialect, "server_version_info", None) is None:
        return None
    settings: list[tuple[str, Any]] = []
    for name, value in sorted(vars(dialect).items()):
        if isinstance(value, (IdentifierPreparer, GenericTypeCompiler, WeakKeyDictionary)):
            value = type(value)  # built by the dialect from its class and the settings here
        try:
            hash(value)
        except TypeError:
            return None
        settings.append((name, value))
    return (type(dialect), tuple(settings))


class SharedCompiledCache:
    """SQLAlchemy's compiled cache (`get` and item assignment, as `_compile_w_cache` uses it)
    with the dialect in each key replaced by its fingerprint, shared by every engine."""

    def __init__(self, capacity: int = SHARED_SQL_CACHE_SIZE) -> None:
        from weakref import WeakKeyDictionary

        from sqlalchemy.util import LRUCache

        self._cache: Any = LRUCache(capacity)
        self._fingerprints: WeakKeyDictionary[Any, tuple[Any, ...]] = WeakKeyDictionary()

    def _shared_key(self, key: tuple[Any, ...]) -> tuple[Any, ...]:
        dialect, *rest = key
        fingerprint = self._fingerprints.get(dialect)
        if fingerprint is None:
            fingerprint = dialect_fingerprint(dialect)
            if fingerprint is None:
                return key  # by identity, as SQLAlchemy keys it
            self._fingerprints[dialect] = fingerprint  # settled once it has connected
        return (fingerprint, *rest)

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        return self._cache.get(self._shared_key(key), default)

    def __setitem__(self, key: tuple[Any, ...], compiled: Any) -> None:
        self._cache[self._shared_key(key)] = compiled


@contextmanager
def one_compiled_sql_cache_per_dialect() -> Iterator[None]:
    if os.environ.get("BALL_TEST_SHARED_SQL") == "0":
        yield
        return
    from sqlalchemy import Engine, event

    shared = SharedCompiledCache()

    def share(connection) -> None:
        # An engine built with query_cache_size=0 (or a connection told compiled_cache=None)
        # asked for no cache: it keeps none.
        if getattr(connection.engine, "_compiled_cache", None) is not None and \
                connection.get_execution_options().get("compiled_cache", True) is not None:
            connection.execution_options(compiled_cache=shared)

    event.listen(Engine, "engine_connect", share)
    yield
    event.remove(Engine, "engine_connect", share)


# --- The session-wide caches above, entered by one autouse fixture: each autouse fixture,
# session-scoped ones too, is looked up again for every test (~0.05 ms each).


@pytest.fixture(autouse=True, scope="session")
def _session_caches(migrated_template) -> Iterator[None]:
    with ExitStack() as caches:
        for cache in (one_click_command_per_typer_app, one_dependant_per_route,
                      one_compiled_sql_cache_per_dialect):
            caches.enter_context(cache())
        caches.enter_context(template_for_wider_fixtures(migrated_template))
        yield
