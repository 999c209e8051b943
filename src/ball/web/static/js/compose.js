// Composing one action from the server's legal list: select a piece, then an action kind,
// then each target in turn. Pure state, no DOM: the page renders what `view()` says.
import { groupActions, isCardKind, isSquare, STEP_PROMPTS } from "./notation.js";

export class Composer {
  constructor(actions, occupant) {
    this.setActions(actions, occupant);
  }

  setActions(actions, occupant) {
    const { byOrigin, choices } = groupActions(actions, occupant);
    this.byOrigin = byOrigin;
    this.choices = choices;
    this.cancel();
  }

  cancel() {
    this.origin = null;
    this.kind = null;
    this.picked = [];
    this.card = null; // the card kind ("card:NAME") being played, if a card button started it
  }

  get composing() {
    return this.origin !== null || this.card !== null;
  }

  // Card actions with a square argument are offered only once their card button is pressed.
  _offered(kind) {
    return this.card === null ? !isCardKind(kind) : kind === this.card;
  }

  origins() {
    return [...this.byOrigin.keys()].filter((o) => this.kindsAt(o).length > 0);
  }

  // The cards with a square argument that can be played now ("card:NAME" kinds).
  cardKinds() {
    const kinds = [];
    for (const list of this.byOrigin.values()) {
      for (const a of list) if (isCardKind(a.kind) && !kinds.includes(a.kind)) kinds.push(a.kind);
    }
    return kinds;
  }

  startCard(kind) {
    if (!this.cardKinds().includes(kind)) return;
    this.cancel();
    this.card = kind;
  }

  kindsAt(origin) {
    const kinds = [];
    for (const a of this.byOrigin.get(origin) || []) {
      if (this._offered(a.kind) && !kinds.includes(a.kind)) kinds.push(a.kind);
    }
    return kinds;
  }

  candidates() {
    if (this.origin === null || this.kind === null) return [];
    return this.byOrigin
      .get(this.origin)
      .filter((a) => a.kind === this.kind && this.picked.every((p, i) => a.steps[i] === p));
  }

  // Returns the finished action text when the choice completes an action, else null.
  selectOrigin(origin) {
    if (!this.origins().includes(origin)) return null;
    this.origin = origin;
    this.kind = null;
    this.picked = [];
    const kinds = this.kindsAt(origin);
    return kinds.length === 1 ? this.selectKind(kinds[0]) : null;
  }

  selectKind(kind) {
    if (!this.kindsAt(this.origin).includes(kind)) return null;
    this.kind = kind;
    this.picked = [];
    return this._maybeDone();
  }

  pick(value) {
    const options = this.options();
    if (!options.includes(value)) return null;
    this.picked.push(value);
    return this._maybeDone();
  }

  // The values the next step may take (squares or words like "top"/"bottom").
  options() {
    const step = this.picked.length;
    const values = [];
    for (const a of this.candidates()) {
      const v = a.steps[step];
      if (v !== undefined && !values.includes(v)) values.push(v);
    }
    return values;
  }

  // An action completes once the first target is chosen and exactly one candidate is left:
  // a follow-up with a single possible answer is not asked.
  _maybeDone() {
    if (this.picked.length === 0) {
      // an action with no target (a card naming only its piece) is done once chosen
      const only = this.candidates();
      if (only.length === 1 && only[0].steps.length === 0) {
        this.cancel();
        return only[0].text;
      }
      return null;
    }
    // A follow-up step with one possible answer is filled in, not asked.
    for (let opts = this.options(); opts.length === 1 && this.candidates().length > 1; opts = this.options()) {
      this.picked.push(opts[0]);
    }
    const left = this.candidates();
    if (left.length === 1) {
      const done = left[0].text;
      this.cancel();
      return done;
    }
    return null;
  }

  view() {
    if (this.origin === null) {
      return { stage: "piece", origins: this.origins(), choices: this.choices, card: this.card };
    }
    if (this.kind === null) {
      return { stage: "kind", origin: this.origin, kinds: this.kindsAt(this.origin) };
    }
    const options = this.options();
    const step = this.picked.length;
    return {
      stage: "target",
      origin: this.origin,
      kind: this.kind,
      picked: [...this.picked],
      step,
      prompt: (STEP_PROMPTS[this.kind] || [])[step] || "",
      squares: options.filter(isSquare),
      words: options.filter((o) => !isSquare(o)),
    };
  }
}
