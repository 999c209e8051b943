// Learn mode: one lesson at a time on the simulator's own board (a learn game the server
// makes from the lesson's position: POST /api/learn/{id}/game, kept apart from free play).
// After every action the server's engine says whether the lesson's goal is met (POST
// /api/learn/{id}/check) and, in a multi-turn lesson, gives the opponent's reply, which is
// played here one action at a time and told in the lesson panel; progress is kept in
// localStorage. A failed attempt (a wrong move in a one-move lesson, or the turns used up)
// says "Not quite" with the lesson's one-line reason and restores the lesson's position.
import { t } from "./api.js";
import { attachKeyboard } from "./keyboard.js";
import { Simulator } from "./simulator.js";

const STORE = "ball.learn.done";
const lessons = JSON.parse(document.getElementById("lessons").textContent);
const $ = (id) => document.getElementById(id);
const REPLY_PAUSE_MS = 500; // between the opponent's actions, so each can be followed
const RETRY_PAUSE_MS = 900; // the wrong move stays on the board this long before it is undone
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const PHONE = window.matchMedia("(max-width: 820px)"); // as learn.css: the list folds there

function done() {
  try {
    return new Set(JSON.parse(localStorage.getItem(STORE) || "[]"));
  } catch {
    return new Set();
  }
}

function markDone(id) {
  const set = done();
  set.add(id);
  localStorage.setItem(STORE, JSON.stringify([...set]));
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error((await response.json()).detail || response.statusText);
  return response.json();
}

function check(id, actions) {
  return post(`/api/learn/${encodeURIComponent(id)}/check`, { actions });
}

class Learn {
  constructor() {
    this.current = null;
    this.sim = null;
    this.checked = -1;
    this.replying = false;
    this.retries = 0; // failed attempts restored so far (the tests wait on it)
    this.section = document.querySelector(".lesson");
    $("lesson-reset").addEventListener("click", () => this.open(this.current.id));
    $("lesson-next").addEventListener("click", () => {
      const next = lessons[lessons.indexOf(this.current) + 1];
      if (next) location.hash = next.id;
    });
    window.addEventListener("hashchange", () => this.open(location.hash.slice(1)));
  }

  start() {
    const finished = done();
    const wanted = location.hash.slice(1);
    const first = lessons.find((l) => l.id === wanted) || lessons.find((l) => !finished.has(l.id)) || lessons[0];
    this.open(first.id);
  }

  markList() {
    const finished = done();
    const index = lessons.indexOf(this.current);
    $("lesson-list-now").textContent = `· ${index + 1}/${lessons.length}: ${this.current.title}`;
    if (PHONE.matches) $("lesson-list").open = false; // the board near the top, the list a tap away
    for (const a of document.querySelectorAll("[data-lesson]")) {
      a.classList.toggle("done", finished.has(a.dataset.lesson));
      if (a.dataset.lesson === this.current.id) a.setAttribute("aria-current", "step");
      else a.removeAttribute("aria-current");
    }
  }

  verdict(text, kind) {
    const node = $("lesson-verdict");
    node.textContent = text;
    node.className = `verdict ${kind}`;
  }

  async open(id) {
    const lesson = lessons.find((l) => l.id === id);
    if (!lesson) return;
    this.current = lesson;
    this.checked = -1;
    $("lesson-title").textContent = lesson.title;
    $("lesson-task").textContent = lesson.task;
    $("lesson-hint").open = false;
    $("lesson-hint").querySelector("p").textContent = lesson.hint;
    const link = $("lesson-rulebook");
    link.href = lesson.rulebook;
    link.textContent = `${t("Read the rule")}: ${lesson.rulebook_title}`;
    $("lesson-next").hidden = true;
    this.verdict("", "");
    this.told([]);
    this.markList();
    await this.setUp(lesson);
  }

  // A fresh simulator on a new learn game at the lesson's start position.
  async setUp(lesson) {
    this.checked = -1;
    const mount = $("lesson-board");
    mount.replaceChildren();
    if (this.sim) this.sim.destroy(); // the last lesson's board
    // the full simulator component (not the rulebook's compact one): on a phone it gives the
    // diamond tap targets and the choice sheet over the board (docs/web.md)
    this.sim = new Simulator(mount, { onChange: (state) => this.changed(lesson, state) });
    attachKeyboard(this.sim); // as in the simulator: arrows, Enter, Esc, E, the skip link
    // the lesson's text heads the simulator's side panel (beside the board on a laptop;
    // above it on a phone, learn.css), so the board starts high on the page
    this.sim.panel.prepend(this.section);
    try {
      const made = await post(`/api/learn/${encodeURIComponent(lesson.id)}/game`);
      if (lesson === this.current) await this.sim.load(made.id);
    } catch (err) {
      this.verdict(err.message, "failed");
    }
  }

  // The opponent's replies so far, one line each (plain language and notation).
  told(lines) {
    const node = $("lesson-opponent");
    node.replaceChildren(...lines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    node.hidden = !lines.length;
    $("lesson-opponent-title").hidden = !lines.length;
  }

  async reply(lesson, actions) {
    this.replying = true;
    try {
      for (const action of actions) {
        await pause(REPLY_PAUSE_MS);
        if (lesson !== this.current) return;
        await this.sim.apply(action);
        const entry = this.sim.state.log[this.sim.state.log.length - 1];
        const lines = [...$("lesson-opponent").children].map((li) => li.textContent);
        this.told([...lines, entry && entry.text ? `${entry.text} (${action})` : action]);
      }
    } finally {
      this.replying = false;
    }
    if (lesson === this.current && this.sim.state) await this.changed(lesson, this.sim.state);
  }

  // "Not quite" with why, then the lesson's position again: the attempt never becomes free
  // play. The verdict stays up while the learner tries again.
  async retry(lesson) {
    this.verdict([t("Not quite."), lesson.miss, t("Try again.")].join(" "), "failed");
    this.replying = true; // no tap on the board counts until the position is back
    this.sim.boardWrap.inert = true; // (the verdict beside it stays readable and announced)
    await pause(RETRY_PAUSE_MS);
    this.replying = false;
    if (lesson !== this.current) return;
    this.told([]);
    await this.setUp(lesson);
    this.retries += 1;
    document.body.dataset.lessonRetries = String(this.retries);
  }

  async changed(lesson, state) {
    const actions = state.log.map((entry) => entry.action);
    if (this.replying || lesson !== this.current || actions.length === this.checked) return;
    this.checked = actions.length;
    if (!actions.length) return;
    try {
      const result = await check(lesson.id, actions);
      if (lesson !== this.current) return;
      if (result.met) {
        markDone(lesson.id);
        this.markList();
        this.verdict(t("Well done: lesson complete."), "met");
        $("lesson-next").hidden = lessons.indexOf(lesson) === lessons.length - 1;
        document.body.dataset.lessonMet = lesson.id;
        $("lesson-verdict").scrollIntoView({ block: "nearest" });
      } else if (result.failed) {
        await this.retry(lesson);
      } else if (result.reply && result.reply.length) {
        this.verdict(t("The opponent replies."), "");
        await this.reply(lesson, result.reply);
      } else {
        this.verdict("", "");
      }
    } catch (err) {
      this.verdict(err.message, "failed");
    }
  }
}

const learn = new Learn();
window.ballLearn = learn;
learn.start();
