// The public pages' refresh (and paging through a large event) on a timer that the reader
// can pause and resume (WCAG 2.2.1); a browser without scripts uses the <noscript> meta.
const note = document.querySelector(".refresh-note[data-refresh]");
if (note) {
  const seconds = Number(note.dataset.refresh);
  const next = note.dataset.next || location.href;
  const pause = note.querySelector(".refresh-pause");
  const label = pause.textContent;
  let timer = null;
  const start = () => {
    timer = setTimeout(() => location.assign(next), seconds * 1000);
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
