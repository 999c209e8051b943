// Thin client of the JSON API (/api, documented at /docs). Errors carry the server's message.

export class ApiError extends Error {}

// A BALL table's match recorded on this board is written only with the table's device key
// (issue 35 §5), which the desk's link carries in its fragment (`/?game=ID#key=...`, never
// sent to a server; `takeTableKey` keeps it). Sent with every write of a simulator game: it
// matches only the table's own halves, and any other game ignores it.
const TABLE_KEY = "ball-table-key";

export function takeTableKey() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("key");
  if (!fromLink) return;
  try { localStorage.setItem(TABLE_KEY, fromLink); } catch { /* private mode */ }
  history.replaceState(null, "", location.pathname + location.search);
}

function tableKey() {
  try { return localStorage.getItem(TABLE_KEY) || ""; } catch { return ""; }
}

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (method === "POST" && path.startsWith("/api/games/") && tableKey()) {
    init.headers["X-Table-Key"] = tableKey();
  }
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const detail = typeof data === "object" && data && data.detail ? data.detail : data;
    throw new ApiError(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
  if (response.status === 202 && data && data.poll) return settled(data);
  return data;
}

// The computer's reply that another server process is still searching is answered 202 with
// where to ask (issue 34): ask there until it is ready, then read the game as it is then.
async function settled(pending) {
  let view = pending;
  while (view && view.poll && !view.ready) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    view = await call("GET", view.poll);
  }
  return call("GET", game(pending.id));
}

// The simulator's answers carry only the log entries after those we hold (`?since=N`,
// issue 15): the log of each game seen is kept here and the tail appended, so callers
// still get the whole log and an answer does not grow with the game.
const logs = new Map(); // game id -> { version, log }

function keep(state) {
  if (!state || typeof state !== "object" || !state.id || !Array.isArray(state.log)) return state;
  const held = logs.get(state.id);
  if (state.log_start && held) state.log = held.log.slice(0, state.log_start).concat(state.log);
  state.log_start = 0;
  logs.set(state.id, { version: state.version, log: state.log });
  return state;
}

// `?since=N&version=V` when we hold the log at version V (the server answers 409 if the
// game moved on, so the kept entries are exactly the server's first N).
function tail(id, version) {
  const held = logs.get(id);
  if (!held || (version !== undefined && version !== held.version)) return "";
  return `?since=${held.log.length}&version=${held.version}`;
}

const game = (id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  games: () => call("GET", "/api/games"),
  createGame: (body) => call("POST", "/api/games", body).then(keep),
  // a new game's state, stored nowhere (id ""): a game is stored at its first action
  previewGame: (body) => call("POST", "/api/games/preview", body),
  game: (id) => call("GET", game(id)).then(keep),
  // "is the computer's move ready", asked until it is; then the game
  computerMove: (id) => call("GET", `${game(id)}/computer`).then(settled).then(keep),
  apply: (id, action, version) =>
    call("POST", `${game(id)}/actions${tail(id, version)}`, { action, version }).then(keep),
  undo: (id) => call("POST", `${game(id)}/undo${tail(id)}`).then(keep),
  nextHalf: (id) => call("POST", `${game(id)}/next-half`).then(keep),
  redo: (id) => call("POST", `${game(id)}/redo${tail(id)}`).then(keep),
  replay: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/replay`),
  checkPosition: (position) => call("POST", "/api/positions/check", { position }),
  readRecord: (bgn) => call("POST", "/api/records/replay", { bgn }),
};

// UI strings translated by the server (Babel catalogue of the page's language).
let messages = null;
export function t(message, vars = {}) {
  if (messages === null) {
    const node = document.getElementById("ui-messages");
    messages = node ? JSON.parse(node.textContent) : {};
  }
  let out = messages[message] || message;
  for (const [k, v] of Object.entries(vars)) out = out.replaceAll(`{${k}}`, String(v));
  return out;
}
