import { api } from "./clock-core.js";

const form = document.getElementById("clock-create");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const players = String(data.get("players") || "").split(",").map((s) => s.trim()).filter(Boolean);
  const body = {
    table: data.get("table"),
    round: data.get("round") || "",
    control: data.get("control"),
    pin: data.get("pin") || null,
  };
  if (players.length) body.players = players;
  // Opened from a desk round by its arbiter: the clock is bound to the event, so the desk
  // may take its first-half end (the desk session's CSRF token proves who made it).
  const headers = {};
  if (form.dataset.event) {
    body.event_id = Number(form.dataset.event);
    headers["X-CSRF-Token"] = form.dataset.csrf;
  }
  const out = form.querySelector(".form-message");
  try {
    const clock = await api("/clock/api/clocks", body, headers);
    // A clock of an event opens with its table device key (the desk hands this link on).
    location.assign(`/clock/${clock.id}` + (clock.device_key ? `#key=${clock.device_key}` : ""));
  } catch (error) {
    out.textContent = error.message;
  }
});
