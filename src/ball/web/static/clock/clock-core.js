// Display of a clock state computed by the server. Between polls the numbers that the server
// marked as ticking count down with the browser's monotonic clock; nothing here decides a
// flag, an overrun or a penalty — those are shown only when the server reports them.

export function fmt(seconds, { signed = false } = {}) {
  const negative = seconds < 0;
  let s = Math.abs(seconds);
  // Count down like a physical clock: 0.2 s left shows 0:01, exactly 0 shows 0:00.
  s = negative ? Math.floor(s) : Math.ceil(s - 1e-9);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  const body = h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
  if (negative) return `+${body}`;
  return signed ? ` ${body}` : body;
}

// Seconds since `fetchedAt` (performance.now() in ms) while the clock is running.
export function elapsedSince(state, fetchedAt, nowMs = performance.now()) {
  if (state.status !== "running") return 0;
  return Math.max(0, (nowMs - fetchedAt) / 1000);
}

// The numbers to show for player `i`, `dt` seconds after the server computed `state`.
export function playerView(state, i, dt) {
  const p = state.players[i];
  const run = p.ticking ? dt : 0;
  const view = { name: p.name, toMove: p.to_move, flagged: p.flagged, p };
  if (p.main_left !== undefined) {
    const delay = p.delay_left ?? 0;
    view.delayLeft = Math.max(0, delay - run);
    view.main = Math.max(0, p.main_left - Math.max(0, run - delay));
  }
  if (p.period_left !== undefined) {
    const free = p.period_free_left ?? 0;
    view.periodLeft = p.period_left - Math.max(0, run - free);
  }
  return view;
}

export function turnView(state, dt) {
  const t = state.turn;
  if (!t) return null;
  const view = { phase: t.phase, elapsed: t.elapsed + dt };
  if (t.limit_left !== undefined) view.limitLeft = t.limit_left - (t.limit_ticking ? dt : 0);
  if (t.release) {
    view.release = { ...t.release, left: Math.max(0, t.release.left - dt) };
  }
  return view;
}

export function halfView(state, dt) {
  const h = state.half_timer;
  if (!h) return null;
  return { ...h, left: Math.max(0, h.left - (h.ticking ? dt : 0)) };
}

// What a player's big digits show: main time; else, on the player's turn, the turn's
// countdown (the one that drives penalties: Mahjong's 15 s) or its release window; else the
// hand budget. `turn` marks the turn countdown, so the page names it and shows the hand's
// time smaller.
export function bigDigits(state, i, dt) {
  const pv = playerView(state, i, dt);
  if (pv.main !== undefined) return { text: fmt(pv.main), over: false };
  const tv = turnView(state, dt);
  if (tv && state.mover === i) {
    if (tv.phase === "release" && tv.release) return { text: fmt(tv.release.left), over: false };
    if (tv.limitLeft !== undefined) return { text: fmt(tv.limitLeft), over: tv.limitLeft < 0, turn: true };
  }
  if (pv.periodLeft !== undefined) return { text: fmt(pv.periodLeft), over: pv.periodLeft < 0, period: true };
  return { text: "–", over: false, idle: true };
}

export async function api(path, body, headers = {}) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch { data = null; } // an empty or non-JSON body
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : `HTTP ${response.status}`;
    const error = new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
    error.status = response.status;
    throw error;
  }
  return data;
}

// Notices worth an alarm; `seen` keeps what was already shown so a reload does not re-alarm.
export const ALARMS = new Set(["flag", "threshold", "final_drive", "release_window"]);
export function noticeKey(n) { return `${n.kind}@${n.at}@${n.player}`; }
