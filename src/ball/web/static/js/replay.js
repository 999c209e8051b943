// Replay viewer: the server reads the record and replays it; this page only steps through
// the positions it returned (forward/back with buttons, slider or arrow keys).
import { api, t } from "./api.js";
import { BoardView } from "./board.js";
import { squaresOf } from "./notation.js";

const root = document.getElementById("replay");
const errorBox = document.getElementById("replay-error");
const board = new BoardView(root.querySelector(".board-wrap"), {
  labels: { endS: t("End zone: S scores here"), endN: t("End zone: N scores here"), block: t("Block"), protect: t("Protection") },
});
const halfSelect = root.querySelector("select[name=half]");
const slider = root.querySelector("input[name=ply]");
const plyLabel = root.querySelector("[data-field=ply]");
const tbody = root.querySelector(".log-table tbody");
const status = root.querySelector(".status");
let data = null;
let half = 0;
let ply = 0;

function show() {
  if (!data || !data.halves.length) return;
  const h = data.halves[half];
  ply = Math.max(0, Math.min(ply, h.plies.length));
  const p = h.positions[ply];
  const last = ply > 0 ? squaresOf(h.plies[ply - 1].action) : [];
  board.render(p, { last });
  slider.max = String(h.plies.length);
  slider.value = String(ply);
  plyLabel.textContent = t("Ply {n} of {total}", { n: ply, total: h.plies.length });
  const pb = p.pb;
  status.innerHTML = "";
  const line = document.createElement("div");
  line.className = "turn-line";
  line.dataset.replayPly = String(ply);
  line.textContent = [
    t("Half {n}", { n: p.half }),
    t("Turn {n}", { n: p.turn }),
    t("To move") + ": " + p.to_move,
    "ATK " + p.attack,
    t("Score") + " S " + p.score.S + " – N " + p.score.N,
  ].join(" · ");
  const pbLine = document.createElement("div");
  pbLine.textContent = `PBATK/PBDEF  S ${pb.S.atk}/${pb.S.def} · N ${pb.N.atk}/${pb.N.def}`;
  status.append(line, pbLine);
  for (const row of tbody.querySelectorAll("tr")) row.classList.toggle("current", Number(row.dataset.ply) === ply);
}

function fillHalf() {
  const h = data.halves[half];
  tbody.replaceChildren(...h.plies.map((e) => {
    const tr = document.createElement("tr");
    tr.dataset.ply = String(e.ply);
    tr.className = `side-${e.side}`;
    for (const v of [e.ply, e.turn, e.side, e.action, e.pb ? `+${e.pb}` : ""]) {
      const td = document.createElement("td");
      td.textContent = String(v);
      tr.append(td);
    }
    tr.children[3].className = "notation";
    tr.children[4].className = "pb";
    tr.addEventListener("click", () => { ply = e.ply; show(); });
    return tr;
  }));
}

function load(result) {
  data = result;
  errorBox.textContent = "";
  // the board and log are hidden until there is a game to show (a bare /replay)
  root.hidden = false;
  document.getElementById("replay-empty")?.remove();
  halfSelect.replaceChildren(...data.halves.map((h, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = t("Half {n}", { n: h.half });
    return o;
  }));
  half = 0;
  ply = 0;
  fillHalf();
  show();
}

async function run(request) {
  try {
    load(await request());
  } catch (err) {
    errorBox.textContent = err.message;
  }
}

const step = { first: () => (ply = 0), back: () => (ply -= 1), forward: () => (ply += 1), last: () => (ply = 1e9) };
for (const [name, fn] of Object.entries(step)) {
  root.querySelector(`[data-control=${name}]`).addEventListener("click", () => { fn(); show(); });
}
slider.addEventListener("input", () => { ply = Number(slider.value); show(); });
halfSelect.addEventListener("change", () => { half = Number(halfSelect.value); ply = 0; fillHalf(); show(); });
document.addEventListener("keydown", (event) => {
  if (event.target.closest("textarea, input[type=text]")) return;
  if (event.key === "ArrowRight") { ply += 1; show(); }
  if (event.key === "ArrowLeft") { ply -= 1; show(); }
});

document.getElementById("load-record").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target;
  const file = form.file.files[0];
  const text = file ? await file.text() : form.bgn.value;
  if (!text.trim()) {
    errorBox.textContent = t("Choose a .bgn file or paste a record first.");
    return;
  }
  run(() => api.readRecord(text));
});

if (root.dataset.game) run(() => api.replay(root.dataset.game));
window.ballReplay = { get ply() { return ply; }, get half() { return half; } };
