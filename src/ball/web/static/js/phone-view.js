// Phone play (issue 36 item 6): on a narrow screen the choices' sheet is held at the bottom
// edge over the board (simulator.css), so a selection in the lower rows would sit under it.
// After each render that selects a piece, the page scrolls just enough that the selected
// square and its lit targets lie between the sticky header and the sheet. A Zoom toggle under
// the board widens it beyond the screen (panned sideways by a swipe) for precise taps on long
// passes; zoomed, the selection is brought to the middle of the panned strip.
import { t } from "./api.js";

const PHONE = window.matchMedia("(max-width: 820px)"); // as simulator.css's phone layout
const GAP = 8; // px kept clear between the squares and the header or the sheet

// The squares to keep in view, as drawn: the selected square and the marked targets.
function squareBoxes(svg, origin) {
  const nodes = [...svg.querySelectorAll(".targets .target[data-square]")];
  const selected = svg.querySelector(`.sq[data-square="${origin}"]`);
  return {
    selected: selected ? selected.getBoundingClientRect() : null,
    all: [selected, ...nodes].filter(Boolean).map((n) => n.getBoundingClientRect()),
  };
}

// The band of the window not under the sticky header nor under the sheet held at the bottom.
function visibleBand(sheet) {
  const header = document.querySelector(".site-header");
  const top = header ? Math.max(0, header.getBoundingClientRect().bottom) : 0;
  const sheetHeight = sheet && sheet.offsetHeight && getComputedStyle(sheet).position === "sticky"
    ? sheet.offsetHeight : 0;
  return { top: top + GAP, bottom: window.innerHeight - sheetHeight - GAP };
}

// How far to scroll (px, down positive) so `span` fits `band`; centres `focus` when it cannot.
function shift(span, band, focus) {
  if (span.bottom - span.top > band.bottom - band.top) {
    return (focus.top + focus.bottom) / 2 - (band.top + band.bottom) / 2;
  }
  if (span.top < band.top) return span.top - band.top;
  if (span.bottom > band.bottom) return span.bottom - band.bottom;
  return 0;
}

export class PhoneView {
  constructor(sim) {
    this.sim = sim;
    this.shown = ""; // the selection last brought into view (a user's scroll is not fought)
    const svg = sim.board.svg;
    // the board in a strip that pans sideways when zoomed
    this.scroller = document.createElement("div");
    this.scroller.className = "board-scroll";
    svg.before(this.scroller);
    this.scroller.append(svg);
    this.zoom = document.createElement("button");
    this.zoom.type = "button";
    this.zoom.className = "board-zoom";
    this.zoom.dataset.control = "zoom";
    this.zoom.setAttribute("aria-pressed", "false");
    this.zoom.textContent = t("Zoom the board");
    this.zoom.addEventListener("click", () => this.toggleZoom());
    const tools = document.createElement("div");
    tools.className = "board-tools";
    tools.append(this.zoom);
    this.scroller.after(tools);
  }

  get zoomed() {
    return this.zoom.getAttribute("aria-pressed") === "true";
  }

  toggleZoom() {
    const on = !this.zoomed;
    this.zoom.setAttribute("aria-pressed", String(on));
    this.sim.boardWrap.classList.toggle("zoomed", on);
    this.shown = "";
    const origin = this.sim.composer.view().origin;
    if (origin) this.keepInView(origin);
    else this.scroller.scrollLeft = (this.scroller.scrollWidth - this.scroller.clientWidth) / 2;
  }

  // Called after every render of the simulator.
  rendered(view) {
    if (!PHONE.matches || view.stage === "piece" || !view.origin) {
      this.shown = "";
      return;
    }
    const key = [view.origin, view.kind || "", ...(view.picked || [])].join(" ");
    if (key === this.shown) return;
    this.shown = key;
    this.keepInView(view.origin);
  }

  keepInView(origin) {
    const svg = this.sim.board.svg;
    if (this.zoomed) this._pan(squareBoxes(svg, origin));
    const boxes = squareBoxes(svg, origin);
    if (!boxes.selected) return;
    const span = {
      top: Math.min(...boxes.all.map((b) => b.top)),
      bottom: Math.max(...boxes.all.map((b) => b.bottom)),
    };
    const dy = shift(span, visibleBand(this.sim.compose), boxes.selected);
    if (Math.abs(dy) >= 1) window.scrollBy({ top: dy, behavior: "instant" });
  }

  // Zoomed: pan the strip so the targets fit across it, else centre the selection.
  _pan(boxes) {
    if (!boxes.selected) return;
    const strip = this.scroller.getBoundingClientRect();
    const span = {
      top: Math.min(...boxes.all.map((b) => b.left)),
      bottom: Math.max(...boxes.all.map((b) => b.right)),
    };
    const focus = { top: boxes.selected.left, bottom: boxes.selected.right };
    const dx = shift(span, { top: strip.left + GAP, bottom: strip.right - GAP }, focus);
    this.scroller.scrollLeft += dx;
  }
}
