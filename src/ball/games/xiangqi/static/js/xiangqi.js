// The Xiangqi board page and replay view. Every rule question goes to the JSON API
// (/api/xiangqi): the page only draws the state it is given, sends the chosen move and shows
// the answer (legal targets come from the server's `legal` list).
import { ApiError, t } from "./api.js";

const S = 56; // points apart in SVG units
const M = 36; // margin around the lines, inside the wooden board (half a piece and a bit)
const G = 26; // the gutter outside the board for the file letters and rank digits
const NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
// Chinese names of the pieces by FEN letter (Red upper case): 帥仕相傌俥炮兵 / 將士象馬車砲卒.
const GLYPH = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};
const KIND = {
  k: t("king"), a: t("advisor"), b: t("elephant"), n: t("horse"), r: t("rook"), c: t("cannon"), p: t("pawn"),
};
const REASON = {
  checkmate: t("checkmate"),
  "no-legal-move": t("no legal move"),
  "natural-move-limit": t("natural-move limit"),
  agreement: t("draw agreed"),
  resignation: t("resignation"),
  time: t("loss on time"),
  arbiter: t("arbiter's decision"),
  repetition: t("repetition ruling"),
};
const RESULT = { "1-0": t("Red wins"), "0-1": t("Black wins"), "1/2-1/2": t("Draw") };
const SIDE = { red: t("Red"), black: t("Black") };
// Why a tap did nothing, by the engine's reason code (ball.games.xiangqi.engine.explain.REASONS).
const WHY = {
  empty: () => t("There is no piece there."),
  "not-yours": () => t("That piece is not yours: it is {side}'s move.", { side: SIDE[game.state.turn] }),
  stuck: (piece) => t("That {piece} has no move now: every way is blocked.", { piece }),
  pinned: (piece) => t("That {piece} cannot move: any move would leave your general in check.", { piece }),
  "own-piece": () => t("A piece cannot capture one of its own side."),
  shape: (piece) => t("The {piece} does not move that way.", { piece }),
  palace: (piece) => t("The {piece} may not leave the palace.", { piece }),
  river: () => t("The elephant may not cross the river."),
  eye: () => t("The elephant's eye is blocked: a piece stands between."),
  hobbled: () => t("The horse is hobbled: a piece stands on its leg."),
  "pawn-back": () => t("A soldier never moves backwards."),
  "pawn-side": () => t("A soldier moves sideways only after crossing the river."),
  "in-the-way": () => t("A piece stands in the way."),
  "cannon-screen": () => t("A cannon captures only by jumping exactly one piece."),
  face: () => t("The generals may not face each other on an open file."),
  check: () => t("That would leave your general in check."),
};
const KIND_OF = { king: "k", advisor: "a", elephant: "b", horse: "n", rook: "r", cannon: "c", pawn: "p" };

const root = document.getElementById("xq");
const boardBox = document.getElementById("xq-board");
const statusLine = document.getElementById("xq-status");
const errorLine = document.getElementById("xq-error");
const movesList = document.getElementById("xq-moves");
const whyLine = document.getElementById("xq-why");
const textView = document.getElementById("xq-text");

const view = { flipped: false, selected: null, cursor: "e0", busy: false, taps: 0 };

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

function xy(square) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]);
  const col = view.flipped ? 8 - file : file;
  const row = view.flipped ? rank : 9 - rank;
  return [M + col * S, M + row * S];
}

function drawLines(svg) {
  svg.append(el("rect", { class: "xq-bg", x: 0, y: 0, width: 2 * M + 8 * S, height: 2 * M + 9 * S, rx: 8 }));
  for (let r = 0; r < 10; r++) svg.append(el("line", { class: "xq-line", x1: M, y1: M + r * S, x2: M + 8 * S, y2: M + r * S }));
  for (let f = 0; f < 9; f++) {
    const x = M + f * S;
    if (f === 0 || f === 8) {
      svg.append(el("line", { class: "xq-line", x1: x, y1: M, x2: x, y2: M + 9 * S }));
    } else { // the river interrupts the inner files
      svg.append(el("line", { class: "xq-line", x1: x, y1: M, x2: x, y2: M + 4 * S }));
      svg.append(el("line", { class: "xq-line", x1: x, y1: M + 5 * S, x2: x, y2: M + 9 * S }));
    }
  }
  for (const top of [0, 7]) { // the two palaces' diagonals
    const y1 = M + top * S;
    svg.append(el("line", { class: "xq-line", x1: M + 3 * S, y1, x2: M + 5 * S, y2: y1 + 2 * S }));
    svg.append(el("line", { class: "xq-line", x1: M + 5 * S, y1, x2: M + 3 * S, y2: y1 + 2 * S }));
  }
  const y = M + 4.5 * S + 8;
  svg.append(el("text", { class: "xq-river", x: M + 2 * S, y, "text-anchor": "middle" }, "楚 河"));
  svg.append(el("text", { class: "xq-river", x: M + 6 * S, y, "text-anchor": "middle" }, "漢 界"));
}

// ICCS file letters (below) and rank digits (left), for the arbiter: in the gutter outside
// the wooden board, so no piece ever covers them.
function drawLabels(svg) {
  for (let f = 0; f < 9; f++) {
    const [x] = xy(`${FILES[f]}0`);
    svg.append(el("text", { class: "xq-coord", x: G + x, y: 2 * M + 9 * S + G - 6, "text-anchor": "middle" }, FILES[f]));
  }
  for (let r = 0; r < 10; r++) {
    const [, y] = xy(`a${r}`);
    svg.append(el("text", { class: "xq-coord", x: G / 2, y: y + 6, "text-anchor": "middle" }, String(r)));
  }
}

// --- drawing a position ------------------------------------------------------------------

function draw(frame, marks) {
  const outer = el("svg", { viewBox: `0 0 ${G + 2 * M + 8 * S} ${G + 2 * M + 9 * S}`, role: "presentation" });
  const svg = el("g", { transform: `translate(${G} 0)` }); // the board; labels sit outside it
  outer.append(svg);
  drawLabels(outer);
  drawLines(svg);
  if (marks.last) {
    for (const sq of [marks.last.slice(0, 2), marks.last.slice(2, 4)]) {
      const [x, y] = xy(sq);
      svg.append(el("rect", { class: "xq-last", x: x - S / 2 + 3, y: y - S / 2 + 3, width: S - 6, height: S - 6, "data-last": sq }));
    }
  }
  for (let r = 0; r < 10; r++) {
    for (let f = 0; f < 9; f++) {
      const sq = `${FILES[f]}${r}`;
      const [x, y] = xy(sq);
      svg.append(el("rect", { class: "xq-pt", x: x - S / 2, y: y - S / 2, width: S, height: S, "data-square": sq }));
    }
  }
  for (const [sq, letter] of Object.entries(frame.pieces)) {
    const [x, y] = xy(sq);
    const color = letter === letter.toUpperCase() ? "red" : "black";
    const g = el("g", { class: `xq-piece ${color}`, "data-square": sq, "data-piece": letter });
    if (sq === view.selected) g.classList.add("selected");
    if (marks.check === sq) g.classList.add("check");
    g.append(el("circle", { cx: x, cy: y, r: S * 0.44 }));
    g.append(el("text", { x, y: y + 9, "text-anchor": "middle" }, GLYPH[letter]));
    svg.append(g);
  }
  for (const sq of marks.targets || []) {
    const [x, y] = xy(sq);
    svg.append(el("circle", { class: "xq-target", cx: x, cy: y, r: 8, "data-target": sq }));
  }
  if (marks.cursor) {
    const [x, y] = xy(view.cursor);
    svg.append(el("rect", { class: "xq-cursor", x: x - S / 2 + 1, y: y - S / 2 + 1, width: S - 2, height: S - 2 }));
  }
  boardBox.replaceChildren(outer);
  textView.textContent = positionText(frame);
}

function positionText(frame) {
  const lines = [];
  for (const color of ["red", "black"]) {
    const items = Object.entries(frame.pieces)
      .filter(([, p]) => (p === p.toUpperCase()) === (color === "red"))
      .map(([sq, p]) => `${KIND[p.toLowerCase()]} ${GLYPH[p]} ${sq}`);
    lines.push(`${SIDE[color]}: ${items.join(", ")}`);
  }
  return lines.join("\n");
}

// The move list: one numbered row per move pair, Red's move then Black's ("1. h2e2 h9g7");
// a game that Black begins opens with "1. … move". `current` (an index into `moves`) is
// marked; the list scrolls itself (not the page) to it.
function showMoves(moves, current) {
  const rows = [];
  let row = null;
  moves.forEach((m, i) => {
    if (!row || m.by === "red") {
      row = document.createElement("li");
      rows.push(row);
      if (m.by === "black") row.append(moveCell({ text: "…" }, false));
    }
    row.append(moveCell(m, i === current));
  });
  movesList.replaceChildren(...rows);
  const mark = movesList.querySelector(".current") || movesList.lastElementChild;
  if (mark) movesList.scrollTop = mark.offsetTop + mark.offsetHeight - movesList.clientHeight;
}

function moveCell(m, current) {
  const cell = document.createElement("span");
  cell.className = m.by ? `xq-move ${m.by}` : "xq-move";
  cell.textContent = m.text;
  if (m.by) cell.setAttribute("aria-label", `${SIDE[m.by]}: ${m.text}`);
  if (m.iccs) cell.dataset.iccs = m.iccs;
  if (current) cell.classList.add("current");
  return cell;
}

function endingText(ending) {
  if (!ending) return "";
  const article = t("article");
  const where = ending.article ? ` (${article} ${ending.article})` : "";
  // A repetition ruling's detail names its cycle (the moves repeated): the reader needs it.
  const cycle = ending.reason === "repetition" && ending.detail ? ` — ${ending.detail}` : "";
  return `${RESULT[ending.result] || ending.result}: ${REASON[ending.reason] || ending.reason}${where}${cycle}`;
}

function showError(exc) {
  errorLine.textContent = exc instanceof ApiError ? exc.message : String(exc);
}

// A game the desk opened for a table is written only with the table's device key, which the
// desk's link carries in its fragment (`/xiangqi/ID#key=...`, never sent to a server). Kept
// in this browser per game so a reload keeps working; the address bar drops it.
function tableKeyOf(id) {
  const name = `ball-xiangqi-key-${id}`;
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("key");
  if (fromLink) {
    try { localStorage.setItem(name, fromLink); } catch { /* private mode: this tab only */ }
    history.replaceState(null, "", location.pathname + location.search);
    return fromLink;
  }
  try { return localStorage.getItem(name) || ""; } catch { return ""; }
}
const pageGame = document.getElementById("xq")?.dataset.game || "";
const tableKey = pageGame ? tableKeyOf(pageGame) : "";

// The answer of "is the computer's move ready" (issue 34: also a 202, when another server
// process is still searching the computer's move) is asked again until the move is ready;
// the caller gets the game as it is then.
async function call(method, path, body) {
  const data = await fetched(method, path, body);
  return data && typeof data.ready === "boolean" ? settled(data) : data;
}

async function fetched(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (tableKey && method === "POST" && path.startsWith(`/api/xiangqi/games/${pageGame}/`)) {
    init.headers["X-Table-Key"] = tableKey;
  }
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new ApiError(typeof data.detail === "string" ? data.detail : JSON.stringify(data));
  return data;
}

async function settled(pending) {
  let answer = pending;
  while (answer.poll && !answer.ready) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    answer = await fetched("GET", answer.poll);
  }
  return fetched("GET", `/api/xiangqi/games/${encodeURIComponent(pending.id)}?notation=${game.notation}`);
}

// --- the game page -----------------------------------------------------------------------

// `pending`: a new game's settings, shown but stored only with its first move (issue 30)
const game = { state: null, notation: "iccs", pending: null };

function targetsOf(square) {
  if (!game.state) return [];
  return game.state.legal.filter((m) => m.startsWith(square)).map((m) => m.slice(2, 4));
}

function humanToMove() {
  const s = game.state;
  return s && !s.over && !(s.mode === "computer" && s.turn === s.computer);
}

function renderGame(focusCursor = false) {
  const s = game.state;
  const marks = {
    last: s.last,
    check: s.check ? s.king : null,
    targets: view.selected ? targetsOf(view.selected) : [],
    cursor: focusCursor || boardBox.matches(":focus-visible"),
  };
  draw(s, marks);
  statusLine.classList.toggle("over", s.over);
  if (s.over) {
    const over = t("Game over");
    statusLine.textContent = `${over} — ${endingText(s.ending)}`;
  } else {
    const who = t("{side} to move", { side: SIDE[s.turn] });
    const check = t("check!");
    statusLine.textContent = s.check ? `${who} — ${check}` : who;
  }
  showMoves(s.moves.map((m) => ({ text: m.text, by: m.by, iccs: m.iccs })), s.moves.length - 1);
  document.getElementById("xq-computer").disabled = s.over;
  document.getElementById("xq-resign").disabled = s.over;
  document.getElementById("xq-replay").href = s.id === null ? "/xiangqi/replay" : `/xiangqi/replay?game=${s.id}`;
  const select = document.getElementById("xq-notation");
  if (select.options.length !== s.notations.length) {
    select.replaceChildren(...s.notations.map((n) => new Option(n.toUpperCase(), n)));
    select.value = game.notation;
  }
  root.dataset.turn = s.turn;
  root.dataset.version = String(s.version);
}

// Store the pending game (with its first move, or for the computer to move) and show it.
async function store(body) {
  await act("POST", "/api/xiangqi/games", body);
  if (game.state && game.state.id !== null) {
    game.pending = null;
    history.replaceState(null, "", `/xiangqi/${game.state.id}`);
  }
}

// A new game, shown at once; stored now only when the computer moves first.
async function begin(body) {
  await act("POST", "/api/xiangqi/games/preview", body);
  game.pending = body;
  const s = game.state;
  if (s && s.id === null && s.mode === "computer" && s.turn === s.computer) await store(body);
}

async function load(id) {
  game.state = await call("GET", `/api/xiangqi/games/${encodeURIComponent(id)}?notation=${game.notation}`);
  renderGame();
  // a game left on the computer's move (its search was lost with a killed server process,
  // issue 34): ask for the move, as after one of ours
  const s = game.state;
  if (!s.over && s.mode === "computer" && s.turn === s.computer) {
    await act("GET", `/api/xiangqi/games/${encodeURIComponent(id)}/computer`);
  }
}

async function act(method, path, body) {
  if (view.busy) return;
  view.busy = true;
  root.setAttribute("aria-busy", "true");
  errorLine.textContent = "";
  whyLine.textContent = "";
  try {
    const s = await call(method, path, body);
    if (s.id !== null && s.notation !== game.notation) s.moves = (await call("GET", `/api/xiangqi/games/${s.id}?notation=${game.notation}`)).moves;
    game.state = s;
    view.selected = null;
    renderGame();
  } catch (exc) {
    showError(exc);
  } finally {
    view.busy = false;
    root.removeAttribute("aria-busy");
  }
}

function choose(square) {
  const s = game.state;
  if (!s || view.busy) return;
  view.taps += 1; // an answer to an earlier tap is not shown
  whyLine.textContent = "";
  if (s.over) { whyLine.textContent = t("The game is over."); return; }
  if (!humanToMove()) { whyLine.textContent = t("Wait: it is the computer's move."); return; }
  const from = view.selected;
  if (from && targetsOf(from).includes(square)) {
    const move = from + square;
    if (game.pending) store({ ...game.pending, move, notation: "iccs" });
    else act("POST", `/api/xiangqi/games/${s.id}/moves`, { move, version: s.version, notation: "iccs" });
    return;
  }
  view.selected = targetsOf(square).length ? square : null;
  renderGame();
  if (view.selected || square === from) return;
  // A tap that did nothing says why: a target the selected piece cannot reach, or a piece
  // that cannot act (the opponent's, or one with no move). A tap on an empty point with
  // nothing selected stays silent.
  const own = s.pieces[square] && (s.pieces[square] === s.pieces[square].toUpperCase()) === (s.turn === "red");
  if (from && !own) explain(from, square);
  else if (s.pieces[square]) explain(square, null);
}

// One line from the engine (POST /api/xiangqi/explain) on why a piece cannot move (there),
// shown in the live region under the status; dropped if the game or the tap moved on.
async function explain(square, to) {
  const s = game.state;
  const tap = view.taps;
  try {
    const answer = await call("POST", "/api/xiangqi/explain", { fen: s.fen, square, to });
    if (game.state !== s || view.taps !== tap || !answer.refusal) return;
    const r = answer.refusal;
    const piece = KIND[KIND_OF[r.piece]] || r.piece;
    whyLine.textContent = WHY[r.code] ? WHY[r.code](piece) : r.text;
  } catch (exc) {
    showError(exc);
  }
}

function squareAt(event) {
  const node = event.target.closest("[data-square]");
  return node ? node.dataset.square : null;
}

function moveCursor(key) {
  let file = FILES.indexOf(view.cursor[0]);
  let rank = Number(view.cursor[1]);
  const sign = view.flipped ? -1 : 1;
  if (key === "ArrowUp") rank += sign;
  if (key === "ArrowDown") rank -= sign;
  if (key === "ArrowRight") file += sign;
  if (key === "ArrowLeft") file -= sign;
  file = Math.max(0, Math.min(8, file));
  rank = Math.max(0, Math.min(9, rank));
  view.cursor = `${FILES[file]}${rank}`;
}

function startGamePage() {
  boardBox.addEventListener("click", (event) => {
    const sq = squareAt(event);
    if (sq) { view.cursor = sq; choose(sq); }
  });
  boardBox.addEventListener("keydown", (event) => {
    if (!game.state) return;
    if (event.key.startsWith("Arrow")) {
      moveCursor(event.key);
      event.preventDefault();
      renderGame(true);
      statusLine.textContent = `${view.cursor}: ${describe(view.cursor)}`;
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(view.cursor);
    } else if (event.key === "Escape") {
      view.selected = null;
      renderGame(true);
    }
  });
  // Only keyboard focus draws the cursor: redrawing on a mouse focus would replace the
  // point under the pointer between mousedown and mouseup, and the click would be lost.
  boardBox.addEventListener("focus", () => game.state && boardBox.matches(":focus-visible") && renderGame(true));
  boardBox.addEventListener("blur", () => game.state && renderGame());
  document.getElementById("xq-flip").addEventListener("click", () => {
    view.flipped = !view.flipped;
    if (game.state) renderGame();
  });
  document.getElementById("xq-computer").addEventListener("click", async () => {
    if (game.pending) await store(game.pending); // the computer's move is the first action
    const s = game.state;
    if (s && s.id !== null) act("POST", `/api/xiangqi/games/${s.id}/computer`, { version: s.version });
  });
  document.getElementById("xq-resign").addEventListener("click", () => {
    const s = game.state;
    if (s && s.id !== null && confirm(t("Resign for {side}?", { side: SIDE[s.turn] }))) {
      act("POST", `/api/xiangqi/games/${s.id}/ending`, { ending: `resign-${s.turn}`, version: s.version });
    }
  });
  document.getElementById("xq-notation").addEventListener("change", (event) => {
    game.notation = event.target.value;
    if (game.state && game.state.id !== null) load(game.state.id).catch(showError);
  });
  document.getElementById("xq-new").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const body = { mode: form.get("mode") };
    if (body.mode === "computer") {
      body.computer = form.get("computer");
      body.level = form.get("level");
    }
    view.flipped = body.mode === "computer" && body.computer === "red"; // the human at the bottom
    await begin(body);
  });
  const id = root.dataset.game;
  if (id) {
    load(id).catch(showError);
  } else {
    begin({ mode: "hotseat" });
  }
}

function describe(square) {
  const letter = game.state?.pieces[square];
  if (!letter) return t("empty");
  const side = letter === letter.toUpperCase() ? "red" : "black";
  return `${SIDE[side]} ${KIND[letter.toLowerCase()]} ${GLYPH[letter]}`;
}

// --- the replay view ---------------------------------------------------------------------

const replay = { data: null, at: 0 };

function renderReplay() {
  const d = replay.data;
  const frame = d.frames[replay.at];
  const last = replay.at > 0 ? d.moves[replay.at - 1] : null;
  let king = null;
  if (frame.check) {
    const turnRed = frame.fen.split(" ")[1] !== "b";
    king = Object.keys(frame.pieces).find((sq) => frame.pieces[sq] === (turnRed ? "K" : "k")) || null;
  }
  draw(frame, { last, check: king, targets: [] });
  const end = replay.at === d.moves.length && d.ending ? ` — ${endingText(d.ending)}` : "";
  statusLine.textContent = t("Position {n} of {total}", { n: replay.at, total: d.moves.length }) + end;
  const first = d.frames[0].fen.split(" ")[1] === "b" ? 1 : 0; // who made move 0
  showMoves(d.moves.map((text, i) => ({ text, by: (i + first) % 2 ? "black" : "red" })), replay.at - 1);
  root.dataset.at = String(replay.at);
}

function step(where) {
  if (!replay.data) return;
  const n = replay.data.moves.length;
  const to = { first: 0, prev: replay.at - 1, next: replay.at + 1, last: n }[where];
  replay.at = Math.max(0, Math.min(n, to));
  renderReplay();
}

async function readPasted(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    let document;
    try {
      document = JSON.parse(trimmed);
    } catch {
      throw new ApiError(t("The text is not valid JSON."));
    }
    return call("POST", "/api/xiangqi/replay", { document });
  }
  return call("POST", "/api/xiangqi/replay", { pgn: trimmed });
}

function startReplay() {
  const show = (data) => { replay.data = data; replay.at = 0; errorLine.textContent = ""; renderReplay(); };
  for (const button of document.querySelectorAll("[data-step]")) {
    button.addEventListener("click", () => step(button.dataset.step));
  }
  boardBox.addEventListener("keydown", (event) => {
    const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (where) { event.preventDefault(); step(where); }
  });
  document.getElementById("xq-flip").addEventListener("click", () => {
    view.flipped = !view.flipped;
    if (replay.data) renderReplay();
  });
  document.getElementById("xq-load").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const file = form.get("file");
    const text = file && file.size ? await file.text() : String(form.get("text") || "");
    try { show(await readPasted(text)); } catch (exc) { showError(exc); }
  });
  const id = root.dataset.replay;
  if (id) call("GET", `/api/xiangqi/games/${encodeURIComponent(id)}/replay`).then(show).catch(showError);
}

// --- the live board (issue 35 §5) ---------------------------------------------------------

// A follower's view of a game recorded at a table: the server pushes the game's state each
// time it changes (server-sent events, `data-live` names the stream); the page only draws.
// EventSource reconnects by itself after a dropped line or the stream's end of life.
function startLive() {
  let state = null;
  const show = () => {
    draw(state, { last: state.last, check: state.check ? state.king : null, targets: [] });
    statusLine.classList.toggle("over", state.over);
    const who = state.over ? `${t("Game over")} — ${endingText(state.ending)}` : t("{side} to move", { side: SIDE[state.turn] });
    statusLine.textContent = state.check && !state.over ? `${who} — ${t("check!")}` : who;
    showMoves(state.moves.map((m) => ({ text: m.text, by: m.by, iccs: m.iccs })), state.moves.length - 1);
    root.dataset.version = String(state.version);
    root.dataset.moves = String(state.moves.length);
  };
  document.getElementById("xq-flip").addEventListener("click", () => {
    view.flipped = !view.flipped;
    if (state) show();
  });
  const source = new EventSource(root.dataset.live);
  source.addEventListener("board", (event) => {
    state = JSON.parse(event.data);
    errorLine.textContent = "";
    show();
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
}

if (root && root.dataset.live !== undefined) startLive();
else if (root && root.dataset.replay !== undefined) startReplay();
else if (root) startGamePage();
