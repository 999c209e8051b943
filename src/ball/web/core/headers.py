"""Response headers every page gets, and the `Host` check (issue 11 item 7).

`SecurityHeaders` (pure ASGI) adds to every HTTP response:

- `Content-Security-Policy`: scripts only from this server (`/static/…`; the pages have no
  inline script, the `<script type="application/json">` blocks are data and are not run),
  plus the one inline handler of the printed edition (`onclick="window.print()"`, allowed by
  its hash); styles from this server and inline (the printed forms size their tally strips
  with `style` attributes); no plugins, no `<base>`, forms only to this server, and no
  framing (`frame-ancestors 'none'`). A response that sets its own policy keeps it (`/docs`).
- `X-Frame-Options: DENY` (older browsers), `X-Content-Type-Options: nosniff`,
  `Referrer-Policy: same-origin`.

`HostCheck` (pure ASGI, outermost) answers 400 to a request whose `Host` is not one of the
names the server was started for. A DNS-rebinding page (evil.example resolving to the venue
machine) reaches the server with `Host: evil.example`; without this check the desk's
same-origin test (Origin host == Host) would pass for it. `ball serve` allows the address it
binds (loopback: 127.0.0.1, localhost, ::1; `--host 0.0.0.0`: also the machine's LAN
addresses, as `lan_urls` finds them) and every `--allowed-host NAME`;
`create_app()` without `allowed_hosts` allows loopback and `testserver` (the TestClient).
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
from collections.abc import Iterable
from typing import cast

PRINT_HANDLER = "window.print()"  # src/ball/printing/templates/edition.html.j2


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


CSP = "; ".join(
    [
        "default-src 'self'",
        f"script-src 'self' 'unsafe-hashes' {_hash(PRINT_HANDLER)}",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
TEST_HOSTS = (*LOOPBACK, "testserver")


def inline_script_hashes(html: str) -> list[str]:
    """CSP hashes of the inline `<script>` blocks of a page we do not write ourselves."""
    import re

    blocks = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, re.S)
    return [_hash(b) for b in blocks if b.strip()]


class SecurityHeaders:
    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(n, v) for n, v in HEADERS if n not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(host_header: str) -> str | None:
    """The name part of a Host header (`name`, `name:port`, `[v6]:port`), lower case; None
    when it is not of that form."""
    value = host_header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1 :]
    elif value.count(":") > 1:
        return None  # an IPv6 address must be in brackets
    else:
        name, sep, port = value.partition(":")
        rest = sep + port
    if rest and (not rest.startswith(":") or not rest[1:].isdigit()):
        return None
    return name.rstrip(".") or None


class HostCheck:
    def __init__(self, app, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(a.strip().lower().strip("[]").rstrip(".") for a in allowed)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        raw = next((v for n, v in scope.get("headers", ()) if n == b"host"), None)
        name = host_name(raw.decode("latin-1")) if raw is not None else None
        if name in self.allowed:
            await self.app(scope, receive, send)
            return
        shown = raw.decode("latin-1")[:100] if raw is not None else "(none)"
        message = (
            f"unknown Host {shown!r}: this server answers only to "
            f"{', '.join(sorted(self.allowed))} (start it with --allowed-host NAME to add one)"
        )
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"detail": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def lan_urls(host: str, port: int) -> list[str]:
    """The URLs to give players when the server listens beyond loopback."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return []
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}/public"]
    addresses: list[str] = []
    try:
        # The address the machine would use on its network (no packet is sent for UDP).
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            addresses.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            # An AF_INET address is a (host, port) pair whose host is a str.
            address = cast(str, info[4][0])
            if not address.startswith("127.") and address not in addresses:
                addresses.append(address)
    except OSError:
        pass
    return [f"http://{a}:{port}/public" for a in addresses]


def serve_hosts(host: str, port: int, extra: Iterable[str] = ()) -> list[str]:
    """The Host names `ball serve --host HOST` answers to: loopback, the bound address, its
    LAN addresses when bound to every interface, and `extra` (`--allowed-host`)."""
    from urllib.parse import urlsplit

    names = list(LOOPBACK)
    if host not in ("0.0.0.0", "::"):
        names.append(host)
    names += [urlsplit(u).hostname or "" for u in lan_urls(host, port)]
    names += list(extra)
    return [n for n in dict.fromkeys(names) if n]
