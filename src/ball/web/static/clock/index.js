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
    pin: data.get("pin"),
  };
  if (players.length) body.players = players;
  const out = form.querySelector(".form-message");
  try {
    const clock = await api("/clock/api/clocks", body);
    location.assign(`/clock/${clock.id}`);
  } catch (error) {
    out.textContent = error.message;
  }
});
