// The board in words, for a screen reader: the whole position as a short list (whose turn,
// each side's pieces, the ball, PB, score) and one square as the keyboard cursor reads it.
// Pure functions of a spec-18.2 position document; the strings go through the catalogue.
import { t } from "./api.js";
import { N_ } from "./notation.js";

const SIDE_NAMES = { S: N_("South (S)"), N: N_("North (N)") };
const STATES = { down: N_("knocked down"), top: N_("on top of a stack"), bottom: N_("under a stack") };

function sideName(side) {
  return t(SIDE_NAMES[side] || side);
}

// "X5 G7 (knocked down)": the piece's name, square and, when not simply standing, its state.
function pieceText(piece) {
  const state = STATES[piece.state];
  return state ? `${piece.id} ${piece.at} (${t(state)})` : `${piece.id} ${piece.at}`;
}

function ballText(position) {
  const ball = position.ball || {};
  if (ball.at) return t("Ball: on {square}", { square: ball.at });
  if (!ball.carrier) return "";
  const [side, id] = ball.carrier.split(":");
  const piece = (position.pieces || []).find((p) => p.side === side && p.id === id);
  return t("Ball: carried by {side} {piece} on {square}", {
    side: sideName(side), piece: id, square: piece ? piece.at : "?",
  });
}

// "Stack on G9 (Block): North (N) X5 on South (S) X5", one line per stack: Block when the
// pieces are opponents, Protection when allies (the board's B/P badge says the same).
function stackLines(position) {
  const pieces = position.pieces || [];
  const lines = [];
  for (const top of pieces.filter((p) => p.state === "top")) {
    const bottom = pieces.find((p) => p.at === top.at && p.state === "bottom");
    if (!bottom) continue;
    const kind = top.side === bottom.side ? t("Protection") : t("Block");
    lines.push(t("Stack on {square} ({kind}): {top} on {bottom}", {
      square: top.at, kind, top: `${sideName(top.side)} ${top.id}`, bottom: `${sideName(bottom.side)} ${bottom.id}`,
    }));
  }
  return lines;
}

// The lines of the description: turn, pieces of each side, ball, PB and score.
export function describePosition(position, actor) {
  const pb = position.pb || { S: { atk: 0, def: 0 }, N: { atk: 0, def: 0 } };
  const score = position.score || {};
  const lines = [];
  const side = actor || position.to_move;
  if (side && position.phase !== "over") {
    const role = position.attack === side ? "ATK" : "DEF";
    lines.push(t("{side} ({role}) to move", { side: sideName(side), role }));
  }
  for (const s of ["S", "N"]) {
    const mine = (position.pieces || []).filter((p) => p.side === s).map(pieceText);
    lines.push(`${sideName(s)}: ${mine.join(", ") || t("none")}`);
  }
  lines.push(...stackLines(position));
  const ball = ballText(position);
  if (ball) lines.push(ball);
  for (const s of ["S", "N"]) {
    lines.push(`${sideName(s)}: ${t("Score")} ${score[s] ?? 0}, PBATK ${pb[s].atk}, PBDEF ${pb[s].def}`);
  }
  return lines;
}

// What the cursor is on: "G7: South (S) X5, ball", plus what it means for the action composed.
export function describeSquare(position, square, marks = {}) {
  const pieces = (position.pieces || []).filter((p) => p.at === square);
  const top = pieces.find((p) => p.state === "top");
  const bottom = pieces.find((p) => p.state === "bottom");
  const here = top && bottom
    // a stack names both pieces and its kind, as its badge does (issue 36 item 7)
    ? [t("stack ({kind}): {top} on {bottom}", {
      kind: top.side === bottom.side ? t("Protection") : t("Block"),
      top: `${sideName(top.side)} ${top.id}`, bottom: `${sideName(bottom.side)} ${bottom.id}`,
    })]
    : pieces.map((p) => `${sideName(p.side)} ${p.id}${STATES[p.state] ? ` (${t(STATES[p.state])})` : ""}`);
  const ball = position.ball || {};
  if (ball.at === square) here.push(t("ball"));
  else if (ball.carrier && (position.pieces || []).some((p) => `${p.side}:${p.id}` === ball.carrier && p.at === square)) {
    here.push(t("ball"));
  }
  let text = `${square}: ${here.join(", ") || t("empty")}`;
  // (gettext calls stay outside template literals, where Babel's extraction cannot see them)
  if ((marks.origins || []).includes(square)) text += " · " + t("can act");
  if ([...(marks.targets || []), ...(marks.preview || [])].includes(square)) {
    // the target's action kind(s), as the board's marks and legend show them
    const kinds = marks.kinds && marks.label ? (marks.kinds.get(square) || []).map(marks.label) : [];
    text += " · " + (kinds.length ? t("target: {kinds}", { kinds: kinds.join(", ") }) : t("target"));
  }
  return text;
}
