import {
  ALARMS, api, bigDigits, elapsedSince, fmt, halfView, noticeKey, playerView, turnView,
} from "./clock-core.js";

const root = document.getElementById("clock-table");
const clockId = root.dataset.clockId;
// Set when this browser holds the clock's event desk session: no PIN needed then.
const deskCsrf = root.dataset.csrf || "";
const T = JSON.parse(document.getElementById("clock-text").textContent);
const base = `/clock/api/clocks/${clockId}`;
// A clock bound to an event takes presses only with its table device key, which the desk's
// link carries in the fragment (`/clock/ID#key=...`; never sent to the server in a URL).
// Kept in this browser so a reload keeps working; the address bar drops it.
const keyName = `ball-clock-key-${clockId}`;
const fromLink = new URLSearchParams(location.hash.slice(1)).get("key");
if (fromLink) {
  try { localStorage.setItem(keyName, fromLink); } catch { /* private mode: this tab only */ }
  history.replaceState(null, "", location.pathname + location.search);
}
let tableKey = fromLink || "";
try { tableKey = tableKey || localStorage.getItem(keyName) || ""; } catch { /* no storage */ }
let state = JSON.parse(document.getElementById("clock-initial").textContent).state;
let fetchedAt = performance.now();
const seen = new Set(state.notices.map(noticeKey));
let lastPress = 0;
let muted = localStorage.getItem("ball-clock-muted") === "1";

const $ = (sel) => root.querySelector(sel);

function say(text, isError = false) {
  const box = $("#clock-message");
  box.textContent = text;
  box.classList.toggle("error", isError);
}

function beep() {
  if (muted) return;
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    osc.frequency.value = 880;
    osc.connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
  } catch { /* no audio: the flash is enough */ }
}

function alarm() {
  document.body.classList.add("clock-flash");
  setTimeout(() => document.body.classList.remove("clock-flash"), 1500);
  beep();
}

function take(newState) {
  state = newState;
  fetchedAt = performance.now();
  let fresh = false;
  for (const n of state.notices) {
    const key = noticeKey(n);
    if (!seen.has(key)) {
      seen.add(key);
      if (ALARMS.has(n.kind)) fresh = true;
    }
  }
  if (fresh) alarm();
  draw();
}

async function poll() {
  try {
    take((await api(base)).state);
    $("#clock-offline").hidden = true;
  } catch {
    $("#clock-offline").hidden = false;
  }
}

async function send(kind, data = {}, pin = undefined) {
  try {
    const body = { kind, data };
    if (pin !== undefined) body.pin = pin;
    const headers = deskCsrf && pin === undefined ? { "X-CSRF-Token": deskCsrf } : {};
    if (tableKey) headers["X-Table-Key"] = tableKey;
    take((await api(`${base}/events`, body, headers)).state);
    say("");
    return true;
  } catch (error) {
    say(error.message, true);
    return false;
  }
}

function press(index) {
  const now = performance.now();
  if (now - lastPress < 300) return; // one tap, one press
  lastPress = now;
  if (state.status === "ready") return;
  const who = index === undefined ? state.mover : index;
  if (who === null || who === undefined) return;
  send("press", { by: state.players[who].name });
}

function askPin(kind, data = {}) {
  if (deskCsrf) { send(kind, data); return; }
  const dialog = $("#pin-dialog");
  const input = dialog.querySelector("input");
  input.value = "";
  dialog.dataset.kind = kind;
  dialog.dataset.data = JSON.stringify(data);
  dialog.showModal();
  input.focus();
}

// A clock made without names shows its control's seat names ("east", "red"): in the page's
// language. The stored name stays the player's identity for the server.
function seatName(name) {
  return T[`seat_${name}`] || name;
}

function noticeText(n) {
  const who = n.player === null || n.player === undefined ? "" : seatName(state.players[n.player].name);
  const label = T[`notice_${n.kind}`] || n.kind;
  const extra = n.data.points ? ` (+${n.data.points})` : n.data.window ? ` → ${T[`window_${n.data.window}`] || n.data.window}` : "";
  return `${who ? who + ": " : ""}${label}${extra}`;
}

function drawPanel(panel, i, dt) {
  const pv = playerView(state, i, dt);
  const big = bigDigits(state, i, dt);
  panel.classList.toggle("to-move", pv.toMove && state.status === "running");
  panel.classList.toggle("flagged", pv.flagged);
  panel.querySelector(".name").textContent = seatName(pv.name);
  const digits = panel.querySelector(".digits");
  digits.textContent = pv.flagged ? `${big.text} ⚑` : big.text;
  digits.classList.toggle("over", !!big.over);
  digits.classList.toggle("idle", !!big.idle);
  digits.classList.toggle("long", big.text.length > 5);
  const caption = panel.querySelector(".caption");
  caption.textContent = big.turn ? T.turn : big.period ? T[`period_${state.period_name}`] || "" : "";
  const p = pv.p;
  const bits = [];
  if (p.stage !== undefined) {
    bits.push(`${T.stage} ${p.stage}: ${p.stage_label}`);
    if (p.moves_to_go !== null) bits.push(`${p.moves_to_go} ${T.to_go}`);
  }
  bits.push(`${T.moves} ${p.moves}`);
  if (pv.delayLeft) bits.push(`${T.delay} ${fmt(pv.delayLeft)}`);
  const periodWord = T[`period_${state.period_name}`] || state.period_name;
  // The turn countdown is the big number on a turn: the hand's time left goes here, smaller.
  if (big.turn && pv.periodLeft !== undefined) bits.push(`${periodWord} ${fmt(pv.periodLeft)}`);
  panel.querySelector(".detail").textContent = bits.join(" · ");
  const pen = [];
  if (p.penalty_points || p.total_penalty_points) {
    pen.push(`${T.penalty} ${p.penalty_points}` + (p.total_penalty_points !== p.penalty_points ? ` (${T.total} ${p.total_penalty_points})` : ""));
  }
  if (p.overruns) pen.push(`${T.overruns} ${p.overruns}`);
  if (p.threshold_reached) pen.push(T.threshold);
  if (pv.flagged) pen.push(T.flag);
  if (state.attack === pv.name) pen.push("ATK");
  panel.querySelector(".penalties").textContent = pen.join(" · ");
  const call = panel.parentElement.querySelector(".call");
  if (call) call.hidden = !(state.status === "running" && state.mover !== i);
}

function draw() {
  const dt = elapsedSince(state, fetchedAt);
  root.dataset.status = state.status;
  const panels = root.querySelectorAll(".side");
  panels.forEach((panel, i) => drawPanel(panel, i, dt));
  const half = halfView(state, dt);
  const periodText = state.periods ? `${state.period}/${state.periods}` : `${state.period}`;
  const single = state.period_name === "game" && state.periods <= 1;
  $("#clock-period").textContent = single ? "" : `${T[`period_${state.period_name}`] || state.period_name} ${periodText}`;
  $("#clock-status").textContent = T[`status_${state.status}`] || state.status;
  if (half) {
    $("#half-timer").hidden = false;
    $("#half-digits").textContent = fmt(half.left);
    $("#final-drive").hidden = !half.expired;
  }
  const tv = turnView(state, dt);
  const rel = $("#release-bar");
  if (tv && tv.release) {
    rel.hidden = false;
    const holder = tv.release.holder ? `${tv.release.holder} ` : "";
    rel.textContent = `${T.release}: ${T[`window_${tv.release.window}`]} ${holder}${tv.release.window === "referee" ? "" : fmt(tv.release.left)}`;
  } else {
    rel.hidden = true;
  }
  if (tv && tv.limitLeft !== undefined && half) {
    $("#turn-limit").textContent = `${T.turn} ${fmt(tv.limitLeft)}${tv.phase === "release" ? ` (${T.stopped})` : ""}`;
  }
  const recent = state.notices.slice(-3).reverse().map(noticeText);
  $("#clock-notices").textContent = recent.join("  |  ");
  const running = state.status === "running";
  $("#btn-start").hidden = state.status !== "ready";
  $("#btn-next").hidden = !(state.status === "interval" || (running && state.period_name === "hand"));
  $("#btn-release").hidden = !(running && state.turn && state.turn.phase === "action" && half);
  $("#btn-pause").hidden = !running;
  $("#btn-resume").hidden = state.status !== "paused";
  $("#btn-end").hidden = !(running || state.status === "paused");
  $("#btn-mute").textContent = muted ? T.sound_off : T.sound_on;
  $("#btn-mute").setAttribute("aria-pressed", muted ? "true" : "false");
}

root.querySelectorAll(".side").forEach((panel, i) => {
  panel.addEventListener("pointerdown", (event) => {
    if (event.target.closest("button")) return;
    event.preventDefault();
    press(i);
  });
  const call = panel.parentElement.querySelector(".call");
  if (call) {
    call.addEventListener("click", () => send("press", { by: state.players[state.mover].name, next: state.players[i].name }));
  }
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, dialog")) return;
  if (event.code === "Space") { event.preventDefault(); press(); }
  if (event.key === "r" || event.key === "R") send("release");
});
$("#btn-start").addEventListener("click", () => send("start"));
$("#btn-next").addEventListener("click", () => send("next_period"));
$("#btn-release").addEventListener("click", () => send("release"));
$("#btn-pause").addEventListener("click", () => askPin("pause"));
$("#btn-resume").addEventListener("click", () => askPin("resume"));
$("#btn-end").addEventListener("click", () => askPin("end_period", { reason: "arbiter" }));
$("#btn-mute").addEventListener("click", () => {
  muted = !muted;
  localStorage.setItem("ball-clock-muted", muted ? "1" : "0");
  draw();
});
$("#pin-dialog form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const dialog = $("#pin-dialog");
  const pin = dialog.querySelector("input").value;
  if (event.submitter && event.submitter.value === "cancel") { dialog.close(); return; }
  dialog.close();
  await send(dialog.dataset.kind, JSON.parse(dialog.dataset.data), pin);
});

draw();
setInterval(draw, 100);
setInterval(poll, 1000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
