// The simulator page: one game (?game=ID) or a new free-play game.
import { Announcer } from "./announce.js";
import { api, t, takeTableKey } from "./api.js";
import { PositionEditor } from "./editor.js";
import { attachKeyboard } from "./keyboard.js";
import { follow, speedSelect } from "./follow.js";
import { Simulator, rematchBody } from "./simulator.js";

function button(label, attrs, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.addEventListener("click", onclick);
  return b;
}

function link(label, href, attrs = {}) {
  const a = document.createElement("a");
  a.className = "button";
  a.href = href;
  a.textContent = label;
  for (const [k, v] of Object.entries(attrs)) a.setAttribute(k, v);
  return a;
}

takeTableKey(); // a desk table's link (#key=...): the key for its writes, out of the address bar
const root = document.getElementById("sim");
// On a phone the New game bar heads the page (simulator.css): a game started or opened by
// its link brings the board up under the header; the bar is one swipe up.
const PHONE = window.matchMedia("(max-width: 820px)");
const showBoard = () => PHONE.matches && sim.board.svg.scrollIntoView({ block: "start", behavior: "instant" });
const newGame = document.getElementById("new-game");
// The bar follows the shown game (its mode, rules, computer side and level) until the reader
// changes one of its selects; Start makes it follow again.
let barTouched = false;
newGame.addEventListener("change", () => (barTouched = true));

// "Computer plays" and "Level" only mean something against the computer.
function showModeFields() {
  const mode = newGame.elements.mode.value;
  for (const label of newGame.querySelectorAll("[data-for-mode]")) label.hidden = label.dataset.forMode !== mode;
}
newGame.elements.mode.addEventListener("change", showModeFields);
showModeFields();

// Set a select to `value` when it offers it (an unknown ruleset or level leaves it alone).
function choose(select, value) {
  if (value && select.querySelector(`option[value="${value}"]`)) select.value = value;
}

// The New game bar as the shown game would be started again (the computer on its half-1 side).
function followGame(state) {
  if (barTouched) return;
  const body = rematchBody(state);
  const f = newGame.elements;
  choose(f.mode, body.mode);
  choose(f.ruleset, body.ruleset);
  choose(f.computer_side, body.computer_side);
  choose(f.computer_level, body.computer_level);
  showModeFields();
}
const editorBox = document.getElementById("editor");
let flip = false;

const sim = new Simulator(root, {
  follow,
  controls: (s) => {
    const id = s.state.id;
    const out = [];
    if (s.state.mode === "free") {
      out.push(button(t("Edit position"), { "data-control": "edit" }, () => editor.open(s.state.position)));
    }
    out.push(button(t("Flip board"), { "data-control": "flip" }, () => {
      flip = !flip;
      s.board.flip = flip;
      s.render();
    }));
    if (id) { // a new game is stored at its first action: until then there is nothing to export
      out.push(link(t("Export position"), `/api/games/${id}/position?download=1`, { download: `ball-${id}.json` }));
      out.push(link(t("Export record (.bgn)"), `/api/games/${id}/record`, { download: `ball-${id}.bgn` }));
      out.push(link(t("Replay"), `/replay?game=${id}`));
    }
    if (s.state.mode === "computer") out.push(speedSelect());
    return out;
  },
  onChange: (state) => {
    announcer.update(state);
    followGame(state);
    const shown = new URLSearchParams(location.search).get("game");
    if (state.id && shown !== state.id) history.replaceState(null, "", `?game=${state.id}`);
    else if (!state.id && shown) history.replaceState(null, "", location.pathname); // not stored yet
  },
});
const announcer = new Announcer(sim, newGame);
// the editor takes the place of the game panel while it is open
sim.panel.prepend(editorBox);
const editor = new PositionEditor(sim, editorBox);
attachKeyboard(sim); // arrow keys, Enter, Esc, live announcements, the board in words

newGame.addEventListener("submit", (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const mode = form.get("mode");
  const body = { mode, ruleset: form.get("ruleset") || "standard" };
  if (mode === "computer") {
    body.computer_side = form.get("computer_side");
    body.computer_level = form.get("computer_level") || "greedy";
  }
  if (editor.active) editor.close();
  barTouched = false;
  sim.create(body).then(showBoard);
});

// Stored games (newest first), so a game is easy to find again after a restart.
const stored = document.querySelector("#stored-games");
stored.addEventListener("toggle", async () => {
  if (!stored.open) return;
  const games = await api.games();
  stored.querySelector("ul").replaceChildren(...games.map((g) => {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/?game=${g.id}`;
    const plies = t("{n} actions", { n: g.plies });
    a.textContent = [g.title || g.id, g.mode, plies].join(" · ");
    li.append(a);
    return li;
  }));
});

// A visit without ?game= shows a new free game, stored only at its first action.
async function openBlank() {
  await sim.create({ mode: "free" });
}

const gameId = root.dataset.game;
if (gameId) sim.load(gameId).then(showBoard);
else openBlank();
window.ballSimulator = sim; // for the browser tests and curious readers
