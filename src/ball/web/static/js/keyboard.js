// Keyboard and screen-reader play of a Simulator: the board takes focus, the arrow keys move
// a cursor over the playable squares, Enter (or Space) acts as a tap on the cursor's square,
// Esc cancels (the simulator's own handler). After each render the focus goes where the next
// choice is made (the action menu, the release or steal buttons, or back to the board), an
// aria-live region says what was played and what is asked now, and a visually hidden list
// describes the whole position. Hooks into board.js through setCursor() only.
import { t } from "./api.js";
import { COLS, isPlayable, ROWS } from "./board.js";
import { describePosition, describeSquare } from "./board-text.js";
import { targetKinds } from "./legend.js";

// The cursor's next square for an arrow key, as the board is seen (flipped or not).
// Left/Right step two columns (the next playable square of the row); Up/Down step one row
// and one column towards `lean`, which alternates, so repeated Up walks straight up the board.
export function nextSquare(square, key, flip, lean) {
  let c = COLS.indexOf(square[0]);
  let r = Number(square.slice(1));
  const screen = flip ? -1 : 1; // screen right is column +1, screen up is row +1 unless flipped
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const dc = (key === "ArrowRight" ? 2 : -2) * screen;
    return { square: COLS[c + dc] && isPlayable(COLS[c + dc] + r) ? COLS[c + dc] + r : square, lean };
  }
  const dr = (key === "ArrowUp" ? 1 : -1) * screen;
  if (r + dr < 1 || r + dr > ROWS) return { square, lean };
  r += dr;
  const dc = COLS[c + lean] ? lean : -lean;
  c += dc;
  return { square: COLS[c] + r, lean: -dc };
}

const ARROWS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]);

export class KeyboardPlay {
  constructor(sim) {
    this.sim = sim;
    this.board = sim.board;
    this.lean = 1;
    this.keyboard = false; // the last input was a key (focus is only moved for keyboard users)
    this.lastVersion = null;
    this.lastPrompt = "";
    const svg = this.board.svg;
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("role", "application");
    svg.setAttribute("aria-roledescription", t("board"));
    svg.setAttribute("aria-label", t("Board: arrow keys move the cursor, Enter selects, Esc cancels"));
    const id = `board-text-${KeyboardPlay.count++}`;
    this.text = document.createElement("div");
    this.text.id = id;
    this.text.className = "visually-hidden board-text";
    svg.setAttribute("aria-describedby", id);
    this.live = document.createElement("div");
    this.live.className = "visually-hidden";
    this.live.setAttribute("role", "status");
    this.live.setAttribute("aria-live", "polite");
    this.live.dataset.field = "announce";
    sim.boardWrap.append(this.text, this.live);
    // one voice: the status and prompt panels are redrawn whole on every render, and as live
    // regions they would read everything again each time; this region says what changed
    // (errors stay role="alert" and are still read)
    sim.status.removeAttribute("aria-live");
    sim.compose.removeAttribute("aria-live");
    // the computer's followed turn (follow.js) is shown line by line; this region reads it
    sim.followLine?.removeAttribute("aria-live");

    svg.addEventListener("keydown", (event) => this.onKey(event));
    // a tap or click also focuses the board: the cursor is for keyboard users only
    svg.addEventListener("focus", () => {
      if (!this.keyboard && !svg.matches(":focus-visible")) return;
      this._showCursor();
      // the whole board in view (its scroll margin clears the sticky header)
      svg.scrollIntoView({ block: "nearest" });
    });
    svg.addEventListener("blur", () => this.board.setCursor(null));
    sim.root.addEventListener("keydown", () => (this.keyboard = true), true);
    sim.root.addEventListener("pointerdown", () => {
      this.keyboard = false;
      this.board.setCursor(null);
    }, true);
    // every render of the widget is followed by ours (the widget keeps no reference to us)
    const render = sim.render.bind(sim);
    sim.render = (...args) => {
      render(...args);
      this.afterRender();
    };
  }

  marks() {
    const view = this.sim.composer.view();
    const kinds = targetKinds(this.sim.composer); // the kind of each target (legend.js)
    const label = (kind) => this.sim._kindLabel(kind);
    if (view.stage === "piece") return { origins: view.origins };
    if (view.stage === "target") return { targets: view.squares, kinds, label };
    return { preview: [...kinds.keys()], kinds, label }; // (the cursor stays on the piece)
  }

  // A square worth starting on: the first target, else the first piece that can act.
  _home() {
    const m = this.marks();
    const list = m.targets || m.origins || [];
    return list[0] || (this.sim.state && this._carrierSquare()) || "G9";
  }

  _carrierSquare() {
    const p = this.sim.state.position;
    const carrier = p.ball && p.ball.carrier;
    const piece = carrier && (p.pieces || []).find((x) => `${x.side}:${x.id}` === carrier);
    return piece ? piece.at : p.ball && p.ball.at;
  }

  _showCursor() {
    const m = this.marks();
    const list = m.targets || m.origins || [];
    // keep the cursor where it is unless it now points at nothing to do
    if (!this.cursor || (list.length && !list.includes(this.cursor))) this.cursor = this._home();
    this.board.setCursor(this.cursor);
  }

  onKey(event) {
    if (!this.sim.state) return;
    if (ARROWS.has(event.key)) {
      event.preventDefault();
      if (!this.cursor) this.cursor = this._home();
      const next = nextSquare(this.cursor, event.key, this.board.flip, this.lean);
      this.cursor = next.square;
      this.lean = next.lean;
      this.board.setCursor(this.cursor);
      this.say(describeSquare(this.sim.state.position, this.cursor, this.marks()));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (!this.cursor) this._showCursor();
      this.sim.clickSquare(this.cursor);
    }
  }

  say(text) {
    this.live.textContent = text;
  }

  afterRender() {
    const state = this.sim.state;
    if (!state) return;
    this.text.replaceChildren(...describePosition(state.position, state.actor).map((line) => {
      const li = document.createElement("p");
      li.textContent = line;
      return li;
    }));
    this._announce(state);
    if (!this.keyboard) return;
    if (document.activeElement === this.board.svg) this._showCursor();
    this._moveFocus();
  }

  // What was played (when the game moved on) and what is asked now.
  _announce(state) {
    const parts = [];
    if (state.version !== this.lastVersion && this.lastVersion !== null && state.log.length) {
      const last = state.log[state.log.length - 1];
      parts.push(t("{side} played {action}", { side: last.side, action: last.action })
        + (last.pb ? ` (+${last.pb} PB)` : ""));
    }
    this.lastVersion = state.version;
    const promptNode = this.sim.compose.querySelector(".error, .prompt");
    const prompt = promptNode ? promptNode.textContent : "";
    if (prompt && prompt !== this.lastPrompt) parts.push(prompt);
    this.lastPrompt = prompt;
    if (parts.length) this.say(parts.join(". "));
  }

  // Focus follows the choice to make, unless the reader is elsewhere on the page.
  _moveFocus() {
    const active = document.activeElement;
    const ours = !active || active === document.body || this.sim.root.contains(active);
    if (!ours) return;
    const compose = this.sim.compose;
    const menu = compose.querySelector(".choices.kinds button, .choices.words button");
    const view = this.sim.composer.view();
    const onlyButtons = view.stage === "piece" && !view.origins.length;
    const choice = onlyButtons ? compose.querySelector(".choices button") : null;
    const next = menu || choice;
    if (next && (active === this.board.svg || !this.sim.root.contains(active) || active === document.body)) {
      next.focus();
    } else if (!next && (active === document.body || !active || !active.isConnected)) {
      this.board.svg.focus();
    }
  }
}
KeyboardPlay.count = 0;

export function attachKeyboard(sim) {
  return new KeyboardPlay(sim);
}
