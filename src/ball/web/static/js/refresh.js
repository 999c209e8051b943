// The public pages' refresh on a timer that the reader can pause and resume (WCAG 2.2.1);
// a browser without scripts uses the <noscript> meta. A page that refreshes itself keeps
// the reader's place (issue 36 item 13: a phone jumped to the top while being read): the
// scroll position and each sideways-scrolled table come back after the reload. Only the
// projector view names another page to go to (`data-next`), and has nothing to scroll.
const PLACE = "ball-refresh-place";
const here = location.pathname + location.search;
const scrollers = () => [...document.querySelectorAll(".scroll, .bracket")];

function savePlace() {
  const place = { url: here, y: window.scrollY, left: scrollers().map((e) => e.scrollLeft) };
  sessionStorage.setItem(PLACE, JSON.stringify(place));
}

function restorePlace() {
  let place = null;
  try {
    place = JSON.parse(sessionStorage.getItem(PLACE) || "null");
  } catch {
    place = null;
  }
  sessionStorage.removeItem(PLACE);
  if (!place || place.url !== here) return;
  const apply = () => {
    scrollers().forEach((e, i) => {
      e.scrollLeft = place.left[i] || 0;
    });
    window.scrollTo(0, place.y);
  };
  apply();
  window.addEventListener("load", apply, { once: true }); // after late layout, if any
}

restorePlace();
const note = document.querySelector(".refresh-note[data-refresh]");
if (note) {
  const seconds = Number(note.dataset.refresh);
  const next = note.dataset.next || "";
  const pause = note.querySelector(".refresh-pause");
  const label = pause.textContent;
  let timer = null;
  const go = () => {
    if (next) {
      location.assign(next);
    } else {
      savePlace();
      location.reload();
    }
  };
  const start = () => {
    timer = setTimeout(go, seconds * 1000);
  };
  pause.hidden = false;
  pause.addEventListener("click", () => {
    if (timer === null) {
      start();
      pause.textContent = label;
    } else {
      clearTimeout(timer);
      timer = null;
      pause.textContent = pause.dataset.resume;
    }
    pause.setAttribute("aria-pressed", String(timer === null));
  });
  pause.setAttribute("aria-pressed", "false");
  if (seconds > 0) start();
}
