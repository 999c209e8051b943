// Why a tap does nothing (issue 36 item 4): one line in the player's words for a tap on a
// piece that cannot act (an opponent's, a knocked-down one, a stack, a blocked one) or on a
// square that is not a target of the selected piece. The engine's reasons come with every
// state (`state.why`, ball.games.ball.match.why_not: pieces, and the squares within a piece's reach that
// are not its targets); the rest is said from what the page already shows. Pure: no DOM.
import { t } from "./api.js";
import { N_ } from "./notation.js";

// What a non-target square means once a kind is chosen, for kinds whose reach is not a step.
const KIND_RULES = {
  long: N_("A long pass lands on an empty square away from every ally of the carrier."),
  short: N_("A short pass goes to an ally within reach; the ball lands beside them."),
  handoff: N_("A hand-off goes to an ally next to the carrier or linked to it by allies."),
};

function pieceName(position, square) {
  const piece = (position.pieces || []).find((p) => p.at === square && p.state !== "bottom");
  return piece ? `${piece.side} ${piece.id}` : square;
}

// The line to show for a tap on `square`, or "" when the tap needs no explanation.
// `view` is the Composer's view; `hiddenLong` the squares of long passes not drawn yet.
export function whyNot(state, view, square, hiddenLong = []) {
  if (!state || state.over) return "";
  if (state.mode === "computer" && state.actor === state.computer_side) {
    return t("Wait: it is the computer's turn.");
  }
  const why = state.why || { pieces: {}, targets: {} };
  const position = state.position;
  if (view.stage === "piece") {
    if (why.pieces[square]) return why.pieces[square];
    if (view.origins.length && !view.card) {
      return t("{square} is empty: select a lit piece first.", { square });
    }
    return "";
  }
  const piece = pieceName(position, view.origin);
  if (hiddenLong.includes(square)) {
    return t("{square} is a long-pass target: choose Long pass to show them all.", { square });
  }
  const reached = (why.targets[view.origin] || {})[square];
  if (reached && (view.stage === "kind" || view.step === 0)) return reached;
  if (view.stage === "target" && view.step > 0) {
    return t("{square} is not one of the lit squares for this step.", { square });
  }
  const rule = view.stage === "target" ? KIND_RULES[view.kind] : null;
  if (rule) return t(rule);
  return t("{square} is out of reach of {piece}.", { square, piece });
}
