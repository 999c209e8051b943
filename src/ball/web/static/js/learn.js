// Learn mode: one lesson at a time on the simulator's own board (a free-play game made
// from the lesson's position). After every action the server's engine says whether the
// lesson's goal is met (POST /api/learn/{id}/check); progress is kept in localStorage.
import { t } from "./api.js";
import { Simulator } from "./simulator.js";

const STORE = "ball.learn.done";
const lessons = JSON.parse(document.getElementById("lessons").textContent);
const $ = (id) => document.getElementById(id);

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

async function check(id, actions) {
  const response = await fetch(`/api/learn/${encodeURIComponent(id)}/check`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ actions }),
  });
  if (!response.ok) throw new Error((await response.json()).detail || response.statusText);
  return response.json();
}

class Learn {
  constructor() {
    this.current = null;
    this.sim = null;
    this.checked = -1;
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
    this.markList();
    const mount = $("lesson-board");
    mount.replaceChildren();
    // the full simulator component (not the rulebook's compact one): on a phone it gives the
    // diamond tap targets and the choice sheet over the board (docs/web.md)
    this.sim = new Simulator(mount, { onChange: (state) => this.changed(lesson, state) });
    // the lesson's text heads the simulator's side panel (beside the board on a laptop;
    // above it on a phone, learn.css), so the board starts high on the page
    this.sim.panel.prepend(this.section);
    await this.sim.create({ mode: "free", position: lesson.position, title: `lesson ${lesson.id}` });
  }

  async changed(lesson, state) {
    const actions = state.log.map((entry) => entry.action);
    if (lesson !== this.current || actions.length === this.checked) return;
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
        this.verdict(t("Not yet: the goal was not reached. Start again or undo."), "failed");
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
