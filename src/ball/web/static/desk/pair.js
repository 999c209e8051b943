// "Pair round N": the pairing engine reports no progress of its own, and a large Swiss round
// takes seconds, so the form is sent from here and the page stays live meanwhile: the arbiter
// sees that the desk is working and for how long. When the server has stored the pairing it
// answers with the round page (a redirect), which the page then opens; an error page is shown
// as it came. Without JavaScript the form posts as any other.
const form = document.getElementById("pair-form");
const line = document.getElementById("pair-progress");
const button = document.getElementById("pair-next");

function show(started) {
  const seconds = Math.floor((performance.now() - started) / 1000);
  line.textContent = line.dataset.busy.replace("%(seconds)s", String(seconds));
}

async function pair(event) {
  event.preventDefault();
  if (button.disabled) return;
  button.disabled = true;
  const started = performance.now();
  show(started);
  const timer = setInterval(() => show(started), 1000);
  try {
    const response = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      credentials: "same-origin",
    });
    if (response.redirected && response.ok) {
      location.assign(response.url);
      return;
    }
    const page = await response.text();
    document.open();
    document.write(page);
    document.close();
  } catch {
    // The connection failed: the plain form post shows the browser's own message.
    clearInterval(timer);
    form.submit();
  }
}

if (form && line && button) form.addEventListener("submit", pair);
