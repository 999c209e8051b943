// Live diagrams of the rulebook: each shows its position at once; "Play" or "Try it" turns it
// into a small free-play game on the server (so the reader can play, undo and try others).
import { t } from "./api.js";
import { BoardView } from "./board.js";
import { squaresOf } from "./notation.js";
import { Simulator } from "./simulator.js";

function button(label, attrs, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.append(...label);
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.addEventListener("click", onclick);
  return b;
}

function code(text) {
  const c = document.createElement("code");
  c.textContent = text;
  return c;
}

class Diagram {
  constructor(figure) {
    this.figure = figure;
    this.position = JSON.parse(figure.dataset.position);
    this.suggest = figure.dataset.suggest;
    this.mount = figure.querySelector(".diagram-board");
    this.actions = document.createElement("div");
    this.actions.className = "diagram-actions controls";
    this.mount.after(this.actions);
    this.sim = null;
    this.showStatic();
  }

  labels() {
    return { endS: t("End zone: S scores here"), endN: t("End zone: N scores here"), block: t("Block"), protect: t("Protection") };
  }

  showStatic() {
    this.mount.replaceChildren();
    this.sim = null;
    const board = new BoardView(this.mount, { labels: this.labels(), onSquare: () => this.live(false) });
    // the squares of the suggested action are outlined, so a printed diagram tells it too
    const squares = squaresOf(this.suggest);
    board.render(this.position, { last: squares });
    const buttons = [];
    if (this.suggest) {
      buttons.push(button([t("Play"), " ", code(this.suggest)], { "data-control": "play-suggested", class: "primary" }, () => this.live(true)));
    }
    buttons.push(button([t("Try it yourself")], { "data-control": "try" }, () => this.live(false)));
    this.actions.replaceChildren(...buttons);
  }

  async live(playSuggested) {
    if (!this.sim) {
      this.mount.replaceChildren();
      this.sim = new Simulator(this.mount, {
        compact: true,
        controls: () => {
          const out = [];
          // the suggested action is legal only in the diagram's own position: once anything
          // has been played the button is greyed out instead of answering with an error
          if (this.suggest) {
            const played = Boolean(this.sim && this.sim.state && this.sim.state.log.length);
            const attrs = { "data-control": "play-suggested" };
            if (played) attrs.disabled = "";
            out.push(button([t("Play"), " ", code(this.suggest)], attrs, () => this.sim.apply(this.suggest)));
          }
          out.push(button([t("Back to the diagram")], { "data-control": "reset-diagram" }, () => this.showStatic()));
          return out;
        },
      });
      Simulator.lastUsed = this.sim;
      this.actions.replaceChildren();
      await this.sim.create({ mode: "free", position: this.position, title: `rulebook ${this.figure.dataset.diagram}` });
    }
    if (playSuggested && this.suggest) await this.sim.apply(this.suggest);
  }
}

window.ballDiagrams = [...document.querySelectorAll("figure.diagram")].map((f) => new Diagram(f));
