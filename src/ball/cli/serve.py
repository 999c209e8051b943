"""`ball serve`: the web toolbox (simulator, rulebook, tournament desk) on one machine."""

from __future__ import annotations

import typer

from ball.cli.common import fail


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to bind (loopback by default)."),
    port: int = typer.Option(8000, min=1, max=65535, help="TCP port."),
    db: str | None = typer.Option(
        None, "--db", help="SQLite file or SQLAlchemy URL (default: $BALL_DB)."
    ),
    demo: bool = typer.Option(False, "--demo", help="Put a demo game (and event) in the DB."),
    rulesets: str | None = typer.Option(
        None,
        "--rulesets",
        help="Directory of the organiser's own rulesets (NAME.toml), offered by name next to "
        "the shipped ones (default: $BALL_RULESETS).",
    ),
    allowed_host: list[str] = typer.Option(
        [],
        "--allowed-host",
        help="Another name browsers may use for this server (e.g. ball.local); repeatable. "
        "The bound address, loopback and (with --host 0.0.0.0) the LAN addresses always are.",
    ),
    proxy: list[str] = typer.Option(
        [],
        "--proxy",
        help="Address of a reverse proxy in front of this server; repeatable. Only requests "
        "from it have their X-Forwarded-For client address believed (by default no proxy "
        "header is trusted, so PIN throttles and request budgets count the TCP peer).",
    ),
    ray: str | None = typer.Option(
        None,
        "--ray",
        metavar="ADDRESS",
        help="Run the computer's searches as tasks on the Ray cluster at ADDRESS ('local': "
        "a Ray instance on this machine) instead of this server's own search processes; "
        "needs the cluster extra (ball-toolbox[cluster]).",
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        help="Server processes sharing the port (PostgreSQL only above 1); a worker that "
        "dies is replaced by a new one.",
    ),
) -> None:
    """Start the web toolbox (FastAPI under uvicorn)."""
    import os
    import re

    import uvicorn

    from ball.web.app import create_app

    if db is None and not os.environ.get("BALL_DB"):
        fail("no database given: pass --db PATH (an SQLite file is created) or set BALL_DB")
    if rulesets is not None:
        _use_rulesets(rulesets)
    if ray is not None:
        _use_ray(ray)
    from ball.web.core.headers import serve_hosts
    from ball.web.core.limits import Limits

    for name in allowed_host:
        if not re.fullmatch(r"[A-Za-z0-9._-]+|\[?[0-9A-Fa-f:.]+\]?", name):
            fail(f"--allowed-host {name!r}: give a host name or address without scheme or port")
    try:
        limits = Limits.from_env()
    except ValueError as exc:
        fail(str(exc))
    import dataclasses

    limits = dataclasses.replace(limits, workers=workers)  # each process's budget share
    proxies = _proxy_addresses(proxy)
    hosts = serve_hosts(host, port, allowed_host)
    from ball.storage import database_url
    from ball.web.workers import refusal

    try:
        url = database_url(db)
    except ValueError as exc:
        fail(str(exc))
    if (why := refusal(url, workers)) is not None:
        fail(why)
    try:
        # with workers: migrates and seeds once here, before any worker starts
        app = create_app(db, demo=demo, limits=limits, allowed_hosts=hosts)
    except Exception as exc:  # a bad path or URL is the user's input: one line, exit 2
        fail(f"cannot open database {db or os.environ.get('BALL_DB')}: {exc}")
    typer.echo(f"BALL Toolbox on http://{host}:{port}/  (database: {db or '$BALL_DB'})")
    from ball.web.core.headers import lan_urls

    for url in lan_urls(host, port):  # only when bound beyond loopback (--host)
        typer.echo(f"Players and spectators: {url}")
        # the printed table links' QR codes point there, not at the desk's 127.0.0.1
        app.state.link_base = getattr(app.state, "link_base", None) or url.rsplit("/public", 1)[0]
    # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: a client on
    # the server's machine (or anything a local tool relays) could then claim any address
    # and walk past every per-address limit. Only a proxy the operator named is believed.
    trusted = ",".join(proxies)
    if workers == 1:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            proxy_headers=bool(proxies),
            forwarded_allow_ips=trusted,
        )
        return
    app.state.engine.dispose()  # the workers open their own connections
    app_state = app.state
    del app
    _worker_environment(url, workers, hosts, getattr(app_state, "link_base", None))
    typer.echo(f"{workers} worker processes (a worker that dies is replaced)")
    uvicorn.run(
        "ball.web.workers:app_from_env",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
        proxy_headers=bool(proxies),
        forwarded_allow_ips=trusted,
    )


def _worker_environment(
    url: str, workers: int, hosts: list[str], link_base: str | None
) -> None:
    """What each worker process reads to build its app (`ball.web.workers.app_from_env`):
    they are started afresh, so the command's options reach them through the environment."""
    import json
    import os

    from ball.storage import DEFAULT_ENV
    from ball.web.workers import HOSTS_ENV, LINK_BASE_ENV, WORKERS_ENV

    os.environ[DEFAULT_ENV] = url
    os.environ[WORKERS_ENV] = str(workers)
    os.environ[HOSTS_ENV] = json.dumps(hosts)
    if link_base:
        os.environ[LINK_BASE_ENV] = link_base


def _proxy_addresses(given: list[str]) -> list[str]:
    """The --proxy values as IP addresses (one-line error naming a bad one)."""
    import ipaddress

    addresses = []
    for text in given:
        try:
            addresses.append(str(ipaddress.ip_address(text.strip())))
        except ValueError:
            fail(f"--proxy {text!r}: give the proxy's IP address (e.g. 127.0.0.1)")
    return addresses


def _use_ray(address: str) -> None:
    """Send the computer's searches to Ray (`ball.play.search_work.RAY_ENV`, read by every
    server process): checked for here, joined at the first search."""
    import importlib.util
    import os

    from ball.play.search_work import RAY_ENV

    if not address.strip() or any(c.isspace() for c in address.strip()):
        fail(f"--ray {address!r}: give the cluster's address (host:port, ray://host:port) or local")
    if importlib.util.find_spec("ray") is None:
        fail("--ray needs Ray: install ball-toolbox[cluster]")
    os.environ[RAY_ENV] = address.strip()


def _use_rulesets(directory: str) -> None:
    """Point each game's rule lookup by name at the organiser's directory (D-37,
    `Game.organiser_rules`): requests still give only names, resolved as NAME.toml inside
    it."""
    import os
    from pathlib import Path

    from ball.games import GAMES

    path = Path(directory).expanduser().resolve()
    if not path.is_dir():
        fail(f"--rulesets {directory}: not a directory")
    for entry in GAMES.values():
        if entry.organiser_rules is not None:
            os.environ[entry.organiser_rules] = str(path)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
