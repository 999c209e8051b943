// Reading spec-18.1 action strings into their parts. The page never decides legality: it
// only groups the server's legal action strings so the user can pick one step at a time.
// The grammar itself is not written here: notation_grammar.js is generated from the engine's
// one definition (ball/games/ball/engine/notation.py), and this module only interprets its fields.
import { GRAMMAR } from "./notation_grammar.js";

// Marks message ids for translation (extracted by Babel, translated by the page).
export const N_ = (message) => message;

const FORMS = GRAMMAR.forms.map((form) => ({ ...form, re: new RegExp(form.pattern, GRAMMAR.flags) }));
const SQUARE = new RegExp(`^(?:${GRAMMAR.square})$`);
const SQUARES = new RegExp(GRAMMAR.square, "g");

// What each step of an action asks for (message ids, translated by the page).
export const STEP_PROMPTS = {
  move: [N_("Choose the destination square")],
  block: [N_("Choose the piece to block")],
  protect: [N_("Choose the piece to protect")],
  dodge: [N_("Choose the dodged piece's square"), N_("Choose the exit square")],
  tdodge: [N_("Choose the landing square"), N_("Choose where the jumped piece is pushed")],
  handoff: [N_("Choose the receiver")],
  short: [N_("Choose the receiver"), N_("Choose the square for the ball")],
  long: [N_("Choose the square for the ball")],
  up: [N_("Choose where the piece stands up")],
  split: [
    N_("Choose the square for the top piece"),
    N_("Choose the square for the bottom piece"),
    N_("Choose which piece keeps the ball"),
  ],
};

export const KIND_LABELS = {
  move: N_("Move"),
  block: N_("Block"),
  protect: N_("Protect"),
  dodge: N_("Dodge"),
  tdodge: N_("Tactical dodge"),
  handoff: N_("Hand-off"),
  short: N_("Short pass"),
  long: N_("Long pass"),
  up: N_("Stand up"),
  split: N_("Split the stack"),
};

// Cards are played from the card panel's buttons; a piece click never spends PE by itself.
export function isCardKind(kind) {
  return typeof kind === "string" && kind.startsWith("card:");
}

export function isSquare(text) {
  return SQUARE.test(text);
}

// Every square named in a text (upper case, in order): what the board outlines for an action.
export function squaresOf(text) {
  return String(text || "").toUpperCase().match(SQUARES) || [];
}

// The form and field texts of an action, as ball.games.ball.engine.notation.read gives them for the
// same text with its white space made single: { form, fields (types), values } or null.
export function readAction(text) {
  const words = String(text).trim().split(/\s+/).join(" ");
  for (const form of FORMS) {
    const m = words.match(form.re);
    if (m) return { form: form.name, fields: form.fields, values: m.slice(1).map((v) => v ?? null) };
  }
  return null;
}

// Parse one action string; `occupant(square)` tells whether FROM-TO lands on an ally
// (protect), an opponent (block) or nothing (move), as the position shows it.
// The first square is where the action starts (the piece, the stack, a card's piece); the
// other squares and a split's top/bottom are the steps the user picks in order. A card with
// squares is its own kind ("card:NAME"); an action without a square is a plain choice.
export function parseAction(text, occupant = () => null) {
  const read = readAction(text);
  const squares = [];
  const words = [];
  let card = null;
  read?.values.forEach((value, i) => {
    if (value === null) return;
    const type = read.fields[i];
    if (type === "sq") squares.push(value.toUpperCase());
    else if (type === "keep") words.push(value.toLowerCase());
    else if (type === "card") card = value.toLowerCase();
  });
  if (squares.length === 0) return { text, kind: "choice", from: null, steps: [], card };
  const kind = card === null ? read.form : `card:${card}`;
  const parsed = { text, kind, from: squares[0], steps: [...squares.slice(1), ...words], card };
  if (kind === "move") {
    const who = occupant(parsed.steps[0], parsed.from);
    if (who === "ally") parsed.kind = "protect";
    else if (who === "opponent") parsed.kind = "block";
  }
  return parsed;
}

// Group legal actions: piece actions by origin square, and the rest as plain choices.
export function groupActions(actions, occupant) {
  const byOrigin = new Map();
  const choices = [];
  for (const text of actions) {
    const a = parseAction(text, occupant);
    if (a.from === null) {
      choices.push(a);
      continue;
    }
    if (!byOrigin.has(a.from)) byOrigin.set(a.from, []);
    byOrigin.get(a.from).push(a);
  }
  return { byOrigin, choices };
}
