"""An event's public pages as static files (`ball publish`, issue 35 §4).

A federation serves its readers from any web host or CDN instead of a server of its own: the
pages are the live public display's (`/public/{id}/...`), rendered by the same routes and
templates in-process (the app is called as ASGI, nothing listens), one folder per language:

    DIR/index.html            the event's first view in the first language
    DIR/{lang}/standings.html, standings-page2.html, pairings.html, pairings-round3.html,
               results.html, projector.html, projector-page2.html, bracket.html,
               groups.html, teams.html, seating.html, seating-session2.html, tables.html, ...
    DIR/static/...            the style sheets, scripts and icon those pages load

The pages to write are found by following the links of the event's first view (its tabs,
the standings' pages, the rounds, the sessions, the projector's pages), so every page a
reader can reach is there. Each link becomes a relative file path; a link to a page outside
`PAGES` (the desk, the simulator) would need the server and is left out (its `<a>` loses the
href and `Site.dropped` names it). The templates know they render a static page
(`static_site` in `ball.web.core.templating`): no site navigation, no "find my name" search, no
language cookie script; the language links name the other folders.

A second run compares each file's bytes with what is on disk and writes only those that
differ (through a temporary file and a rename, so a web host never serves half a page);
files a previous run wrote that this one no longer makes (a shorter standings) are removed,
as listed in `MANIFEST`. Nothing else in DIR is touched.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html import escape, unescape
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qsl, urljoin, urlsplit

from ball.games import GAMES
from ball.tournament.errors import NotFound
from ball.web.app import create_app, static_folders
from ball.web.core.deps import service_for
from ball.web.core.language import LANGUAGES
from ball.web.public.display import first_view
from ball.web.public.projector import PROJECTOR_ROWS

# The public views a static site has, and the query parameters that make another page of
# one (each value a small number). Anything else (`find`, `refresh`) needs the server.
PAGES = frozenset(
    {"standings", "pairings", "results", "crosstable", "projector", "bracket", "groups", "teams"}
)
PAGE_PARAMS = frozenset({"page", "round", "session", "rows"})
# Values a page's URL may name that mean what its absence means.
DEFAULTS = {"page": 1, "rows": PROJECTOR_ROWS}
PASSES = 3  # renders before giving up on an event written during each of them
MANIFEST = ".ball-publish.json"  # the files the last run wrote, relative to DIR
HOST = "127.0.0.1"  # the in-process requests' address: the server's own, never throttled
# Attributes holding a URL in the public templates: links, scripts, style sheets, the
# projector's next page (refresh.js), and the no-script refresh's `url=`.
URL_ATTRIBUTE = re.compile(r'\b(href|src|data-next)="([^"]*)"')
REFRESH_URL = re.compile(r'(content="\d+;url=)([^"]*)"')
FORM = re.compile(r"<form\b.*?</form>", re.S)
# What a style sheet or a module script loads in turn.
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")
JS_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+)["']""")


class PublishError(Exception):
    """Why the pages cannot be written (one line, naming what was wrong)."""


@dataclass
class Site:
    """What a run did: files (relative to DIR, `/`-separated) written, unchanged, removed;
    links to server-only pages left out, as "page: url"."""

    event: int
    languages: list[str]
    pages: int = 0
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    passes: int = 1  # renders of the whole site (a write meanwhile asks for another)


def parse_languages(text: str | None) -> list[str]:
    """`--lang en,ko,bg` as a list (default: every language), refusing unknown codes."""
    if text is None or not text.strip():
        return list(LANGUAGES)
    chosen: list[str] = []
    for part in text.split(","):
        code = part.strip().lower()
        if code not in LANGUAGES:
            known = ", ".join(LANGUAGES)
            raise PublishError(f"--lang: unknown language {part.strip()!r} (known: {known})")
        if code not in chosen:
            chosen.append(code)
    return chosen


def game_views() -> frozenset[str]:
    """The public views the registered games bring besides the shared `PAGES`."""
    return frozenset(view for entry in GAMES.values() for view in entry.public_views)


def page_file(path: str, query: str, event_id: int) -> str | None:
    """The file name of a public page's URL (`/public/3/standings?page=2` ->
    `standings-page2.html`), or None when the URL is not a page a static site has."""
    prefix = f"/public/{event_id}/"
    if not path.startswith(prefix):
        return None
    view = path[len(prefix) :]
    if view not in PAGES and view not in game_views():
        return None
    name = view
    for key, value in sorted(parse_qsl(query, keep_blank_values=True)):
        if key not in PAGE_PARAMS or not value.isascii() or not value.isdigit():
            return None
        if DEFAULTS.get(key) == int(value):
            continue  # `?page=1` is the page itself: one file, not two alike
        name += f"-{key}{int(value)}"
    return name + ".html"


class _Crawler:
    """Renders the pages of one event in every language through the app, following links."""

    def __init__(
        self, app, event_id: int, languages: list[str], first: str, also: Sequence[str] = ()
    ) -> None:
        self.app = app
        self.event_id = event_id
        self.languages = languages
        self.first = first  # the view /public/{id} opens on (`public.first_view`)
        self.also = list(also)  # views to write though no tab links them (a team event's)
        self.files: dict[str, bytes] = {}  # relative path -> bytes
        self.assets: set[str] = set()  # paths under /static/
        self.dropped: set[str] = set()

    async def get(self, url: str, lang: str) -> tuple[int, dict[str, str], bytes]:
        """One GET through the app's whole middleware stack, as a phone in `lang` would."""
        parts = urlsplit(url)
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": parts.path,
            "raw_path": parts.path.encode(),
            "query_string": parts.query.encode(),
            "root_path": "",
            "headers": [(b"host", HOST.encode()), (b"accept-language", lang.encode())],
            "client": (HOST, 0),
            "server": (HOST, 80),
            # read by ball.web.core.templating: a static page, in these languages
            "state": {"static_languages": tuple(self.languages)},
        }
        answer: dict = {"status": 0, "headers": {}, "body": bytearray()}

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = {
                    k.decode("latin-1").lower(): v.decode("latin-1")
                    for k, v in message.get("headers", [])
                }
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        return answer["status"], answer["headers"], bytes(answer["body"])

    async def crawl(self) -> str:
        """Every page in every language into `files`; returns the root's page (the first
        view in the first language, its links relative to DIR)."""
        start = f"/public/{self.event_id}/{self.first}"
        for lang in self.languages:
            queue = [start, *(f"/public/{self.event_id}/{view}" for view in self.also)]
            seen = {self._name(url) for url in queue}  # by file: `?page=1` is the page itself
            while queue:
                url = queue.pop(0)
                for link in await self._page(url, lang):
                    if self._name(link) not in seen:
                        seen.add(self._name(link))
                        queue.append(link)
        _, _, body = await self.get(start, self.languages[0])
        return self.rewrite(body.decode("utf-8"), start, "index.html")[0]

    def _name(self, url: str) -> str:
        parts = urlsplit(url)
        name = page_file(parts.path, parts.query, self.event_id)
        assert name is not None  # only pages `page_file` names are queued
        return name

    async def _page(self, url: str, lang: str) -> list[str]:
        status, headers, body = await self.get(url, lang)
        if status != 200 or not headers.get("content-type", "").startswith("text/html"):
            detail = body[:200].decode("utf-8", "replace")
            raise PublishError(f"{url} ({lang}) answered {status}: {detail}")
        name = self._name(url)
        html, links = self.rewrite(body.decode("utf-8"), url, f"{lang}/{name}")
        self.files[f"{lang}/{name}"] = html.encode("utf-8")
        return links

    def rewrite(self, html: str, url: str, target: str) -> tuple[str, list[str]]:
        """`html` of the page at `url`, its links made relative to the file `target`;
        returns it with the page URLs it links to."""
        here = PurePosixPath(target).parent
        lang = PurePosixPath(target).parts[0] if "/" in target else self.languages[0]
        links: list[str] = []
        dropped: list[str] = []

        def relative(to: str) -> str:
            return os.path.relpath(to, here).replace(os.sep, "/")

        def local(address: str) -> str | None:
            if address.startswith("#") or not address:
                return address
            parts = urlsplit(urljoin(url, address))
            if parts.scheme or parts.netloc:
                return address  # another site's address stays as it is
            fragment = f"#{parts.fragment}" if parts.fragment else ""
            if parts.path.startswith("/static/") and not parts.query:
                self.assets.add(parts.path)
                return relative(parts.path.lstrip("/")) + fragment
            params = dict(parse_qsl(parts.query))
            if address.startswith("?") and set(params) == {"lang"}:
                # the language switch: this very page in the other language (as lang.js
                # keeps the other query parameters on the live page)
                params = {**dict(parse_qsl(urlsplit(url).query)), **params}
            link_lang = params.pop("lang", lang)
            if link_lang not in self.languages:
                return None
            query = "&".join(f"{k}={v}" for k, v in sorted(params.items()))
            path = parts.path
            if path.rstrip("/") == f"/public/{self.event_id}":
                path = f"/public/{self.event_id}/{self.first}"
            name = page_file(path, query, self.event_id)
            if name is None:
                return None
            links.append(f"{path}?{query}" if query else path)
            return relative(f"{link_lang}/{name}") + fragment

        def attribute(match: re.Match[str]) -> str:
            kind, address = match.group(1), unescape(match.group(2))
            rewritten = local(address)
            if rewritten is None:
                if kind == "src":
                    raise PublishError(f"{url}: src={address!r} needs the server")
                dropped.append(address)
                return f'{kind}=""' if kind == "data-next" else ""
            return f'{kind}="{escape(rewritten)}"'

        def refresh(match: re.Match[str]) -> str:
            rewritten = local(unescape(match.group(2)))
            return f'{match.group(1)}{escape(rewritten or "")}"'

        html = URL_ATTRIBUTE.sub(attribute, html)
        html = REFRESH_URL.sub(refresh, html)
        forms = FORM.findall(html)
        html = FORM.sub("", html)  # a form posts or searches: the server's business
        self.dropped.update(f"{url}: {address}" for address in dropped)
        self.dropped.update(f"{url}: a form" for _ in forms)
        return html, links


def _assets(paths: Iterable[str]) -> dict[str, bytes]:
    """The static files `paths` (`/static/...`) and what their style sheets and module
    scripts load in turn, by their path relative to DIR."""
    found: dict[str, bytes] = {}
    queue = list(paths)
    folders = static_folders()
    while queue:
        path = queue.pop()
        relative = path[len("/static/") :]
        source = _static_file(folders, relative)
        if source is None:
            raise PublishError(f"the pages load {path}, which is not a static file")
        key = f"static/{relative}"
        if key in found:
            continue
        data = source.read_bytes()
        found[key] = data
        loads = {".css": CSS_URL, ".js": JS_IMPORT}.get(source.suffix)
        if loads is not None:
            for ref in loads.findall(data.decode("utf-8")):
                if not ref.startswith(("data:", "http:", "https:", "#")):
                    queue.append(urljoin(path, ref.split("?")[0].split("#")[0]))
    return found


def _static_file(folders: list[Path], relative: str) -> Path | None:
    """The file `relative` of the first static folder that has it (as the server finds
    it), never a path outside them."""
    for folder in folders:
        root = folder.resolve()
        source = (folder / relative).resolve()
        if source.is_relative_to(root) and source.is_file():
            return source
    return None


def _write(out: Path, name: str, data: bytes, site: Site) -> None:
    target = out / name
    try:
        if target.read_bytes() == data:
            site.unchanged.append(name)
            return
    except FileNotFoundError:
        pass
    target.parent.mkdir(parents=True, exist_ok=True)
    # beside the target (one disk, so the rename is atomic), named by this process (two
    # runs at once never share one); written as any file, so the host may read it
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.write_bytes(data)
    os.replace(partial, target)  # a reader gets the old page or the new, never half
    site.written.append(name)


def _previous(out: Path) -> list[str]:
    try:
        listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return []
    files = listed.get("files", []) if isinstance(listed, dict) else []
    return [f for f in files if isinstance(f, str)]


def _remove_stale(out: Path, old: Sequence[str], new: set[str], site: Site) -> None:
    root = out.resolve()
    for name in old:
        if name in new:
            continue
        target = (out / name).resolve()
        if target.is_relative_to(root) and target.is_file():  # never outside DIR
            target.unlink()
            site.removed.append(name)
            folder = target.parent
            while folder != root and folder.is_relative_to(root) and not any(folder.iterdir()):
                folder.rmdir()  # a language left out leaves no empty folder behind
                folder = folder.parent


def publish(db: str | None, event_id: int, out: Path, languages: Sequence[str]) -> Site:
    """Write event `event_id`'s public pages of database `db` into `out` in `languages`."""
    if out.exists() and not out.is_dir():
        raise PublishError(f"--out: {out} is a file, not a folder")
    app = create_app(db)
    try:
        return _publish(app, event_id, out, list(languages))
    finally:
        app.state.engine.dispose()


def _run(work: Coroutine[Any, Any, str]) -> str:
    """`asyncio.run(work)`, also when the caller's thread already runs an event loop (a
    notebook, a test under Playwright's sync API): then on a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(work)
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


def _publish(app, event_id: int, out: Path, languages: list[str]) -> Site:
    svc = service_for(app)
    try:
        head = svc.desk.event_head(event_id)
        # a team event's card page: the live pages show its tab on the format pages only
        also = ["teams"] if svc.formats.event_formats(event_id).team_boards else []
    except NotFound as exc:
        raise PublishError(str(exc)) from None
    # One run's pages show one state of the event: a write while they render (the desk
    # enters a result) renders them all again, by the event's revision token.
    passes = 0
    while True:
        passes += 1
        token = svc.desk.event_revision(event_id)
        crawler = _Crawler(app, event_id, languages, first_view(head.system), also)
        index = _run(crawler.crawl())
        if svc.desk.event_revision(event_id) == token:
            break
        if passes == PASSES:
            raise PublishError(
                f"event {event_id} was written while its pages rendered, {PASSES} times in "
                "a row; nothing was written: publish again"
            )
    files = {**crawler.files, "index.html": index.encode("utf-8")}
    files.update(_assets(crawler.assets))
    site = Site(event=event_id, languages=languages, pages=len(crawler.files) + 1)
    site.passes = passes
    site.dropped = sorted(crawler.dropped)
    old = _previous(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in sorted(files):
        _write(out, name, files[name], site)
    _remove_stale(out, old, set(files), site)
    manifest = {"event": event_id, "languages": languages, "files": sorted(files)}
    _write(out, MANIFEST, json.dumps(manifest, indent=1).encode(), Site(event_id, languages))
    return site
