import { api, bigDigits, elapsedSince, fmt, halfView, turnView } from "./clock-core.js";

const root = document.getElementById("clock-desk");
const T = JSON.parse(document.getElementById("clock-text").textContent);
const round = root.dataset.round;
const event = root.dataset.event;
let clocks = [];
let fetchedAt = performance.now();

function card(entry) {
  const s = entry.state;
  const dt = elapsedSince(s, fetchedAt);
  const el = document.createElement("a");
  el.className = `desk-card status-${s.status}`;
  // The desk's session reads each bound clock's device key: the link hands it to the table.
  el.href = `/clock/${entry.id}` + (entry.device_key ? `#key=${entry.device_key}` : "");
  el.dataset.clockId = entry.id;
  if (s.players.some((p) => p.flagged || p.threshold_reached)) el.classList.add("alert");
  const head = document.createElement("div");
  head.className = "desk-head";
  const half = halfView(s, dt);
  const tv = turnView(s, dt);
  const extra = [];
  if (half) extra.push(`${T.half_timer} ${fmt(half.left)}${half.expired ? " · " + T.final_drive : ""}`);
  if (tv && tv.release) extra.push(`${T.release}: ${T[`window_${tv.release.window}`]}`);
  head.textContent = `${entry.table} — ${T[`status_${s.status}`] || s.status} ${extra.join(" · ")}`;
  el.append(head);
  s.players.forEach((p, i) => {
    const row = document.createElement("div");
    row.className = "desk-player" + (p.to_move && s.status === "running" ? " to-move" : "");
    const big = bigDigits(s, i, dt);
    const marks = [];
    if (p.penalty_points) marks.push(`${T.penalty} ${p.penalty_points}`);
    if (p.overruns) marks.push(`${T.overruns} ${p.overruns}`);
    if (p.flagged) marks.push(T.flag);
    if (p.threshold_reached) marks.push(T.threshold);
    row.innerHTML = "";
    const name = document.createElement("span");
    name.textContent = T[`seat_${p.name}`] || p.name; // default seat names, translated
    const digits = document.createElement("span");
    digits.className = "desk-digits" + (big.over ? " over" : "");
    digits.textContent = big.text;
    const note = document.createElement("span");
    note.className = "desk-marks";
    note.textContent = marks.join(" · ");
    row.append(name, digits, note);
    el.append(row);
  });
  return el;
}

function draw() {
  const grid = root.querySelector(".desk-grid");
  grid.replaceChildren(...clocks.map(card));
  root.querySelector(".desk-empty").hidden = clocks.length > 0;
}

async function poll() {
  try {
    const query = new URLSearchParams({ round });
    if (event) query.set("event", event);
    clocks = await api(`/clock/api/clocks?${query}`);
    fetchedAt = performance.now();
    root.querySelector(".desk-offline").hidden = true;
  } catch {
    root.querySelector(".desk-offline").hidden = false;
  }
  draw();
}

poll();
setInterval(draw, 250);
setInterval(poll, 2000);
