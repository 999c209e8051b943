// SVG drawing of a spec-18.2 position document: 13x17 board, playable striped squares,
// coordinates, end zones, pieces by kind/number/side, knocked-down pieces rotated, stacks
// offset with a Block/Protection badge, the ball on a piece or on a square. Also the board's
// touch and keyboard surface: each playable square owns the diamond around it (its own square
// plus the halves of the four unplayable squares beside it), so on a 390 px phone a tap target
// is two cells (~54 px) wide and high; keyboard.js moves a cursor drawn here (setCursor).

import { t } from "./api.js";
import { drawKindMark, kindStyle } from "./legend.js";

export const COLS = "ABCDEFGHIJKLM";
export const ROWS = 17;
const CELL = 40;
const SIDE_M = 24; // left/right margin (row numbers)
const END_M = 36; // top/bottom margin (column letters + end-zone label)
const NS = "http://www.w3.org/2000/svg";

const BADGE_R = 9.5; // stack and knocked-down badges: 19 units, ~13 px on a 390 px phone

// Lying on the board: knocked down, or the bottom of a stack that was knocked down before.
function isDown(piece) {
  return piece.state === "down" || (piece.state === "bottom" && piece.was === "down");
}

export function isPlayable(square) {
  const c = COLS.indexOf(square[0]) + 1;
  const r = Number(square.slice(1));
  return (c + r) % 2 === 0;
}

export function allSquares() {
  const out = [];
  for (let r = 1; r <= ROWS; r++) for (const c of COLS) out.push(c + r);
  return out;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attrs = {}) {
  const t = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  t.textContent = content;
  return t;
}

export class BoardView {
  // options: { flip, labels: {endS, endN, block, protect}, onSquare(square) }
  constructor(container, options = {}) {
    this.options = options;
    this.flip = Boolean(options.flip);
    this.svg = el("svg", {
      viewBox: `0 0 ${13 * CELL + 2 * SIDE_M} ${ROWS * CELL + 2 * END_M}`,
      class: "board",
      role: "img",
      "aria-label": (options.labels || {}).board || t("BALL board"),
    });
    this.cursor = null;
    container.appendChild(this.svg);
    this.svg.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-square]");
      if (hit && this.options.onSquare) this.options.onSquare(hit.dataset.square);
    });
  }

  xy(square) {
    const c = COLS.indexOf(square[0]);
    const r = Number(square.slice(1));
    const col = this.flip ? 12 - c : c;
    const row = this.flip ? r - 1 : ROWS - r;
    return [SIDE_M + col * CELL, END_M + row * CELL];
  }

  center(square) {
    const [x, y] = this.xy(square);
    return [x + CELL / 2, y + CELL / 2];
  }

  // marks: { origins: [], selected, targets: [], followups: [], last: [] }
  render(position, marks = {}) {
    this.svg.replaceChildren();
    this.position = position;
    this._defs();
    this._hits();
    this._squares(marks);
    this._coordinates();
    this._pieces(position, marks);
    this._freeBall(position);
    this._targets(marks);
    this.cursorLayer = el("g", { class: "cursor-layer", "pointer-events": "none" }, this.svg);
    this._cursor();
  }

  // The keyboard cursor (a square or null), drawn above everything without a full redraw.
  setCursor(square) {
    this.cursor = square;
    if (this.cursorLayer) this._cursor();
  }

  _cursor() {
    this.cursorLayer.replaceChildren();
    if (!this.cursor) return;
    const [x, y] = this.xy(this.cursor);
    // dark and light rings: visible on the light squares, the pieces and the targets alike
    const ring = { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 4, fill: "none" };
    el("rect", { ...ring, stroke: "#fff", "stroke-width": 8 }, this.cursorLayer);
    el("rect", { ...ring, stroke: "#16202c", "stroke-width": 4, class: "cursor", "data-square": this.cursor },
      this.cursorLayer);
    this._cursorTag(x, y);
  }

  // The kind of the target under the keyboard cursor, written on a tag above (or, on the top
  // row, below) the cursor's square, so a sighted keyboard player reads it without the legend.
  _cursorTag(x, y) {
    const kinds = (this.kindsBySquare || new Map()).get(this.cursor);
    const name = this.options.kindLabel;
    if (!kinds || !kinds.length || !name) return;
    const words = kinds.map((k) => name(k)).join(" · ");
    const width = Math.max(44, words.length * 8.6 + 14); // ~15-unit letters (10 px on a phone)
    const left = Math.min(Math.max(x + CELL / 2 - width / 2, 2), 13 * CELL + 2 * SIDE_M - width - 2);
    const above = y - 28 >= 0;
    const top = above ? y - 28 : y + CELL + 2;
    const tag = el("g", { class: "cursor-tag", "data-kinds": kinds.join(" ") }, this.cursorLayer);
    el("rect", { x: left, y: top, width, height: 26, rx: 5, fill: "#16202c", stroke: "#fff", "stroke-width": 1.5 }, tag);
    text(tag, left + width / 2, top + 13.5, words, { "font-size": 15, "font-weight": 700, fill: "#fff" });
  }

  // Tap targets under the drawing: the diamond of each playable square reaches the centres of
  // the unplayable squares beside it, which take no clicks, so the diamonds tile the board.
  _hits() {
    const g = el("g", { class: "hits" }, this.svg);
    const half = CELL; // half-diagonal of a diamond = one cell
    for (const sq of allSquares()) {
      if (!isPlayable(sq)) continue;
      const [cx, cy] = this.center(sq);
      const points = `${cx},${cy - half} ${cx + half},${cy} ${cx},${cy + half} ${cx - half},${cy}`;
      const hit = el("polygon", { points, class: "hit", fill: "#000", "fill-opacity": 0, "pointer-events": "all" }, g);
      hit.dataset.square = sq;
    }
  }

  _defs() {
    const defs = el("defs", {}, this.svg);
    const p = el("pattern", {
      id: "stripes",
      patternUnits: "userSpaceOnUse",
      width: 8,
      height: 8,
      patternTransform: "rotate(45)",
    }, defs);
    el("rect", { width: 8, height: 8, fill: "#f4ead2" }, p);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#e2cf9f", "stroke-width": 4 }, p);
  }

  _squares(marks) {
    const g = el("g", { class: "squares" }, this.svg);
    el("rect", {
      x: SIDE_M - 2, y: END_M - 2, width: 13 * CELL + 4, height: ROWS * CELL + 4,
      fill: "#3b4a3f", rx: 3, "pointer-events": "none",
    }, g);
    const last = new Set(marks.last || []);
    for (const sq of allSquares()) {
      const [x, y] = this.xy(sq);
      const playable = isPlayable(sq);
      const r = Number(sq.slice(1));
      const attrs = { x, y, width: CELL, height: CELL, class: playable ? "sq playable" : "sq" };
      attrs.fill = playable ? "url(#stripes)" : "#56675a";
      if (!playable) attrs["pointer-events"] = "none"; // the diamonds underneath take the tap
      const rect = el("rect", attrs, g);
      if (playable) rect.dataset.square = sq;
      if (r === ROWS || r === 1) {
        // End zones: row 17 is where S scores, row 1 where N scores.
        el("rect", {
          x, y, width: CELL, height: CELL, "pointer-events": "none",
          fill: r === ROWS ? "var(--south, #c0392b)" : "var(--north, #1f5fa8)",
          "fill-opacity": playable ? 0.22 : 0.35,
        }, g);
      }
      if ((marks.picked || []).includes(sq)) {
        el("rect", {
          x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, fill: "#f2b600", "fill-opacity": 0.25,
          stroke: "#f2b600", "stroke-width": 3, "pointer-events": "none", class: "picked",
        }, g);
      }
      if (last.has(sq)) {
        el("rect", {
          x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none",
          stroke: "#8a6d00", "stroke-width": 2, "stroke-dasharray": "4 3", "pointer-events": "none",
        }, g);
      }
    }
  }

  _coordinates() {
    const g = el("g", { class: "coords", "font-size": 13, fill: "#4a5560", "pointer-events": "none" }, this.svg);
    for (const c of COLS) {
      const [x] = this.center(c + "1");
      text(g, x, END_M - 9, c);
      text(g, x, END_M + ROWS * CELL + 10, c);
    }
    for (let r = 1; r <= ROWS; r++) {
      const [, y] = this.center("A" + r);
      text(g, SIDE_M / 2, y, r);
      text(g, SIDE_M + 13 * CELL + SIDE_M / 2, y, r);
    }
    const labels = this.options.labels || {};
    const top = this.flip ? labels.endN || "N end zone" : labels.endS || "S end zone";
    const bottom = this.flip ? labels.endS || "S end zone" : labels.endN || "N end zone";
    const mid = SIDE_M + (13 * CELL) / 2;
    text(g, mid, 10, top, {
      "font-size": 11, fill: this.flip ? "#1f5fa8" : "#c0392b", "font-weight": 700,
    });
    text(g, mid, ROWS * CELL + 2 * END_M - 9, bottom, {
      "font-size": 11, fill: this.flip ? "#c0392b" : "#1f5fa8", "font-weight": 700,
    });
  }

  _pieces(position, marks) {
    const g = el("g", { class: "pieces" }, this.svg);
    const carrier = position.ball && position.ball.carrier;
    const bySquare = new Map();
    for (const p of position.pieces || []) {
      if (!bySquare.has(p.at)) bySquare.set(p.at, []);
      bySquare.get(p.at).push(p);
    }
    const origins = new Set(marks.origins || []);
    for (const [sq, pieces] of bySquare) {
      const [cx, cy] = this.center(sq);
      const cell = el("g", { transform: `translate(${cx} ${cy})`, "data-square": sq }, g);
      if (origins.has(sq)) {
        el("circle", { r: 19, fill: "#ffd24a", "fill-opacity": 0.45, class: "origin" }, cell);
      }
      if (marks.selected === sq) {
        el("rect", {
          x: -19, y: -19, width: 38, height: 38, rx: 5, fill: "none", stroke: "#f2b600",
          "stroke-width": 4, class: "selected",
        }, cell);
      }
      const bottom = pieces.find((p) => p.state === "bottom");
      const top = pieces.find((p) => p.state === "top");
      if (top && bottom) {
        // offset layers: the bottom piece shows below and left of the top one
        this._token(cell, bottom, -6, 6, 0.74, carrier);
        this._token(cell, top, 6, -6, 0.74, carrier);
        this._stackBadges(cell, top, bottom);
      } else {
        for (const p of pieces) this._token(cell, p, 0, 0, 1, carrier);
      }
      // the knocked-down mark stays upright whatever the piece's rotation
      const down = pieces.find((p) => isDown(p));
      if (down) this._downMark(cell, down);
    }
  }

  // A stack's mark (issue 13): one pill in the top-left corner, 19 units high (~13 px on a
  // 390 px phone), with the count and B (Block: opponents) or P (Protection: allies), so the
  // letters, not only the red or green, tell the two apart; the bottom piece's number stays
  // readable below the top piece.
  _stackBadges(cell, top, bottom) {
    const labels = this.options.labels || {};
    const block = top.side !== bottom.side;
    const kindName = block ? labels.block || "Block" : labels.protect || "Protection";
    const badge = el("g", {
      transform: "translate(-9 -14)",
      class: `badge stack-count ${block ? "block" : "protect"}`,
    }, cell);
    el("rect", { x: -13, y: -BADGE_R, width: 26, height: 2 * BADGE_R, rx: BADGE_R,
      fill: block ? "#b3261e" : "#2e7d32", stroke: "#fff", "stroke-width": 1.5 }, badge);
    text(badge, 0, 0.5, block ? "2B" : "2P", { "font-size": 12, fill: "#fff", "font-weight": 800 });
    // the title names both pieces: "Stack of 2: Block, N X5 on S X5"
    el("title", {}, badge).textContent = (labels.stack || "Stack of {n}: {kind}")
      .replace("{n}", "2").replace("{kind}", kindName) + `, ${top.side} ${top.id} / ${bottom.side} ${bottom.id}`;
  }

  // A knocked-down piece: a dark badge with a downward arrow in the bottom-right corner, on
  // top of the piece's grey fill, dashed outline and quarter turn (shape, not colour alone).
  _downMark(cell, piece) {
    const labels = this.options.labels || {};
    const mark = el("g", { transform: "translate(13 13)", class: "badge down-mark", "data-piece": `${piece.side}:${piece.id}` }, cell);
    el("circle", { r: BADGE_R, fill: "#3f3f46", stroke: "#fff", "stroke-width": 1.5 }, mark);
    el("path", { d: "M 0 -6 V 4 M -4.5 0 L 0 5 L 4.5 0", stroke: "#fff", "stroke-width": 2.4, fill: "none",
      "stroke-linecap": "round", "stroke-linejoin": "round" }, mark);
    el("title", {}, mark).textContent = labels.down || "Knocked down";
  }

  _token(parent, piece, dx, dy, scale, carrier) {
    const colour = piece.side === "S" ? "#c0392b" : "#1f5fa8";
    const down = isDown(piece);
    const g = el("g", {
      transform: `translate(${dx} ${dy}) scale(${scale}) rotate(${down ? 90 : 0})`,
      class: `piece side-${piece.side}${down ? " down" : ""}`,
      "data-piece": `${piece.side}:${piece.id}`,
    }, parent);
    el("rect", {
      x: -14, y: -17, width: 28, height: 34, rx: 6, fill: down ? "#e4e4e7" : "#fff", stroke: colour,
      "stroke-width": 3, "stroke-dasharray": down ? "5 3" : "none",
    }, g);
    const kind = piece.kind || piece.id[0];
    const glyph = el("g", { stroke: colour, "stroke-width": 2.6, fill: "none" }, g);
    if (kind === "X") {
      el("line", { x1: -6, y1: -13, x2: 6, y2: -1 }, glyph);
      el("line", { x1: 6, y1: -13, x2: -6, y2: -1 }, glyph);
    } else if (kind === "O") {
      el("circle", { cx: 0, cy: -7, r: 6 }, glyph);
    } else {
      el("rect", { x: -6, y: -13, width: 12, height: 12 }, glyph);
    }
    text(g, 0, 9, piece.id.slice(1), { "font-size": 13, "font-weight": 700, fill: colour });
    if (carrier === `${piece.side}:${piece.id}`) {
      const ball = el("g", { transform: `rotate(${down ? -90 : 0}) translate(13 -15)`, class: "ball possessed" }, g);
      this._ball(ball, 7);
    }
    el("title", {}, g).textContent = `${piece.side} ${piece.id} (${piece.state})`;
  }

  _ball(parent, r) {
    el("circle", { r, fill: "#f39c12", stroke: "#5a3300", "stroke-width": 1.5 }, parent);
    el("path", {
      d: `M ${-r * 0.7} ${-r * 0.3} Q 0 ${r * 0.5} ${r * 0.7} ${-r * 0.3}`,
      stroke: "#5a3300", "stroke-width": 1.2, fill: "none",
    }, parent);
  }

  _freeBall(position) {
    const at = position.ball && position.ball.at;
    if (!at) return;
    const [cx, cy] = this.center(at);
    const g = el("g", { transform: `translate(${cx} ${cy})`, class: "ball free", "data-square": at }, this.svg);
    this._ball(g, 10);
  }

  // Targets: with marks.kinds (square -> action kinds, legend.js) each square is tinted and
  // framed in its first kind's colour and carries each kind's mark (shape + colour); a piece
  // on the square keeps its kind and number readable (the marks sit in its bottom-left corner).
  _targets(marks) {
    const g = el("g", { class: "targets" }, this.svg);
    const occupied = new Set((this.position.pieces || []).map((p) => p.at));
    const kinds = marks.kinds || new Map();
    this.kindsBySquare = kinds;
    const draw = (squares, cls, fill) => {
      for (const sq of squares || []) {
        const here = kinds.get(sq) || [];
        const colour = here.length ? kindStyle(here[0]).colour : fill;
        const [cx, cy] = this.center(sq);
        const t = el("g", { transform: `translate(${cx} ${cy})`, class: `target ${cls}`, "data-square": sq }, g);
        if (here.length) t.dataset.kinds = here.join(" ");
        el("rect", { x: -20, y: -20, width: 40, height: 40, fill: colour, "fill-opacity": 0.22 }, t);
        if (occupied.has(sq)) {
          // a ring leaves the piece (its kind and number) readable
          el("rect", { x: -18, y: -18, width: 36, height: 36, rx: 7, fill: "none", stroke: colour, "stroke-width": 4 }, t);
        }
        if (!here.length) {
          if (!occupied.has(sq)) el("circle", { r: 8, fill, "fill-opacity": 0.9, stroke: "#fff", "stroke-width": 2 }, t);
          continue;
        }
        // one mark per kind, side by side: centred on an empty square, low-left over a piece
        const size = here.length > 1 ? 6 : 8;
        const step = 2 * size + 3;
        const x0 = occupied.has(sq) ? -12 : -((here.length - 1) * step) / 2;
        const y0 = occupied.has(sq) ? 12 : 0;
        here.forEach((kind, i) => {
          const at = el("g", { transform: `translate(${x0 + i * step} ${y0})` }, t);
          drawKindMark(at, kind, size);
        });
      }
    };
    draw(marks.preview, "preview", "#16a34a");
    draw(marks.targets, "first", "#16a34a");
    draw(marks.followups, "followup", "#ea580c");
  }
}
