// Targets per action kind (issue 13): which kinds of action reach which square for the piece
// being composed, the mark each kind draws on the board (a shape AND a colour, so the kinds are
// told apart without colour, WCAG 1.4.1), and the legend beside the board that names only the
// kinds shown. Pure functions of the Composer's view plus small SVG/DOM drawing helpers; the
// kinds are those notation.js derives from the engine's action forms (move onto an opponent
// = block, onto an ally = protect; cards are "card:NAME").
import { isCardKind, isSquare, KIND_LABELS } from "./notation.js";

const NS = "http://www.w3.org/2000/svg";

// One style per kind: colour (AA contrast with white, >= 4.5:1) and shape.
export const KIND_STYLES = {
  move: { colour: "#15803d", shape: "dot" },
  block: { colour: "#b91c1c", shape: "cross" },
  protect: { colour: "#0f766e", shape: "plus" },
  dodge: { colour: "#7e22ce", shape: "diamond" },
  tdodge: { colour: "#a21caf", shape: "bowtie" },
  handoff: { colour: "#9a3412", shape: "square" },
  short: { colour: "#1d4ed8", shape: "triangle" },
  long: { colour: "#1e3a8a", shape: "ring" },
  up: { colour: "#4d7c0f", shape: "arrow" },
  split: { colour: "#c2410c", shape: "bars" },
  card: { colour: "#6d28d9", shape: "star" },
};

export function kindStyle(kind) {
  return KIND_STYLES[isCardKind(kind) ? "card" : kind] || KIND_STYLES.move;
}

// The message id naming a kind in the legend and the cursor's words (cards name themselves).
export function kindMessage(kind) {
  return KIND_LABELS[kind] || kind;
}

// Kinds whose targets are not previewed before the kind is chosen (issue 36 item 7): a
// carrier's long passes reach about 90 squares and buried its few moves and short passes;
// they are drawn once Long pass is chosen in the action menu.
export const ON_DEMAND = new Set(["long"]);

// The first targets of the selected piece's on-demand kinds, not drawn yet (the tap on one
// says how to show them, why-not.js).
export function hiddenTargets(composer) {
  const view = composer.view();
  if (view.stage !== "kind") return [];
  const out = [];
  for (const a of composer.byOrigin.get(view.origin) || []) {
    if (ON_DEMAND.has(a.kind) && view.kinds.includes(a.kind) && isSquare(a.steps[0]) && !out.includes(a.steps[0])) {
      out.push(a.steps[0]);
    }
  }
  return out;
}

// square -> kinds (in the composer's order) whose next step may be that square. Before a kind
// is chosen, every kind of the selected piece but the on-demand ones shows its first targets;
// once one is chosen, only its squares for the step being asked.
export function targetKinds(composer) {
  const view = composer.view();
  const out = new Map();
  const add = (square, kind) => {
    if (!isSquare(square)) return;
    if (!out.has(square)) out.set(square, []);
    if (!out.get(square).includes(kind)) out.get(square).push(kind);
  };
  if (view.stage === "kind") {
    for (const a of composer.byOrigin.get(view.origin) || []) {
      if (view.kinds.includes(a.kind) && !ON_DEMAND.has(a.kind)) add(a.steps[0], a.kind);
    }
  } else if (view.stage === "target") {
    for (const square of view.squares) add(square, view.kind);
  }
  return out;
}

// The kinds present in a targetKinds() map, each once, in the order of KIND_STYLES.
export function kindsShown(bySquare) {
  const seen = new Set([...bySquare.values()].flat());
  const order = Object.keys(KIND_LABELS);
  return [...seen].sort((a, b) => rank(order, a) - rank(order, b));
}

function rank(order, kind) {
  const i = order.indexOf(kind);
  return i < 0 ? order.length : i;
}

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  parent.appendChild(node);
  return node;
}

// Points of an n-pointed star or polygon of radius r (inner radius r2 for a star).
function polygon(n, r, r2 = null, turn = -90) {
  const pts = [];
  const steps = r2 === null ? n : 2 * n;
  for (let i = 0; i < steps; i++) {
    const rad = ((turn + (360 / steps) * i) * Math.PI) / 180;
    const len = r2 !== null && i % 2 ? r2 : r;
    pts.push(`${(len * Math.cos(rad)).toFixed(2)},${(len * Math.sin(rad)).toFixed(2)}`);
  }
  return pts.join(" ");
}

// Draw the kind's mark, about 2*r across, centred on (0, 0) of `parent` (an SVG group).
// Each shape has a white halo so it reads on light and dark squares and over pieces.
export function drawKindMark(parent, kind, r = 8) {
  const { colour, shape } = kindStyle(kind);
  const g = el("g", { class: `kind-mark kind-${isCardKind(kind) ? "card" : kind}`, "data-kind": kind }, parent);
  const solid = { fill: colour, stroke: "#fff", "stroke-width": 2, "stroke-linejoin": "round" };
  const line = (d) => {
    el("path", { d, stroke: "#fff", "stroke-width": 7, "stroke-linecap": "round", fill: "none" }, g);
    el("path", { d, stroke: colour, "stroke-width": 4, "stroke-linecap": "round", fill: "none" }, g);
  };
  const k = r * 0.75;
  switch (shape) {
    case "dot": el("circle", { r, ...solid }, g); break;
    case "ring":
      el("circle", { r: r - 1, fill: "none", stroke: "#fff", "stroke-width": 6 }, g);
      el("circle", { r: r - 1, fill: "none", stroke: colour, "stroke-width": 3.5 }, g);
      break;
    case "cross": line(`M ${-k} ${-k} L ${k} ${k} M ${k} ${-k} L ${-k} ${k}`); break;
    case "plus": line(`M 0 ${-r} V ${r} M ${-r} 0 H ${r}`); break;
    case "diamond": el("polygon", { points: polygon(4, r + 1), ...solid }, g); break;
    case "bowtie":
      el("polygon", { points: `${-r},${-r} 0,0 ${-r},${r} ${r},${-r} 0,0 ${r},${r}`, ...solid }, g);
      break;
    case "square": el("rect", { x: -k, y: -k, width: 2 * k, height: 2 * k, ...solid }, g); break;
    case "triangle": el("polygon", { points: polygon(3, r + 1.5, null, -90), ...solid }, g); break;
    case "arrow": line(`M 0 ${r} V ${-r} M ${-k} ${-r + k} L 0 ${-r} L ${k} ${-r + k}`); break;
    case "bars": line(`M ${-r} ${-r / 2.2} H ${r} M ${-r} ${r / 2.2} H ${r}`); break;
    default: el("polygon", { points: polygon(5, r + 1.5, (r + 1.5) / 2.3), ...solid }, g); // star
  }
  return g;
}

// The legend: one entry (mark + name) per kind shown, or nothing when no target is shown.
// `label(kind)` gives the translated name.
export function renderLegend(container, kinds, label, heading) {
  container.replaceChildren();
  container.hidden = kinds.length === 0;
  if (!kinds.length) return;
  const title = document.createElement("span");
  title.className = "legend-title";
  title.textContent = heading;
  const list = document.createElement("ul");
  for (const kind of kinds) {
    const li = document.createElement("li");
    li.dataset.kind = kind;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "-12 -12 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("class", "legend-swatch");
    drawKindMark(svg, kind, 8);
    const name = document.createElement("span");
    name.textContent = label(kind);
    li.append(svg, name);
    list.append(li);
  }
  container.append(title, list);
}
