// Round control: count down to the earliest allowed signal 2 and keep the table states fresh.
// The server decides (it refuses an early signal 2); this only displays its figures, counting
// with the browser's monotonic clock between polls.
const panel = document.getElementById("control");
const line = document.getElementById("countdown");
const button = document.getElementById("signal-2");
let state = JSON.parse(panel.dataset.control);
let fetchedAt = performance.now();

const pad = (n) => String(n).padStart(2, "0");
const mmss = (s) => `${Math.floor(s / 60)}:${pad(Math.floor(s % 60))}`;
const hms = (t) => {
  const d = new Date(t * 1000);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

function render() {
  if (!line || state.signal2) return;
  let text;
  let ready = false;
  if (state.signal1 === null) text = line.dataset.nosignal;
  else if (state.still_playing.length) text = line.dataset.playing.replace("%(tables)s", state.still_playing.join(", "));
  else {
    const left = Math.max(0, state.seconds_to_signal2 - (performance.now() - fetchedAt) / 1000);
    ready = left <= 0;
    text = ready ? line.dataset.ready : line.dataset.wait.replace("%(time)s", mmss(Math.ceil(left))).replace("%(at)s", hms(state.earliest_signal2));
  }
  line.textContent = text;
  line.classList.toggle("ready", ready);
  if (button) button.disabled = !ready;
}

// The page's state comes through Jinja's tojson, which sorts keys; control.json keeps the
// server's order. Compared as text in one key order, or every poll would see a change and
// reload the page every 5 s.
function sameTables(x, y) {
  const keys = [...new Set([...x, ...y].flatMap((t) => Object.keys(t)))].sort();
  return JSON.stringify(x, keys) === JSON.stringify(y, keys);
}

async function poll() {
  try {
    const response = await fetch(panel.dataset.url, { credentials: "same-origin" });
    if (response.ok) {
      const next = await response.json();
      const changed = !sameTables(next.tables, state.tables) || next.signal1 !== state.signal1;
      state = next;
      fetchedAt = performance.now();
      if (changed) location.reload(); // a table reported its half end elsewhere
    }
  } catch {
    /* offline for a moment: keep counting */
  }
}

render();
setInterval(render, 250);
setInterval(poll, 5000);
