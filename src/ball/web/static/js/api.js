// Thin client of the JSON API (/api, documented at /docs). Errors carry the server's message.

export class ApiError extends Error {}

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
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
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  createGame: (body) => call("POST", "/api/games", body),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  apply: (id, action, version) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/actions`, { action, version }),
  undo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  nextHalf: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/next-half`),
  redo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/redo`),
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
