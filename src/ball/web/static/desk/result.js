// "As you type": send the result form to the desk's check endpoint, which builds the sheet
// and runs ball.games.ball.match.result.decide on the server; show its decision or its fault here.
// No result rule lives in this file.
const form = document.getElementById("result-form");
const out = document.getElementById("decision");
const err = document.getElementById("sheet-error");
let timer = null;
let sequence = 0;
let typed = false;

function showKind() {
  const kind = form.querySelector("input[name=kind]:checked")?.value || "sheet";
  form.querySelector("#sheet").classList.toggle("off", kind !== "sheet");
}

// The field a fault is about (the server names it: `field`) is marked invalid and described
// by the fault's line; the marks of the last save (beside their fields) give way to it.
function mark(field) {
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  }
  for (const line of form.querySelectorAll(".field-error")) line.remove();
  if (!field) return;
  for (const input of form.querySelectorAll(`[name="${CSS.escape(field)}"]`)) {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", err.id);
  }
}

async function check() {
  const mine = ++sequence;
  const body = new FormData(form);
  body.delete("action");
  try {
    const response = await fetch(form.dataset.check, { method: "POST", body, credentials: "same-origin" });
    const data = await response.json();
    if (mine !== sequence) return; // a newer check is on its way
    if (!response.ok) {
      err.textContent = data.detail || String(response.status);
      return;
    }
    out.textContent = data.ok ? [data.text, data.late_text].filter((t, i, all) => t && all.indexOf(t) === i).join(" ") : "";
    out.classList.toggle("ok", Boolean(data.ok));
    // Until the arbiter changes something, a refused save's fault stays beside its field alone.
    const shown = !typed && form.querySelector(".field-error");
    err.textContent = data.ok || shown ? "" : data.message || data.error;
    if (typed) mark(data.ok ? null : data.field); // the save's marks stay until a change
  } catch (e) {
    if (mine === sequence) err.textContent = String(e);
  }
}

// A chosen coach pre-selects the ladder's next step for them.
for (const side of form.querySelectorAll("select[name$=_side]")) {
  side.addEventListener("change", () => {
    const option = side.selectedOptions[0];
    const step = form.querySelector(`select[name="${side.name.replace("_side", "_step")}"]`);
    if (option?.dataset.suggest && step) step.value = option.dataset.suggest;
  });
}

form.addEventListener("input", () => {
  typed = true;
  showKind();
  clearTimeout(timer);
  timer = setTimeout(check, 150);
});
form.addEventListener("change", () => {
  typed = true;
  showKind();
  clearTimeout(timer);
  timer = setTimeout(check, 50);
});
showKind();
if (form.querySelector("input[name=h1_A_atk]").value !== "" || form.querySelector("input[name=kind]:checked")?.value !== "sheet") check();
