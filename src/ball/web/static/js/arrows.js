// Arrows over the board (issue 13): the last turn of each side, and the action being shown
// while the computer's turn is followed. An SVG layer appended to the board after it is
// drawn; the squares come from the actions' notation, the geometry from BoardView.center.
import { squaresOf } from "./notation.js";

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

// The actions of each side's latest turn in the log: { S: [...], N: [...] }.
export function lastTurns(log) {
  const out = {};
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    const mine = out[e.side];
    if (!mine) out[e.side] = { half: e.half, turn: e.turn, actions: [e.action] };
    else if (mine.half === e.half && mine.turn === e.turn) mine.actions.unshift(e.action);
  }
  return Object.fromEntries(Object.entries(out).map(([side, v]) => [side, v.actions]));
}

// Draw one arrow per action (through each of its squares in turn), coloured by side.
export function drawArrows(board, bySide, options = {}) {
  const svg = board.svg;
  const layer = el("g", { class: `arrows${options.live ? " live" : ""}`, "pointer-events": "none" }, svg);
  // the last turns' arrows go under the pieces, so a stack's badge and a piece's number stay
  // readable (issue 36 item 7); the action being followed stays on top
  const pieces = svg.querySelector(".pieces");
  if (!options.live && pieces) svg.insertBefore(layer, pieces);
  const defs = el("defs", {}, layer);
  for (const side of ["S", "N"]) {
    const marker = el("marker", { id: `arrow-head-${side}${options.live ? "-live" : ""}`, viewBox: "0 0 10 10",
      refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", class: `arrow-head side-${side}` }, marker);
  }
  for (const [side, actions] of Object.entries(bySide)) {
    for (const action of actions) {
      const squares = squaresOf(action);
      if (squares.length < 2) continue;
      const points = squares.map((sq) => board.center(sq).join(",")).join(" ");
      el("polyline", { points, class: `arrow side-${side}`, "data-action": action,
        "marker-end": `url(#arrow-head-${side}${options.live ? "-live" : ""})` }, layer);
    }
  }
  return layer;
}
