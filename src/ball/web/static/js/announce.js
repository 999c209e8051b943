// Announcements of the simulator page (issue 13): touchdown, steal, half-time and the match
// result. Every fact and sentence comes from the server (the state's `announce`, rendered by
// ball.web.sim_story; the result decided by ball.games.ball.match.result.decide); this module only shows
// them in a dialog and offers what comes next.
import { t } from "./api.js";
import { rematchBody } from "./simulator.js";

// sessionStorage: second half's id -> first half's id. The server keeps the link of a second
// half it made (next-half); this one also links a half 2 loaded in the editor after a half 1
// finished in this tab.
const FIRST_HALF = "ball-first-half:";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// The match result, or null when the server knows of no first half for this one.
async function matchResult(id, first) {
  const query = new URLSearchParams({ lang: document.documentElement.lang || "en" });
  if (first) query.set("first", first);
  const response = await fetch(`/api/games/${encodeURIComponent(id)}/result?${query}`);
  return response.ok ? response.json() : null;
}

export class Announcer {
  constructor(sim, newGameForm) {
    this.sim = sim;
    this.form = newGameForm;
    this.shown = null; // "id:plies" of the last announced action, so each is told once
    this.previous = null;
    this.dialog = el("dialog", { class: "announce", "aria-labelledby": "announce-title" });
    document.body.append(this.dialog);
    // the steal is told beside its choice, not over it: the player answers it right there.
    // It is part of the choices' sheet, so on a phone it is held on screen with its buttons.
    this.notice = el("div", { class: "announce-inline", role: "status", hidden: "" });
    sim.sheetNotice = this.notice;
    sim.compose.prepend(this.notice);
  }

  // Called with each new state of the page's simulator.
  async update(state) {
    const before = this.previous;
    this.previous = state;
    if (before && before.id !== state.id && before.over && before.position.half === 1 && state.position.half === 2) {
      sessionStorage.setItem(FIRST_HALF + state.id, before.id); // the second half of that game
    }
    const key = `${state.id}:${state.log.length}`;
    const ann = state.announce;
    if (key !== this.shown) this.notice.hidden = true;
    if (!ann || key === this.shown) return;
    this.shown = key;
    if (ann.kind === "steal") this.inline(ann);
    // a half ends on a touchdown or on the half timer (kind "time", D-20): the same screens
    else if (ann.half_time) this.halfTime(state, ann);
    else if (ann.kind === "touchdown" || ann.kind === "time") await this.result(state, ann);
  }

  halfTime(state, ann) {
    const next = el("button", { type: "button", class: "primary", "data-control": "announce-next-half",
      onclick: () => { this.close(); this.sim.nextHalf(); } }, t("Play the second half"));
    this.show(ann.title, [ann.text, el("strong", {}, ann.half_time.title), ann.half_time.text], [next, this.closeButton()]);
    this.dialog.dataset.kind = "half-time";
  }

  async result(state, ann) {
    const first = sessionStorage.getItem(FIRST_HALF + state.id);
    const res = state.position.half === 2 ? await matchResult(state.id, first) : null;
    if (!res) {
      this.show(ann.title, [ann.text], [this.closeButton()]);
      return;
    }
    // kept beside the game with its Rematch, after this dialog is closed
    this.sim.matchResult = { id: state.id, result: res };
    this.sim.render();
    const rematch = el("button", { type: "button", class: "primary", "data-control": "rematch",
      onclick: () => { this.close(); this.sim.create(this.rematchBody(state)); } }, t("Rematch"));
    const fresh = el("button", { type: "button", "data-control": "new-match",
      onclick: () => { this.close(); this.form.scrollIntoView({ block: "center" }); this.form.querySelector("select, button")?.focus(); } },
    t("New match"));
    this.show(res.title, [ann.text, res.text], [rematch, fresh]);
    this.dialog.dataset.kind = "result";
    this.dialog.dataset.reason = res.decision.reason;
  }

  // The same match again (simulator.js: the computer on its side of half 1).
  rematchBody(state) {
    return rematchBody(state);
  }

  inline(ann) {
    this.notice.dataset.kind = ann.kind;
    this.notice.replaceChildren(el("strong", {}, ann.title), " ", ann.text);
    this.notice.hidden = false;
  }

  closeButton() {
    return el("button", { type: "button", "data-control": "announce-close", onclick: () => this.close() }, t("Close"));
  }

  show(title, lines, buttons) {
    delete this.dialog.dataset.reason;
    this.dialog.dataset.kind = "announce";
    this.dialog.replaceChildren(
      el("h2", { id: "announce-title" }, title),
      ...lines.map((line) => el("p", {}, line)),
      el("div", { class: "announce-buttons" }, buttons));
    if (!this.dialog.open) this.dialog.showModal();
    buttons[0].focus();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }
}
