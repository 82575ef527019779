// The loop track of Cargo Express: 14 spaces on a rounded rectangle (5 across, 2 down each
// side), space 0 at the top left and clockwise from there, with the round's facts in the
// middle. Each space shows its piece (factory with its colour, complex with its three car
// spots, tunnel with its twin, the refit piece) and the locomotives on it (seat colour,
// shape and number). Spaces the viewer may pick (`targets`) are buttons. Drawn from the
// state alone; animated from the engine's events (a locomotive walks its path).
import { el, reducedMotion, sleep } from "../live/dom.js";
import {
  COLOURS,
  locomotivesOn,
  seatLabel,
  seatParts,
  spaceOf,
  spaceWords,
  tunnelMark,
} from "./words.js";

// Each space's cell on the 5 × 4 ring is static/css/cargo-express.css's ([data-space]).

/** A car cube: its colour and its letter (so colour is never the only cue). */
export function carNode(colour, extraClass = "") {
  const node = el("span", `xp-car xp-car-${colour} ${extraClass}`.trim(), colour ? colour.toUpperCase() : "");
  node.setAttribute("aria-hidden", "true");
  return node;
}

/** A row of cars (aria-hidden: the words say them). */
export function carsNode(cars, { spots = 0 } = {}) {
  const row = el("span", "xp-cars");
  row.setAttribute("aria-hidden", "true");
  const n = Math.max(spots, (cars || "").length);
  for (let i = 0; i < n; i++) {
    const c = cars?.[i];
    row.append(c ? carNode(c) : el("span", "xp-car xp-car-empty"));
  }
  return row;
}

/** A locomotive token: seat colour, a shape per seat and the seat's number. */
export function locomotiveNode(seat) {
  const node = el("span", `xp-loco xp-seat-${seat + 1}`);
  node.append(el("span", "xp-loco-mark", String(seat + 1)));
  node.setAttribute("aria-hidden", "true");
  return node;
}

function pieceNode(state, space) {
  const box = el("span", `xp-piece xp-piece-${space.kind || "unknown"}`);
  box.setAttribute("aria-hidden", "true");
  if (space.kind === "factory") {
    box.classList.add(`xp-factory-${space.colour}`);
    box.append(el("span", "xp-piece-name", "Factory"), carNode(space.colour, "xp-factory-chip"));
  } else if (space.kind === "complex") {
    const name = el("span", "xp-piece-name", space.piece);
    if (space.owner !== null && space.owner !== undefined) {
      box.classList.add(`xp-owner-${space.owner + 1}`);
      name.append(el("span", `xp-owner-dot xp-seat-${space.owner + 1}`));
    }
    box.append(name, carsNode(space.cars || "", { spots: 3 }));
  } else if (space.kind === "tunnel") {
    box.append(el("span", "xp-piece-name", `Tunnel ${tunnelMark(space.piece)}`),
      el("span", "xp-twin", `↔ ${space.twin}`));
  } else if (space.kind === "refit") {
    box.append(el("span", "xp-piece-name", "Refit"), el("span", "xp-twin", "closed"));
  } else {
    box.append(el("span", "xp-piece-name", space.piece || ""));
  }
  return box;
}

export class Track {
  /** `root`: the element to draw into ([data-track]). */
  constructor(root) {
    this.root = root;
    this.positions = null; // seat → space while an animation runs
    this.marked = new Set();
  }

  /**
   * Draw `state`. `targets`: Map space → {label, onPick} for the spaces the viewer may pick;
   * `centre`: a node for the middle of the ring.
   */
  render(state, { targets = new Map(), centre = null } = {}) {
    this.state = state;
    this.targets = targets;
    const ring = el("ol", "xp-ring");
    ring.setAttribute("aria-label", "The loop track, 14 spaces, clockwise from space 0");
    for (let n = 0; n < 14; n++) ring.append(this.spaceNode(state, n, targets.get(n)));
    const middle = el("div", "xp-centre");
    if (centre) middle.append(centre);
    this.root.replaceChildren(ring, middle);
    this.root.classList.add("xp-track");
  }

  spaceNode(state, n, target) {
    const space = spaceOf(state, n);
    const item = el("li", "xp-space");
    item.dataset.space = String(n);
    item.dataset.piece = space.piece || "";
    if (this.marked.has(n)) item.classList.add("is-marked");
    const inner = el(target ? "button" : "div", "xp-space-inner");
    const words = spaceWords(state, n, this.positions);
    if (target) {
      inner.type = "button";
      inner.classList.add("is-target");
      inner.dataset.target = String(n);
      inner.addEventListener("click", () => target.onPick(n));
    }
    inner.append(el("span", "visually-hidden", target ? `${target.label}. ${words}` : words));
    const number = el("span", "xp-number", String(n));
    number.setAttribute("aria-hidden", "true");
    inner.append(number, pieceNode(state, space));
    const locos = el("span", "xp-locos");
    locos.setAttribute("aria-hidden", "true");
    for (const seat of locomotivesOn(state, n, this.positions)) locos.append(locomotiveNode(seat));
    inner.append(locos);
    item.append(inner);
    return item;
  }

  redraw() {
    if (this.state) this.render(this.state, { targets: this.targets, centre: this.root.querySelector(".xp-centre > *") });
  }

  setMarked(spaces) {
    this.marked = new Set(spaces);
    for (const node of this.root.querySelectorAll(".xp-space")) {
      node.classList.toggle("is-marked", this.marked.has(Number(node.dataset.space)));
    }
  }

  /**
   * Play a turn's events over `before`: each locomotive walks the spaces it entered, each
   * space whose cars changed is marked. Resolves when done (at once with reduced motion).
   */
  async play(events, before) {
    const quick = reducedMotion();
    const touched = touchedSpaces(events);
    this.state = before;
    this.positions = Object.fromEntries(seatParts(before).map((p, i) => [i, p.space]));
    try {
      for (const event of events) {
        if (quick) continue;
        if (event.kind === "moved" || event.kind === "extra-step") {
          const path = event.kind === "moved" ? event.spaces : [event.end];
          for (const n of path) {
            this.positions[event.seat] = n;
            this.redraw();
            await sleep(240);
          }
        } else if (["attached", "refilled", "exchanged", "reordered"].includes(event.kind)) {
          this.setMarked([...this.marked, event.space]);
          await sleep(260);
        }
      }
    } finally {
      this.positions = null;
    }
    this.marked = touched;
  }
}

/** The spaces a turn's events touched: where locomotives ended, where cars changed. */
export function touchedSpaces(events) {
  const out = new Set();
  for (const event of events || []) {
    if (event.kind === "moved" || event.kind === "extra-step") out.add(event.end);
    if ("space" in event && typeof event.space === "number") out.add(event.space);
    if (event.kind === "swapped") { out.add(event.refit_from); out.add(event.refit_to); }
  }
  return out;
}

export const colourWord = (c) => COLOURS[c] || c;
export { seatLabel };
