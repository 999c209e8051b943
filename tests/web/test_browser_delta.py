"""Issue 15 in the browser: the page's API client asks for log tails (`?since=N`) and
still hands the simulator the whole log, equal to the server's after applies, undos and
redos."""

from __future__ import annotations

import httpx
import pytest

from .test_browser import new_game, no_js_errors, open_game

pytestmark = pytest.mark.browser

DRIVE = """async ([id, steps]) => {
  const { api } = await import("/static/js/api.js");
  let s = await api.game(id);
  const seen = [];
  for (const step of steps) {
    if (step === "undo") s = await api.undo(id);
    else if (step === "redo") s = await api.redo(id);
    else s = await api.apply(id, s.legal.filter((a) => a !== "end")[0] || s.legal[0], s.version);
    seen.push(s.log.map((e) => e.action));
  }
  return { log: s.log, seen };
}"""


def test_the_client_merges_tails_into_the_servers_log(page, live_server):
    gid = new_game(live_server)
    open_game(page, live_server, gid)
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url) if "/api/games/" in r.url else None)
    steps = ["apply"] * 6 + ["undo", "undo", "redo", "apply", "undo", "redo", "apply"]
    out = page.evaluate(DRIVE, [gid, steps])
    full = httpx.get(f"{live_server}/api/games/{gid}", timeout=20).json()
    assert out["log"] == full["log"]
    assert [len(s) for s in out["seen"]] == [1, 2, 3, 4, 5, 6, 5, 4, 5, 6, 5, 6, 7]
    writes = [u for u in urls if u.split("?")[0].endswith(("/actions", "/undo", "/redo"))]
    assert len(writes) == len(steps) and all("since=" in u for u in writes)
    no_js_errors(page)
