// Position editor of free play: places pieces, sets their state and the ball, and edits the
// spec-18.2 document. The server checks the document (it never trusts the editor).
import { api, t } from "./api.js";

const ROSTER = ["X1", "O2", "X3", "Q4", "X5", "O6", "X7"];

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick" || k === "onchange") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function select(name, values, current, onchange, labels = {}) {
  return h("select", { name, onchange: (e) => onchange(e.target.value) },
    values.map((v) => h("option", { value: v, selected: String(v) === String(current) }, labels[v] || String(v))));
}

export class PositionEditor {
  constructor(sim, container) {
    this.sim = sim;
    this.container = container;
    this.active = false;
    this.tool = "place";
    this.side = "S";
    this.pieceId = "X1";
    this.pieceState = "active";
    this.message = "";
    sim.editor = this;
  }

  open(position) {
    this.doc = structuredClone(position);
    this.doc.pieces = this.doc.pieces || [];
    this.active = true;
    this.sim.root.classList.add("editing");
    this.message = "";
    this.render();
  }

  close() {
    this.active = false;
    this.sim.root.classList.remove("editing");
    this.container.replaceChildren();
    this.sim.render();
  }

  _remove(side, id) {
    const piece = this.doc.pieces.find((p) => p.side === side && p.id === id);
    if (!piece) return;
    this.doc.pieces = this.doc.pieces.filter((p) => p !== piece);
    const partner = this.doc.pieces.find((p) => p.at === piece.at);
    if (partner && (partner.state === "top" || partner.state === "bottom")) {
      partner.state = partner.state === "bottom" ? partner.was || "active" : "active";
      delete partner.was;
      delete partner.since_turn;
    }
    const carrier = this.doc.ball && this.doc.ball.carrier;
    if (carrier === `${side}:${id}`) this.doc.ball = partner ? { carrier: `${partner.side}:${partner.id}` } : { at: piece.at };
  }

  clickSquare(square) {
    const here = this.doc.pieces.filter((p) => p.at === square);
    this.message = "";
    if (this.tool === "remove") {
      for (const p of here) this._remove(p.side, p.id);
    } else if (this.tool === "ball") {
      const holder = here.find((p) => p.state !== "bottom");
      this.doc.ball = holder ? { carrier: `${holder.side}:${holder.id}` } : { at: square };
    } else {
      const key = `${this.side}:${this.pieceId}`;
      const carried = this.doc.ball && this.doc.ball.carrier === key;
      this._remove(this.side, this.pieceId);
      const others = this.doc.pieces.filter((p) => p.at === square);
      const piece = { side: this.side, id: this.pieceId, kind: this.pieceId[0], at: square, state: this.pieceState };
      if (others.length >= 2) {
        this.message = t("A stack holds two pieces at most.");
      } else {
        if (others.length === 1) {
          const under = others[0];
          under.was = under.state === "down" ? "down" : "active";
          under.state = "bottom";
          piece.state = "top";
          piece.since_turn = Math.max(1, (this.doc.turn || 1) - 1);
        }
        this.doc.pieces.push(piece);
        if (carried) this.doc.ball = { carrier: key };
        if (this.doc.ball && this.doc.ball.at === square) this.doc.ball = { carrier: key };
      }
    }
    this.render();
  }

  async playFromHere() {
    try {
      // checked and shown now, stored with its first action (Simulator.apply)
      const body = { position: this.doc, mode: "free" };
      const state = await api.previewGame(body);
      this.active = false;
      this.sim.root.classList.remove("editing");
      this.container.replaceChildren();
      this.sim.pending = body;
      this.sim.setState(state);
    } catch (err) {
      this.message = err.message;
      this.render();
    }
  }

  async check() {
    try {
      this.doc = await api.checkPosition(this.doc);
      this.message = t("The position is valid.");
    } catch (err) {
      this.message = err.message;
    }
    this.render();
  }

  importText(text) {
    try {
      this.doc = JSON.parse(text);
      this.doc.pieces = this.doc.pieces || [];
      this.message = "";
    } catch (err) {
      this.message = t("Not JSON: {error}", { error: err.message });
    }
    this.render();
  }

  download() {
    const blob = new Blob([JSON.stringify(this.doc, null, 2)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: "position.json" });
    a.click();
    URL.revokeObjectURL(a.href);
  }

  render() {
    this.sim.board.render(this.doc, {});
    const set = (field, cast = (v) => v) => (value) => {
      this.doc[field] = cast(value);
      this.render();
    };
    const placed = new Set(this.doc.pieces.map((p) => `${p.side}:${p.id}`));
    const text = h("textarea", { class: "position-json", rows: 8, spellcheck: "false", "aria-label": t("Position document (JSON)") });
    text.value = JSON.stringify(this.doc, null, 1);
    const radio = (value, label) =>
      h("label", {}, h("input", { type: "radio", name: "tool", value, checked: this.tool === value,
        onchange: () => { this.tool = value; this.render(); } }), " ", label);
    this.container.replaceChildren(h("div", { class: "editor controls" },
      h("h2", {}, t("Position editor")),
      h("p", {}, t("Click a square to apply the tool.")),
      h("div", { class: "row" }, radio("place", t("Place piece")), radio("ball", t("Ball")), radio("remove", t("Remove"))),
      h("div", { class: "row" },
        h("label", {}, t("Side"), " ", select("side", ["S", "N"], this.side, (v) => { this.side = v; this.render(); })),
        h("label", {}, t("Piece"), " ", select("piece", ROSTER, this.pieceId, (v) => { this.pieceId = v; this.render(); },
          Object.fromEntries(ROSTER.map((id) => [id, placed.has(`${this.side}:${id}`) ? `${id} ✓` : id])))),
        h("label", {}, t("State"), " ", select("state", ["active", "down"], this.pieceState, (v) => { this.pieceState = v; this.render(); },
          { active: t("active"), down: t("knocked down") }))),
      h("div", { class: "row" },
        h("label", {}, t("Half"), " ", select("half", [1, 2], this.doc.half, set("half", Number))),
        h("label", {}, t("Turn"), " ", h("input", { type: "number", min: 1, value: this.doc.turn || 1, name: "turn",
          onchange: (e) => set("turn", Number)(e.target.value) })),
        h("label", {}, t("To move"), " ", select("to_move", ["S", "N"], this.doc.to_move, set("to_move"))),
        h("label", {}, "ATK ", select("attack", ["S", "N"], this.doc.attack, set("attack"))),
        h("label", {}, "PA ", select("pa", [0, 1, 2], this.doc.pa ?? 2, set("pa", Number))),
        h("label", {}, t("Phase"), " ", select("phase", ["action", "release"], this.doc.phase, set("phase")))),
      this.message ? h("p", { class: "message", role: "status" }, this.message) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", "data-control": "play-from-here", onclick: () => this.playFromHere() }, t("Play from this position")),
        h("button", { type: "button", onclick: () => this.check() }, t("Check")),
        h("button", { type: "button", onclick: () => this.download() }, t("Export JSON")),
        h("button", { type: "button", onclick: () => this.importText(text.value) }, t("Import JSON from the box")),
        h("label", { class: "button" }, t("Import a JSON file"), " ",
          h("input", { type: "file", accept: ".json,application/json", name: "position-file",
            onchange: async (e) => { if (e.target.files[0]) this.importText(await e.target.files[0].text()); } })),
        h("button", { type: "button", onclick: () => this.close() }, t("Close editor"))),
      text,
    ));
  }
}
