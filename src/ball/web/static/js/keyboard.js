// Keyboard and screen-reader play of a Simulator: the board takes focus, the arrow keys move
// a cursor over the playable squares, Enter (or Space) acts as a tap on the cursor's square,
// Esc cancels (the simulator's own handler). After each render the focus goes where the next
// choice is made (the action menu, the release or steal buttons, or back to the board), an
// aria-live region says what was played and what is asked now, and a visually hidden list
// describes the whole position. Hooks into board.js through setCursor() only.
// The keys are listed under the board (keysHelp); E ends the action phase.
import { t } from "./api.js";
import { COLS, isPlayable, ROWS } from "./board.js";
import { describePosition, describeSquare } from "./board-text.js";
import { targetKinds } from "./legend.js";
import { N_ } from "./notation.js";

// How the arrow keys move the cursor (issue 36 item 8), as the board is seen (flipped or
// not): each goes to the nearest playable square in its direction. Left/Right: two columns
// along the row (the next playable square). Up/Down: one row, to whichever of the two
// playable squares there is nearer the *aim column* (the column Left/Right last left the
// cursor in), so repeated Up keeps to that column instead of drifting; when both are as
// near, the one towards the middle of the board (then the one to the right on screen).
export const ARROW_STEPS = {
  ArrowLeft: { cols: -2, rows: 0 },
  ArrowRight: { cols: 2, rows: 0 },
  ArrowUp: { cols: 0, rows: 1 },
  ArrowDown: { cols: 0, rows: -1 },
};
const MIDDLE = (COLS.length - 1) / 2; // column G

// The cursor's next square and aim column for an arrow key (`aim` null: the current column).
export function nextSquare(square, key, flip, aim = null) {
  const step = ARROW_STEPS[key];
  const c = COLS.indexOf(square[0]);
  const r = Number(square.slice(1));
  const screen = flip ? -1 : 1; // screen right is column +1, screen up is row +1 unless flipped
  const goal = aim ?? c;
  if (step.cols) {
    const col = c + step.cols * screen;
    return COLS[col] ? { square: COLS[col] + r, aim: col } : { square, aim: goal };
  }
  const row = r + step.rows * screen;
  if (row < 1 || row > ROWS) return { square, aim: goal };
  // the two playable squares of the next row, best first
  const rank = (col) => [Math.abs(col - goal), Math.abs(col - MIDDLE), -col * screen];
  const best = [c - 1, c + 1].filter((col) => COLS[col] && isPlayable(COLS[col] + row))
    .sort((x, y) => compare(rank(x), rank(y)))[0];
  return best === undefined ? { square, aim: goal } : { square: COLS[best] + row, aim: goal };
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

const ARROWS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]);

export class KeyboardPlay {
  constructor(sim) {
    this.sim = sim;
    this.board = sim.board;
    this.aim = null; // the aim column of Up/Down (nextSquare); null: the cursor's own
    this.keyboard = false; // the last input was a key (focus is only moved for keyboard users)
    this.lastVersion = null;
    this.lastPrompt = "";
    const svg = this.board.svg;
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("role", "application");
    svg.setAttribute("aria-roledescription", t("board"));
    svg.setAttribute("aria-label", t("Board: arrow keys move the cursor, Enter selects, Esc cancels, E ends the action phase"));
    svg.id = "board"; // the page's "Skip to the board" link (simulator.html) lands here
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
    sim.boardWrap.append(this.text, this.live, keysHelp());
    // why a tap did nothing (simulator.js) is read here too, not by a second live region
    sim.whyLine.removeAttribute("aria-live");
    sim.whyLine.removeAttribute("role");
    sim.onWhy = (text) => this.say(text);
    this._skipLink();
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

  // "Skip to the board" (the page's first Tab stop): focus the board with the cursor shown.
  // Learn makes a new board per lesson: the link (bound once) goes to the newest one.
  _skipLink() {
    KeyboardPlay.latest = this;
    for (const link of document.querySelectorAll('a.skip-link[href="#board"]')) {
      if (link.dataset.skipBound) continue;
      link.dataset.skipBound = "1";
      link.addEventListener("click", (event) => {
        event.preventDefault();
        KeyboardPlay.latest.focusBoard();
      });
    }
  }

  focusBoard() {
    this.keyboard = true;
    this.board.svg.focus();
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
    if (!this.cursor || (list.length && !list.includes(this.cursor))) {
      this.cursor = this._home();
      this.aim = null;
    }
    this.board.setCursor(this.cursor);
  }

  onKey(event) {
    if (!this.sim.state) return;
    if (ARROWS.has(event.key)) {
      event.preventDefault();
      if (!this.cursor) this.cursor = this._home();
      const next = nextSquare(this.cursor, event.key, this.board.flip, this.aim);
      this.cursor = next.square;
      this.aim = next.aim;
      this.board.setCursor(this.cursor);
      this.say(describeSquare(this.sim.state.position, this.cursor, this.marks()));
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (!this.cursor) this._showCursor();
      this.sim.clickSquare(this.cursor);
    } else if (event.key === "e" || event.key === "E") {
      event.preventDefault();
      this.endPhase();
    }
  }

  // The E key: end the action phase, as the button does, when the rules allow it now.
  endPhase() {
    const s = this.sim.state;
    const mine = s.mode !== "computer" || s.actor !== s.computer_side;
    if (mine && s.legal.includes("end") && !this.sim.root.hasAttribute("aria-busy")) {
      this.sim.composer.cancel();
      this.sim.apply("end");
    } else {
      this.say(t("The action phase cannot be ended now."));
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
KeyboardPlay.latest = null; // the newest board, where the skip link goes

// The keys, shown under the board (folded): what each does, the arrows' rule in short.
const KEYS = [
  ["← →", N_("the next playable square along the row")],
  ["↑ ↓", N_("the nearest playable square in the row above or below, keeping to your column")],
  ["Enter", N_("select the piece or target under the cursor")],
  ["Esc", N_("cancel the action being composed")],
  ["E", N_("end the action phase")],
  ["Tab", N_("the action menu and the buttons after the board")],
];

function keysHelp() {
  const box = document.createElement("details");
  box.className = "keys-help";
  box.dataset.field = "keys-help";
  const summary = document.createElement("summary");
  summary.textContent = t("Keys");
  const list = document.createElement("dl");
  for (const [key, what] of KEYS) {
    const dt = document.createElement("dt");
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    dt.append(kbd);
    const dd = document.createElement("dd");
    dd.textContent = t(what);
    list.append(dt, dd);
  }
  box.append(summary, list);
  return box;
}

export function attachKeyboard(sim) {
  return new KeyboardPlay(sim);
}
