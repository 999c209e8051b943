// Reading spec-18.1 action strings into their parts. The page never decides legality: it
// only groups the server's legal action strings so the user can pick one step at a time.

// Marks message ids for translation (extracted by Babel, translated by the page).
export const N_ = (message) => message;

const SQ = "([A-M](?:1[0-7]|[1-9]))";
const PATTERNS = [
  ["dodge", new RegExp(`^${SQ}-${SQ}/${SQ}$`), (m) => ({ from: m[1], steps: [m[2], m[3]] })],
  ["tdodge", new RegExp(`^${SQ}X${SQ}>${SQ}$`), (m) => ({ from: m[1], steps: [m[2], m[3]] })],
  ["handoff", new RegExp(`^${SQ}=${SQ}$`), (m) => ({ from: m[1], steps: [m[2]] })],
  ["short", new RegExp(`^${SQ}~${SQ}@${SQ}$`), (m) => ({ from: m[1], steps: [m[2], m[3]] })],
  ["long", new RegExp(`^${SQ}@${SQ}$`), (m) => ({ from: m[1], steps: [m[2]] })],
  ["move", new RegExp(`^${SQ}-${SQ}$`), (m) => ({ from: m[1], steps: [m[2]] })],
  ["up", new RegExp(`^UP ${SQ}-${SQ}$`), (m) => ({ from: m[1], steps: [m[2]] })],
  // a card with a square argument (Second Wind SQ, Quick Feet FROM-TO): the kind names the card
  ["card", new RegExp(`^CARD (\\S+) ${SQ}(?:-${SQ})?$`), (m) => ({ kind: `card:${m[1].toLowerCase()}`, from: m[2], steps: m[3] ? [m[3]] : [] })],
  [
    "split",
    new RegExp(`^SPLIT ${SQ} ${SQ} ${SQ}(?::(TOP|BOTTOM))?$`),
    (m) => ({ from: m[1], steps: m[4] ? [m[2], m[3], m[4].toLowerCase()] : [m[2], m[3]] }),
  ],
];

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
  return /^[A-M](?:1[0-7]|[1-9])$/.test(text);
}

// Parse one action string; `occupant(square)` tells whether FROM-TO lands on an ally
// (protect), an opponent (block) or nothing (move), as the position shows it.
export function parseAction(text, occupant = () => null) {
  const upper = text.trim().toUpperCase();
  for (const [kind, re, build] of PATTERNS) {
    const m = upper.match(re);
    if (!m) continue;
    const parsed = { text, kind, ...build(m) };
    parsed.card = parsed.kind.startsWith("card:") ? parsed.kind.slice(5) : null;
    if (kind === "move") {
      const who = occupant(parsed.steps[0], parsed.from);
      if (who === "ally") parsed.kind = "protect";
      else if (who === "opponent") parsed.kind = "block";
    }
    return parsed;
  }
  const card = text.trim().match(/^card (\S+)$/i);
  return { text, kind: "choice", from: null, steps: [], card: card ? card[1].toLowerCase() : null };
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
