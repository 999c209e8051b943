// The simulator widget: board + status + composition of one action + log + controls.
// Used full-size on the simulator page and compact in the rulebook's live diagrams.
import { api, t } from "./api.js";
import { drawArrows, lastTurns } from "./arrows.js";
import { BoardView } from "./board.js";
import { Composer } from "./compose.js";
import { hiddenTargets, kindsShown, renderLegend, targetKinds } from "./legend.js";
import { isCardKind, KIND_LABELS, N_, squaresOf } from "./notation.js";
import { PhoneView } from "./phone-view.js";
import { whyNot } from "./why-not.js";

const CHOICE_LABELS = {
  end: N_("End the action phase"),
  pe: N_("Convert 1 PA into 1 PE"),
  continue: N_("Continue: keep the ball and become ATK"),
  reset: N_("Reset: back to the standard formation"),
};
const WORD_LABELS = { top: N_("The top piece keeps the ball"), bottom: N_("The bottom piece keeps the ball") };
// the same choice naming the piece (issue 36 item 7): "N X5 (on top) keeps the ball"
const NAMED_WORD_LABELS = {
  top: N_("{piece} (on top) keeps the ball"),
  bottom: N_("{piece} (underneath) keeps the ball"),
};
const PHASES = {
  action: N_("Action phase"),
  release: N_("Release phase"),
  steal: N_("Steal decision"),
  recover: N_("Card recovery"),
  over: N_("Half over"),
};
// With the ball carrier selected, a tap on a piece of its side that it can give the ball to
// gives it (a hand-off, else a short pass) rather than selecting that piece: the receiver is
// a piece that could act too, and the tap meant the ball (issue 36 item 10, the hand-off
// lesson). Protecting it stays one tap on the Protect button away.
const BALL_TAP_KINDS = ["handoff", "short"];
// Turn effects of cards in force (spec 11, D-15), as the position document names them.
const EFFECT_LABELS = {
  short_range: N_("Long Arm: a short pass may reach distance {n}"),
  screen: N_("Screen: own 2-square diagonal moves may cross own knocked-down pieces"),
  audible: N_("Audible: the next hand-off or pass costs no PA"),
};
// What a card's square argument asks for, by the card's effect.
const CARD_PROMPTS = {
  second_wind: [N_("Choose the restricted piece that may act again")],
  stand_up: [N_("Choose the knocked-down piece"), N_("Choose where the piece stands up")],
};

// Modes whose games are halves of a match: a match strip, both halves' log, a half timer.
const MATCH_MODES = ["computer", "play"];
const otherSide = (side) => (side === "S" ? "N" : "S");

// The same match again: the rules, mode and level of `state`'s, the computer on the side it
// had in half 1 (ends change at half-time, D-22: in half 2 it plays the other side).
export function rematchBody(state) {
  const body = { mode: state.mode, ruleset: state.ruleset };
  if (state.mode === "computer") {
    const side = state.computer_side || "N";
    body.computer_side = state.position.half === 2 ? otherSide(side) : side;
    body.computer_level = state.computer_level || "greedy";
  }
  return body;
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A card of the game's deck by name: {name, title, pe, effect} (title = name if unknown).
export function deckCard(deck, name) {
  const card = deck && deck.cards.find((c) => c.name === name);
  return card || { name, title: name, pe: "?", effect: "" };
}

function cardLabel(deck, name) {
  const card = deckCard(deck, name);
  return t("{card} ({pe} PE)", { card: card.title, pe: card.pe });
}

export function choiceLabel(action, deck = null) {
  if (CHOICE_LABELS[action]) return t(CHOICE_LABELS[action]);
  const card = action.match(/^card (\S+)(.*)$/i);
  if (card) return t("Play card {name}", { name: cardLabel(deck, card[1]) }) + card[2];
  const recover = action.match(/^recover (\S+)$/i);
  if (recover) {
    return recover[1] === "-"
      ? t("Take back no card")
      : t("Take back card {name}", { name: deckCard(deck, recover[1]).title });
  }
  return action;
}

export class Simulator {
  constructor(root, options = {}) {
    this.root = root;
    this.options = options;
    this.state = null;
    this.pending = null; // the new game's settings until its first action stores it
    this.error = "";
    this.thinking = false; // a request is under way that the computer answers
    this.firstHalf = null; // a second half's first half (its state), for the match strip and log
    this.matchResult = null; // {id, result} of the finished match (announce.js fetches it)
    this.composer = new Composer([], () => null);
    this.onChange = options.onChange || (() => {});
    this._build();
    // kept so destroy() can remove it: the listener is on the document, not on the board
    this._onEscape = (event) => {
      if (event.key === "Escape" && this.composer.composing && this._isActive()) {
        this.composer.cancel();
        this.error = "";
        this.render();
      }
    };
    document.addEventListener("keydown", this._onEscape);
  }

  // Called by a page that replaces this simulator with another (Learn, at each lesson), so
  // the replaced one no longer answers Esc.
  destroy() {
    document.removeEventListener("keydown", this._onEscape);
    if (Simulator.lastUsed === this) Simulator.lastUsed = null;
  }

  _isActive() {
    // Esc belongs to the widget the reader last used (the page may hold several diagrams).
    return !this.options.compact || Simulator.lastUsed === this;
  }

  _build() {
    const compact = Boolean(this.options.compact);
    this.root.classList.add("sim");
    if (compact) this.root.classList.add("compact");
    this.boardWrap = h("div", { class: "board-wrap" });
    this.status = h("section", { class: "status", "aria-live": "polite" });
    this.compose = h("section", { class: "compose controls", "aria-live": "polite" });
    this.cards = h("section", { class: "cards", "aria-label": t("Cards") });
    this.controls = h("section", { class: "game-controls controls" });
    this.logBox = h("section", { class: "log" });
    this.panel = h("aside", { class: "panel" }, this.status, this.compose, this.cards, this.controls, this.logBox);
    this.root.append(this.boardWrap, this.panel);
    // the computer's turn in words: thinking, then each action followed (follow.js writes
    // it); in the panel, not above the board, so showing it never moves the board
    this.followLine = h("p", { class: "follow-line", "aria-live": "polite", hidden: "", "data-field": "banner" });
    this.board = new BoardView(this.boardWrap, {
      flip: Boolean(this.options.flip),
      labels: {
        endS: t("End zone: S scores here"),
        endN: t("End zone: N scores here"),
        block: t("Block"),
        protect: t("Protection"),
        stack: t("Stack of {n}: {kind}"),
        down: t("Knocked down"),
      },
      onSquare: (square) => this.clickSquare(square),
      kindLabel: (kind) => this._kindLabel(kind),
    });
    // which action kinds the marked targets stand for (legend.js), beside the board
    this.legend = h("div", { class: "target-legend", "data-field": "legend", hidden: "" });
    this.boardWrap.append(this.legend);
    // why a tap did nothing (why-not.js), in one line under the board; keyboard.js, which
    // speaks for the widget, reads it in its own live region instead
    this.whyLine = h("p", { class: "why-not", "data-field": "why-not", role: "status", "aria-live": "polite", hidden: "" });
    this.legend.before(this.whyLine);
    this.panel.prepend(this.followLine);
    // on a phone: the selection kept clear of the sheet, and a zoom (phone-view.js)
    this.phone = compact ? null : new PhoneView(this);
    this.root.addEventListener("pointerdown", () => (Simulator.lastUsed = this));
  }

  async load(gameId) {
    this.pending = null;
    await this._run(() => api.game(gameId));
    // a game left on the computer's turn (its search was lost with a killed server process,
    // issue 34): the page asks for the move, as after an action
    if (this._isComputerTurn()) {
      await this._run(() => this._whileThinking(() => api.computerMove(this.state.id)));
    }
  }

  // A new game is shown at once but stored only with its first action (the server keeps
  // no empty game per visit); a game where the computer acts first is stored now.
  async create(body) {
    await this._run(async () => {
      const draft = await api.previewGame(body);
      if (draft.mode === "computer" && draft.actor === draft.computer_side && !draft.over) {
        this.pending = null;
        this.setState(draft); // the new game at once, not the old one while the computer thinks
        return this._whileThinking(() => api.createGame(body));
      }
      this.pending = body;
      return draft;
    });
  }

  async _run(request) {
    // busy while a request (and the computer's followed reply) is under way: the shown
    // state is the old one until it ends, and a choice made on it would be refused
    this.root.setAttribute("aria-busy", "true");
    try {
      const state = await request();
      this.error = "";
      this.setState(state);
    } catch (err) {
      this.error = err.message;
      this.render();
    } finally {
      this.root.removeAttribute("aria-busy");
    }
  }

  // `request` answered by the computer: meanwhile the page says so and offers no choice
  async _whileThinking(request) {
    this.thinking = true;
    this.render();
    try {
      return await request();
    } finally {
      this.thinking = false;
    }
  }

  setState(state) {
    const before = this.state;
    this.state = state;
    this.explain("");
    this._trackFirstHalf(before, state);
    const pieces = state.position.pieces || [];
    const occupant = (square, from) => {
      const mover = pieces.find((p) => p.at === from && p.state !== "bottom");
      const there = pieces.find((p) => p.at === square);
      if (!there || !mover) return null;
      return there.side === mover.side ? "ally" : "opponent";
    };
    const mine = this._isComputerTurn() ? [] : state.legal;
    this.composer.setActions(mine, occupant);
    this.render();
    this.onChange(state);
  }

  _isComputerTurn() {
    const s = this.state;
    return s && s.mode === "computer" && s.actor === s.computer_side && !s.over;
  }

  async apply(action) {
    Simulator.lastUsed = this;
    const applied = this.state.log.length + 1; // the player's ply; the computer's come after
    const work = async () => {
      const state = this.pending
        ? await api.createGame({ ...this.pending, action })
        : await api.apply(this.state.id, action, this.state.version);
      this.pending = null;
      if (this.options.follow) await this.options.follow(this, state, applied);
      return state;
    };
    // against the computer, its reply (and the following of it) is the computer's turn
    await this._run(this.state.mode === "computer" ? () => this._whileThinking(work) : work);
  }

  clickSquare(square) {
    Simulator.lastUsed = this;
    if (this.editor && this.editor.active) {
      this.editor.clickSquare(square);
      return;
    }
    if (!this.state || this.thinking) return;
    const view = this.composer.view();
    let done;
    const ballKind = view.stage === "kind" ? this._ballKind(square) : null;
    if (view.stage === "target" && view.squares.includes(square)) {
      done = this.composer.pick(square);
    } else if (ballKind) {
      done = this.composer.selectKind(ballKind) || this.composer.pick(square);
    } else if (this.composer.origins().includes(square) && (view.stage !== "target" || view.step === 0)) {
      done = this.composer.selectOrigin(square);
    } else if (view.stage === "kind" && this._onlyKind(square)) {
      // a previewed target that only one kind reaches chooses that kind and that target
      done = this.composer.selectKind(this._onlyKind(square)) || this.composer.pick(square);
    } else {
      // a tap that does nothing says why; the action being composed is kept
      this.explain(whyNot(this.state, view, square, hiddenTargets(this.composer)));
      if (view.stage !== "piece") return;
      this.error = "";
      this.render();
      return;
    }
    this.explain("");
    this.error = "";
    if (done) this.apply(done);
    else this.render();
  }

  _ballKind(square) {
    const kinds = targetKinds(this.composer).get(square) || [];
    return BALL_TAP_KINDS.find((kind) => kinds.includes(kind)) || null;
  }

  // Show (or, with "", clear) the line saying why the last tap did nothing.
  explain(text) {
    this.whyLine.textContent = text;
    this.whyLine.hidden = !text;
    if (text && this.onWhy) this.onWhy(text);
  }

  _onlyKind(square) {
    const kinds = targetKinds(this.composer).get(square) || [];
    return kinds.length === 1 ? kinds[0] : null;
  }

  render() {
    if (!this.state) {
      this.compose.replaceChildren(this.error ? h("p", { class: "error", role: "alert" }, this.error) : "");
      return;
    }
    const position = this.state.position;
    // while the computer answers nothing is lit or selected: it is not the player's turn
    const view = this.thinking ? { stage: "wait" } : this.composer.view();
    const marks = { last: this._lastSquares() };
    if (view.stage === "wait") marks.origins = [];
    else if (view.stage === "piece") marks.origins = view.origins;
    else marks.selected = view.origin;
    if (view.stage === "target") {
      marks.picked = view.picked;
      if (view.step === 0) marks.targets = view.squares;
      else marks.followups = view.squares;
    }
    marks.kinds = this.thinking ? new Map() : targetKinds(this.composer);
    if (view.stage === "kind") marks.preview = [...marks.kinds.keys()];
    this.board.render(position, marks);
    renderLegend(this.legend, kindsShown(marks.kinds), (kind) => this._kindLabel(kind), t("Targets:"));
    this._legendLongNote(view);
    if (!this.options.compact) drawArrows(this.board, lastTurns(this.state.log));
    this._renderBanner(position);
    this._renderStatus(position);
    this._renderCards(position);
    this._renderCompose(view, position);
    this._renderControls();
    this._renderLog();
    if (this.phone) this.phone.rendered(view);
  }

  // Long passes are drawn on demand (legend.js ON_DEMAND): the legend says how many wait.
  _legendLongNote(view) {
    const hidden = hiddenTargets(this.composer);
    if (!hidden.length || view.stage !== "kind") return;
    const note = h("p", { class: "legend-note", "data-field": "long-hidden" },
      t("Long pass: {n} squares, shown when you choose Long pass.", { n: hidden.length }));
    this.legend.append(note);
    this.legend.hidden = false;
  }

  _lastSquares() {
    const log = this.state.log;
    if (!log.length) return [];
    return squaresOf(log[log.length - 1].action);
  }

  _renderStatus(p) {
    const actor = this.state.actor || p.to_move;
    // a half over on the half timer is over, though its position is in a turn (D-20)
    const phase = this.state.over ? "over" : p.phase;
    const roleOf = (side) => (p.attack === side ? "ATK" : "DEF");
    const pb = p.pb || { S: { atk: 0, def: 0 }, N: { atk: 0, def: 0 } };
    const coach = (side) =>
      h(
        "div",
        { class: `coach side-${side}${actor === side ? " to-move" : ""}`, "data-side": side },
        h("div", { class: "coach-head" },
          h("span", { class: "side-dot" }), h("strong", {}, side === "S" ? t("South (S)") : t("North (N)")),
          h("span", { class: `role role-${roleOf(side)}`, "data-role": roleOf(side) }, roleOf(side)),
          actor === side && phase !== "over" ? h("span", { class: "moves" }, t("to move")) : null),
        h("dl", {},
          h("dt", {}, t("Score")), h("dd", { "data-field": `score-${side}` }, (p.score || {})[side] ?? 0),
          ...(this.state.uses_pe === false ? [] : [h("dt", {}, "PE"), h("dd", { "data-field": `pe-${side}` }, (p.pe || {})[side] ?? 0)]),
          h("dt", {}, "PBATK"), h("dd", { "data-field": `pbatk-${side}` }, pb[side].atk),
          h("dt", {}, "PBDEF"), h("dd", { "data-field": `pbdef-${side}` }, pb[side].def)),
      );
    const strip = this._matchStrip(p);
    this.status.replaceChildren(
      ...[strip].filter(Boolean),
      h("div", { class: "turn-line" },
        // the match strip already says "Half N": the turn line says it only without a strip
        strip ? null : [h("span", { "data-field": "half" }, t("Half {n}", { n: p.half })), " · "],
        h("span", { "data-field": "turn" }, t("Turn {n}", { n: p.turn })), " · ",
        h("span", { "data-field": "phase", "data-phase": phase }, t(PHASES[phase] || phase)),
        phase === "action" ? [" · ", h("span", { "data-field": "pa" }, t("PA left: {n}", { n: p.pa }))] : null),
      h("div", { class: "coaches" }, coach("S"), coach("N")),
    );
  }

  _renderCards(p) {
    const deck = this.state.deck;
    if (!deck) {
      this.cards.replaceChildren();
      return;
    }
    const piles = (p.cards || {});
    const chips = (names, pile) => names.length
      ? h("ul", { class: `card-list ${pile}` }, names.map((name) => {
        const card = deckCard(deck, name);
        return h("li", { class: "card-chip", "data-card": name, title: name },
          h("span", { class: "card-title" }, card.title), h("span", { class: "card-pe" }, `${card.pe} PE`));
      }))
      : h("p", { class: "card-none" }, t("none"));
    const coach = (side) => {
      const mine = piles[side] || { hand: [], discard: [] };
      return h("div", { class: `card-coach side-${side}`, "data-cards": side },
        h("h3", {}, h("span", { class: "side-dot" }), side === "S" ? t("South (S)") : t("North (N)"),
          h("span", { class: "card-pe-left" }, t("{n} PE", { n: (p.pe || {})[side] ?? 0 }))),
        h("div", { class: "pile", "data-pile": `hand-${side}` }, h("span", { class: "pile-name" }, t("Cards in hand")), chips(mine.hand, "hand")),
        h("div", { class: "pile", "data-pile": `discard-${side}` }, h("span", { class: "pile-name" }, t("Discard pile")), chips(mine.discard, "discard")));
    };
    const effects = p.effects || {};
    const inForce = [];
    if ((effects.short_range ?? 0) > deck.short_range) inForce.push(["short_range", t(EFFECT_LABELS.short_range, { n: effects.short_range })]);
    if (effects.screen) inForce.push(["screen", t(EFFECT_LABELS.screen)]);
    if (effects.audible) inForce.push(["audible", t(EFFECT_LABELS.audible)]);
    const parts = [
      h("h2", {}, t("Cards")),
      deck.provisional ? h("p", { class: "provisional", "data-field": "provisional" },
        t("Provisional deck: the rulebook does not list the cards yet (D-15).")) : null,
      h("div", { class: "card-coaches" }, coach("S"), coach("N")),
      h("div", { class: "effects", "data-field": "effects" },
        h("span", { class: "pile-name" }, t("Turn effects in force")),
        inForce.length
          ? h("ul", {}, inForce.map(([key, text]) => h("li", { "data-effect": key }, text)))
          : h("p", { class: "card-none" }, t("none"))),
      p.recovery_owed ? h("p", { class: "recovery-owed", "data-field": "recovery-owed" },
        t("{side} may take back a used card before their next turn.", { side: p.recovery_owed })) : null,
    ];
    this.cards.replaceChildren(...parts.filter(Boolean));
  }

  _cardPrompt(kind, step) {
    const effect = deckCard(this.state.deck, kind.slice(5)).effect;
    return (CARD_PROMPTS[effect] || [])[step] || N_("Choose the target square");
  }

  _kindLabel(kind) {
    return isCardKind(kind) ? cardLabel(this.state.deck, kind.slice(5)) : t(KIND_LABELS[kind]);
  }

  _renderCompose(view, p) {
    const parts = [];
    if (this.error) parts.push(h("p", { class: "error", role: "alert" }, this.error));
    const timer = this.state.half_timer;
    if (this.thinking) {
      // the player's prompt and its Cancel are gone: nothing of theirs is being composed
      parts.push(h("p", { class: "prompt thinking", "data-field": "thinking" }, t("The computer is thinking…")));
    } else if (this.state.over || p.phase === "over") {
      if (timer && timer.over) parts.push(h("p", { "data-field": "time-up" }, t("The half timer ran out.")));
      if (p.half === 2 && this._isMatch()) {
        parts.push(...this._matchOver());
      } else {
        parts.push(h("p", { class: "prompt" }, t("The half is over.")));
      }
      if (p.half === 1 && !this.options.compact) {
        parts.push(h("button", { type: "button", class: "primary", "data-control": "next-half",
          onclick: () => this.nextHalf() }, t("Play the second half")));
      }
    } else if (this._isComputerTurn()) {
      parts.push(h("p", { class: "prompt thinking", "data-field": "thinking" }, t("The computer is thinking…")));
    } else if (view.stage === "piece") {
      parts.push(...this._pieceStage(view, p));
    } else {
      const piece = (p.pieces || []).find((x) => x.at === view.origin && x.state !== "bottom");
      const who = piece ? `${piece.side} ${piece.id} (${view.origin})` : view.origin;
      if (view.stage === "kind") {
        parts.push(h("p", { class: "prompt" }, t("{piece}: choose an action", { piece: who })));
        parts.push(h("div", { class: "choices kinds" }, view.kinds.map((kind) =>
          h("button", { type: "button", "data-kind": kind, onclick: () => this._kind(kind) }, this._kindLabel(kind)))));
      } else {
        // a card's target step follows its piece step (CARD_PROMPTS counts both)
        const prompt = isCardKind(view.kind) ? this._cardPrompt(view.kind, view.step + 1) : view.prompt;
        parts.push(h("p", { class: "prompt" }, `${who} · ${this._kindLabel(view.kind)}: `,
          h("strong", {}, t(prompt)), view.picked.length ? ` (${view.picked.join(" → ")})` : ""));
        if (view.words.length) {
          parts.push(h("div", { class: "choices words" }, view.words.map((w) =>
            h("button", { type: "button", "data-word": w, onclick: () => this._word(w) }, this._wordLabel(w, view, p)))));
        }
      }
      parts.push(h("button", { type: "button", class: "cancel", onclick: () => this.cancel() }, t("Cancel (Esc)")));
    }
    // a notice the page pinned to the sheet (the steal, announce.js) stays above its choice
    this.compose.replaceChildren(...(this.sheetNotice ? [this.sheetNotice] : []), ...parts);
  }

  // A word choice's label; :top/:bottom name the piece that keeps the ball.
  _wordLabel(word, view, p) {
    const piece = (p.pieces || []).find((x) => x.at === view.origin && x.state === word);
    if (piece && NAMED_WORD_LABELS[word]) return t(NAMED_WORD_LABELS[word], { piece: `${piece.side} ${piece.id}` });
    return t(WORD_LABELS[word] || word);
  }

  _isMatch() {
    return !this.options.compact && MATCH_MODES.includes(this.state.mode);
  }

  // The end of a match: its result (when announce.js has fetched it) and a rematch.
  _matchOver() {
    const parts = [h("p", { class: "prompt" }, t("The match is over."))];
    const res = this.matchResult && this.matchResult.id === this.state.id ? this.matchResult.result : null;
    if (res) parts.push(h("p", { class: "match-result", "data-field": "match-result" }, h("strong", {}, res.title), " ", res.text));
    parts.push(h("button", { type: "button", class: "primary", "data-control": "match-rematch",
      onclick: () => this.rematch() }, t("Rematch")));
    return parts;
  }

  // Half 2 of a finished half 1; against the computer it may move first (North), meanwhile
  // the page says it is thinking
  nextHalf() {
    Simulator.lastUsed = this;
    const request = () => api.nextHalf(this.state.id);
    return this._run(this.state.mode === "computer" ? () => this._whileThinking(request) : request);
  }

  rematch() {
    Simulator.lastUsed = this;
    this.create(rematchBody(this.state));
  }

  // The first half of a second half: the state just left (next-half) or fetched once.
  _trackFirstHalf(before, state) {
    const id = state.first_half;
    if (!id) {
      this.firstHalf = null;
    } else if (before && before.id === id) {
      this.firstHalf = before;
    } else if (!this.firstHalf || this.firstHalf.id !== id) {
      this.firstHalf = null;
      api.game(id).then((first) => {
        if (this.state && this.state.first_half === first.id) {
          this.firstHalf = first;
          this.render();
        }
      }).catch(() => {}); // the strip then counts this half only
    }
  }

  // "Half 2 · You 0 – 1 Computer": the whole match's touchdowns, each coach's over both
  // halves (ends change at half-time, D-22), and the half timer.
  _matchStrip(p) {
    if (!this._isMatch()) return null;
    const s = this.state;
    const first = p.half === 2 ? this.firstHalf : null;
    const tds = (state, side) => ((state && state.position.score) || {})[side] ?? 0;
    const total = (side) => tds(s, side) + tds(first, otherSide(side));
    let text;
    if (s.mode === "computer") {
      const computer = s.computer_side;
      text = t("Half {n} · You {you} – {computer} Computer",
        { n: p.half, you: total(otherSide(computer)), computer: total(computer) });
    } else { // coach A plays South in half 1, North in half 2
      const a = p.half === 2 ? "N" : "S";
      text = t("Half {n} · Coach A {a} – {b} Coach B", { n: p.half, a: total(a), b: total(otherSide(a)) });
    }
    return h("p", { class: "match-strip", "data-field": "match" },
      h("strong", {}, text), this._timerText());
  }

  _timerText() {
    const timer = this.state.half_timer;
    if (!timer) return null;
    let text;
    if (timer.over) text = t("Time is up");
    else if (timer.final_drive) text = t("Final Drive: last turn");
    else text = t("Half timer: {n} turns left", { n: timer.turns_left });
    return h("span", { class: "half-timer", "data-field": "half-timer" }, " · ", text);
  }

  // The line beside the board against the computer: thinking, its followed actions
  // (follow.js), then whose turn it is; always in its place, so nothing moves when it changes.
  _renderBanner(p) {
    const s = this.state;
    const shown = !this.options.compact && s.mode === "computer";
    this.followLine.hidden = !shown;
    if (!shown) return;
    let text;
    if (this.thinking || (this._isComputerTurn() && !s.over)) text = t("The computer is thinking…");
    else if (s.over || p.phase === "over") text = p.half === 2 ? t("The match is over.") : t("The half is over.");
    else text = t("Your turn: you play {side}.", { side: otherSide(s.computer_side) === "S" ? t("South (S)") : t("North (N)") });
    // what the computer last did, until the player acts (this game's log: never an old one)
    const last = s.log[s.log.length - 1];
    const theirs = last && last.side === s.computer_side && !this.thinking ? `${last.text || last.action} (${last.action}) · ` : "";
    this.followLine.textContent = theirs + text;
    this.followLine.classList.toggle("thinking", this.thinking || this._isComputerTurn());
  }

  _pieceStage(view, p) {
    const parts = [];
    const pieceAt = (sq) => (p.pieces || []).find((x) => x.at === sq && x.state !== "bottom");
    const deck = this.state.deck;
    if (view.card) {
      // a card button was pressed: its pieces are lit; the board click finishes the choice
      parts.push(h("p", { class: "prompt" }, `${this._kindLabel(view.card)}: `,
        h("strong", {}, t(this._cardPrompt(view.card, 0)))));
      parts.push(h("button", { type: "button", class: "cancel", onclick: () => this.cancel() }, t("Cancel (Esc)")));
      return parts;
    }
    if (p.phase === "recover") {
      parts.push(h("p", { class: "prompt recover" },
        t("Card recovery: {side} may take back one used card, or none.", { side: this.state.actor })));
    } else if (p.phase === "steal") {
      parts.push(h("p", { class: "prompt steal" }, t("Steal! {side} decides, once and for all:", { side: this.state.actor })));
    } else if (p.phase === "release") {
      parts.push(h("p", { class: "prompt" }, t("Release phase: do each task that has a legal solution.")));
      parts.push(h("div", { class: "choices tasks" }, view.origins.map((sq) => {
        const stack = (p.pieces || []).some((x) => x.at === sq && x.state === "top");
        const piece = pieceAt(sq);
        const name = piece ? piece.side + " " + piece.id : "";
        const label = stack
          ? t("Split the stack on {square}", { square: sq })
          : t("Stand up {piece} on {square}", { piece: name, square: sq });
        return h("button", { type: "button", "data-task": sq, onclick: () => this.clickSquare(sq) }, label);
      })));
    } else if (view.origins.length) {
      parts.push(h("p", { class: "prompt" }, t("Select a piece that can act (lit), then an action.")));
    }
    const plain = view.choices.filter((c) => !c.card);
    if (plain.length) {
      // a taken-back card looks like the card buttons; steal choices stay the loud ones
      const look = (text) => text === "end" || text === "pe" || text === "recover -" ? ""
        : text.startsWith("recover ") ? "card-button" : "primary";
      parts.push(h("div", { class: `choices plain${p.phase === "recover" ? " recover" : ""}` }, plain.map((c) =>
        h("button", { type: "button", "data-action": c.text, class: look(c.text), onclick: () => this.apply(c.text) }, choiceLabel(c.text, deck)))));
    }
    // one button per legal card: played at once, or (with a square argument) lighting its pieces
    const cards = [
      ...view.choices.filter((c) => c.card).map((c) => h("button", { type: "button", class: "card-button", "data-card": c.card,
        "data-action": c.text, onclick: () => this.apply(c.text) }, choiceLabel(c.text, deck))),
      ...this.composer.cardKinds().map((kind) => h("button", { type: "button", class: "card-button", "data-card": kind.slice(5),
        onclick: () => this._startCard(kind) }, t("Play card {name}", { name: cardLabel(deck, kind.slice(5)) }) + " …")),
    ];
    if (cards.length) {
      parts.push(h("div", { class: "choices card-choices", "data-field": "card-choices" },
        h("span", { class: "pile-name" }, t("Play a card:")), cards));
    }
    return parts;
  }

  _startCard(kind) {
    Simulator.lastUsed = this;
    this.composer.startCard(kind);
    this.error = "";
    this.render();
  }

  _kind(kind) {
    Simulator.lastUsed = this;
    const done = this.composer.selectKind(kind);
    if (done) this.apply(done);
    else this.render();
  }

  _word(word) {
    Simulator.lastUsed = this;
    const done = this.composer.pick(word);
    if (done) this.apply(done);
    else this.render();
  }

  cancel() {
    this.composer.cancel();
    this.error = "";
    this.render();
  }

  _renderControls() {
    const s = this.state;
    const buttons = [];
    const extra = this.options.controls ? this.options.controls(this) : [];
    if (s.mode === "free") {
      buttons.push(h("button", { type: "button", "data-control": "undo", disabled: !s.can_undo,
        onclick: () => this._run(() => api.undo(s.id)) }, t("Undo")));
      buttons.push(h("button", { type: "button", "data-control": "redo", disabled: !s.can_redo,
        onclick: () => this._run(() => api.redo(s.id)) }, t("Redo")));
    }
    if (this._isMatch() && s.id) { // a match can always be started again, not only at its end
      buttons.push(h("button", { type: "button", "data-control": "restart-match",
        onclick: () => this.rematch() }, t("Rematch")));
    }
    this.controls.replaceChildren(...buttons, ...extra);
  }

  _renderLog() {
    if (this.options.compact && !this.state.log.length) {
      this.logBox.replaceChildren();
      return;
    }
    const table = (log, half) => h("table", { class: "log-table", "data-half": half },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Turn")), h("th", {}, t("Coach")),
        h("th", {}, t("What happened")), h("th", {}, t("Action")), h("th", {}, "PB"))),
      h("tbody", {}, log.map((e) =>
        h("tr", { class: `side-${e.side}`, "data-ply": e.ply },
          h("td", {}, e.ply), h("td", {}, `${e.turn}`), h("td", {}, h("span", { class: "side-dot" }), e.side),
          h("td", { class: "told" }, e.text || ""),
          h("td", { class: "notation" }, e.action), h("td", { class: "pb" }, e.pb ? `+${e.pb}` : "")))));
    const half = this.state.position.half;
    // the whole match: half 1's lines stay, under their heading, above half 2's
    const first = half === 2 && this.firstHalf ? this.firstHalf : null;
    const tables = first
      ? [h("h3", { class: "log-half" }, t("Half {n}", { n: 1 })), table(first.log, 1),
        h("h3", { class: "log-half" }, t("Half {n}", { n: 2 })), table(this.state.log, 2)]
      : [table(this.state.log, half)];
    // a scrolled region a keyboard can reach (axe: scrollable-region-focusable)
    this.logBox.replaceChildren(h("h2", {}, t("Action log")),
      h("div", { class: "log-scroll", tabindex: "0", role: "region", "aria-label": t("Action log") }, tables));
    const scroller = this.logBox.querySelector(".log-scroll");
    scroller.scrollTop = scroller.scrollHeight;
  }
}
Simulator.lastUsed = null;
