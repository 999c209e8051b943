// The computer's turn, followed (issue 13): its actions shown one after the other, each
// position with an arrow and the action's plain-language line (from the server), at the
// speed the player picks (kept in localStorage). The positions come from the game's replay
// (/api/games/ID/replay), so the page computes no rule.
import { api, t } from "./api.js";
import { drawArrows } from "./arrows.js";

const KEY = "ball-sim-speed";
export const SPEEDS = { slow: 1800, normal: 900, fast: 350, instant: 0 };
const SPEED_LABELS = { slow: t("Slow"), normal: t("Normal"), fast: t("Fast"), instant: t("Instant") };

export function speed() {
  const stored = localStorage.getItem(KEY);
  return stored in SPEEDS ? stored : "normal";
}

// The select the page puts among its controls.
export function speedSelect() {
  const label = document.createElement("label");
  label.className = "follow-speed";
  label.append(t("Computer's moves:"), " ");
  const select = document.createElement("select");
  select.name = "follow-speed";
  for (const name of Object.keys(SPEEDS)) {
    const option = new Option(SPEED_LABELS[name], name, false, name === speed());
    select.append(option);
  }
  select.addEventListener("change", () => localStorage.setItem(KEY, select.value));
  label.append(select);
  return label;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Show the computer's plies of `state` after ply `from` (1-based), then return.
export async function follow(sim, state, from) {
  const delay = SPEEDS[speed()];
  const theirs = state.log.slice(from).filter((e) => e.side === state.computer_side);
  if (!delay || !theirs.length) return;
  let positions;
  try {
    positions = (await api.replay(state.id)).halves[0].positions;
  } catch {
    return; // the final state is shown anyway
  }
  const line = sim.followLine;
  for (const entry of theirs) {
    const position = positions[entry.ply];
    if (!position) break;
    sim.board.render(position, { last: [] });
    drawArrows(sim.board, { [entry.side]: [entry.action] }, { live: true });
    line.textContent = `${entry.text || entry.action} (${entry.action})`;
    line.hidden = false;
    await sleep(delay);
  }
}
