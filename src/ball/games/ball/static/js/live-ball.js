// A BALL table's live board (issue 35 §5): the server pushes the match's state each time a
// coach's action is recorded (server-sent events, `data-live` names the stream); the page
// only draws it with the simulator's board. EventSource reconnects by itself.
import { t } from "./api.js";
import { BoardView } from "./board.js";
import { squaresOf } from "./notation.js";

const root = document.getElementById("live-ball");
const board = new BoardView(root.querySelector(".board-wrap"), {
  labels: { endS: t("End zone: S scores here"), endN: t("End zone: N scores here"), block: t("Block"), protect: t("Protection") },
});
const status = root.querySelector(".status");
const errorLine = document.getElementById("live-error");
const tbody = root.querySelector(".log-table tbody");

function cell(value, className = "") {
  const td = document.createElement("td");
  td.textContent = String(value);
  if (className) td.className = className;
  return td;
}

function show(state) {
  const p = state.position;
  board.render(p, { last: state.last ? squaresOf(state.last) : [] });
  const line = document.createElement("div");
  line.className = "turn-line";
  line.textContent = [
    t("Half {n}", { n: p.half }),
    t("Turn {n}", { n: p.turn }),
    t("To move") + ": " + p.to_move,
    "ATK " + p.attack,
    t("Score") + " S " + p.score.S + " – N " + p.score.N,
  ].join(" · ");
  const pb = document.createElement("div");
  pb.textContent = `PBATK/PBDEF  S ${p.pb.S.atk}/${p.pb.S.def} · N ${p.pb.N.atk}/${p.pb.N.def}`;
  status.replaceChildren(line, pb);
  if (state.over) {
    const over = document.createElement("div");
    over.className = "over";
    over.textContent = t("The half is over.");
    status.append(over);
  }
  tbody.replaceChildren(...state.plies.map((e) => {
    const tr = document.createElement("tr");
    tr.className = `side-${e.side}`;
    tr.append(cell(e.half), cell(e.ply), cell(e.turn), cell(e.side), cell(e.action, "notation"), cell(e.pb ? `+${e.pb}` : "", "pb"));
    return tr;
  }));
  const scroller = root.querySelector(".log-scroll");
  scroller.scrollTop = scroller.scrollHeight;
  root.dataset.moves = String(state.plies.length);
  root.dataset.half = String(p.half);
}

const source = new EventSource(root.dataset.live);
source.addEventListener("board", (event) => {
  errorLine.textContent = "";
  show(JSON.parse(event.data));
});
source.addEventListener("end", () => {
  source.close();
  errorLine.textContent = t("This board is no longer broadcast.");
});
source.addEventListener("error", () => { // closed: refused (a bound) or gone; else retrying
  errorLine.textContent = source.readyState === EventSource.CLOSED
    ? t("The live board cannot be followed now; reload the page later.")
    : t("Connection lost; reconnecting…");
});
