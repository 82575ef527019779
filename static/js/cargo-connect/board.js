// The Cargo Bay: slots, modules (absolutely positioned, moved with CSS transforms),
// the MagLock, click targets, and animations driven by the engine's events.
// Nothing here decides a rule: it draws rows it is given and moves modules where events say.
import { el, nextFrame, reducedMotion, sleep } from "../live/dom.js";

const KIND_OF = { B: "blue", O: "orange", x: "empty" };
const LETTERS = "abcdefgh";

export function splitCells(text) {
  const cells = [];
  for (let i = 0; i + 1 < text.length; i += 2) cells.push(text.slice(i, i + 2));
  return cells;
}

export function cellName(x, yFromTop, n) {
  return LETTERS[x] + String(n - yFromTop);
}

function coords(cell, n) {
  return { x: LETTERS.indexOf(cell[0]), y: n - Number(cell.slice(1)) };
}

const KIND_LABEL = { blue: "Blue core", orange: "Orange core", empty: "Empty Can" };

export class Bay {
  constructor(root, size) {
    this.root = root;
    this.n = size;
    this.modules = new Map(); // cell name -> element
    this.touched = new Set();
    this.destroyed = new Set();
    this.lock = null;
    this.build();
  }

  build() {
    const n = this.n;
    this.root.replaceChildren();
    this.root.classList.add("bay-frame");
    this.root.style.setProperty("--n", String(n));
    const cols = el("div", "labels-cols");
    cols.setAttribute("aria-hidden", "true");
    for (let x = 0; x < n; x++) cols.append(el("span", "", LETTERS[x]));
    const rowsLabels = el("div", "labels-rows");
    rowsLabels.setAttribute("aria-hidden", "true");
    for (let y = 0; y < n; y++) rowsLabels.append(el("span", "", String(n - y)));
    this.bay = el("div", "gbay");
    this.bay.style.setProperty("--n", String(n));
    const inner = el("div", "gbay-inner");
    // The bay for screen readers: a table of named cells ("c3, Blue core"), top row first.
    // It is where focus goes when a turn is done (focusBoard), hence tabindex -1.
    this.slots = el("div", "gbay-slots");
    this.slots.setAttribute("role", "table");
    this.slots.setAttribute("aria-label", `Cargo Bay, ${n} by ${n}`);
    this.slots.tabIndex = -1;
    this.slotEls = new Map();
    for (let y = 0; y < n; y++) {
      const row = el("div", "slot-row");
      row.setAttribute("role", "row");
      for (let x = 0; x < n; x++) {
        const name = cellName(x, y, n);
        const slot = el("div", "slot");
        slot.dataset.cell = name;
        slot.setAttribute("role", "cell");
        this.slotEls.set(name, slot);
        row.append(slot);
      }
      this.slots.append(row);
    }
    this.layer = el("div", "gbay-modules");
    this.overlays = el("div", "gbay-overlays");
    this.columns = el("div", "gbay-targets columns");
    this.columns.hidden = true;
    this.columnButtons = [];
    for (let x = 0; x < n; x++) {
      const button = el("button", "target column");
      button.type = "button";
      button.dataset.column = LETTERS[x];
      button.setAttribute("aria-label", `Drop into column ${LETTERS[x]}`);
      button.disabled = true;
      button.tabIndex = -1;
      button.addEventListener("click", () => this.onColumn?.(LETTERS[x]));
      button.addEventListener("keydown", (e) => this.columnKey(e, x));
      button.addEventListener("focus", () => this.rove(this.columnButtons, button));
      this.columns.append(button);
      this.columnButtons.push(button);
    }
    this.cells = el("div", "gbay-targets cells");
    this.cells.hidden = true;
    this.cellButtons = new Map();
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const name = cellName(x, y, n);
        const button = el("button", "target cell");
        button.type = "button";
        button.dataset.cell = name;
        button.disabled = true;
        button.tabIndex = -1;
        button.addEventListener("click", () => this.onCell?.(name));
        button.addEventListener("keydown", (e) => this.cellKey(e, name));
        button.addEventListener("mouseenter", () => this.onCellHover?.(name));
        button.addEventListener("focus", () => {
          this.rove([...this.cellButtons.values()], button);
          this.onCellHover?.(name);
        });
        this.cells.append(button);
        this.cellButtons.set(name, button);
      }
    }
    inner.append(this.slots, this.layer, this.overlays, this.columns, this.cells);
    this.bay.append(inner);
    this.root.append(cols, rowsLabels, this.bay);
  }

  // ---- keyboard: one tab stop for the columns and one for the cells (roving tabindex);
  // arrow keys move between the enabled ones, Home and End jump to the first and last.

  /** Make `current` the one tab stop among `buttons`. */
  rove(buttons, current) {
    for (const button of buttons) button.tabIndex = button === current ? 0 : -1;
  }

  /** Give the tab stop to the first enabled button (or keep it where it is, if enabled). */
  resetRove(buttons) {
    const enabled = buttons.filter((b) => !b.disabled);
    const keep = enabled.find((b) => b.tabIndex === 0);
    this.rove(buttons, keep || enabled[0] || null);
  }

  columnKey(event, x) {
    const enabled = this.columnButtons.filter((b) => !b.disabled);
    if (!enabled.length) return;
    let target = null;
    if (event.key === "Home") target = enabled[0];
    else if (event.key === "End") target = enabled[enabled.length - 1];
    else {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      let i = x;
      for (let k = 0; k < this.n && !target; k++) {
        i = (i + step + this.n) % this.n;
        if (!this.columnButtons[i].disabled) target = this.columnButtons[i];
      }
    }
    event.preventDefault();
    target?.focus();
  }

  cellKey(event, name) {
    const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    const enabled = [...this.cellButtons.values()].filter((b) => !b.disabled);
    if (!enabled.length) return;
    let target = null;
    if (event.key === "Home") target = enabled[0];
    else if (event.key === "End") target = enabled[enabled.length - 1];
    else if (delta) {
      // The nearest enabled cell ahead in that direction, preferring the same row/column.
      const from = coords(name, this.n);
      let best = Infinity;
      for (const button of enabled) {
        const to = coords(button.dataset.cell, this.n);
        const ahead = (to.x - from.x) * delta[0] + (to.y - from.y) * delta[1];
        if (ahead <= 0) continue;
        const aside = Math.abs((to.x - from.x) * delta[1]) + Math.abs((to.y - from.y) * delta[0]);
        const cost = ahead + 3 * aside;
        if (cost < best) [best, target] = [cost, button];
      }
    } else return;
    event.preventDefault();
    target?.focus();
  }

  /** Focus the board: the columns' tab stop when columns are offered, else the cells', else
   * the bay itself (after a turn, so focus never drops to the page). */
  focusBoard() {
    const target = [...this.columnButtons, ...this.cellButtons.values()]
      .find((b) => !b.disabled && b.tabIndex === 0 && !b.closest("[hidden]"));
    (target || this.slots).focus();
  }

  /** The cell whose target has focus, or null. */
  focusedCell() {
    const active = document.activeElement;
    return active?.classList?.contains("cell") && this.cells.contains(active) ? active.dataset.cell : null;
  }

  /** Focus a cell's target if it is offered; whether it was. */
  focusCell(name) {
    const button = this.cellButtons.get(name);
    if (!button || button.disabled || this.cells.hidden) return false;
    button.focus();
    return true;
  }

  /** Whether focus is on the board (a target or the bay). */
  hasFocus() {
    return this.root.contains(document.activeElement);
  }

  // ---- drawing ------------------------------------------------------------------------

  makeModule(kind, cell) {
    const module = el("div", `module ${kind}`);
    const can = el("span", `can ${kind}`);
    module.append(can);
    this.place(module, cell, 0);
    this.layer.append(module);
    return module;
  }

  setKind(module, kind) {
    module.className = `module ${kind}`;
    module.firstChild.className = `can ${kind}`;
    module.dataset.kind = kind;
  }

  place(module, cell, duration) {
    const { x, y } = coords(cell, this.n);
    module.style.setProperty("--dur", `${duration}ms`);
    module.style.setProperty("--x", String(x));
    module.style.setProperty("--y", String(y));
    module.dataset.cell = cell;
  }

  /** Draw rows exactly (top row first), keeping module elements where they already match. */
  render(rows, lock = this.lock) {
    const n = this.n;
    const next = new Map();
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const kind = KIND_OF[rows[y][x]];
        const name = cellName(x, y, n);
        let module = this.modules.get(name);
        if (module) this.modules.delete(name);
        if (!kind) {
          module?.remove();
          continue;
        }
        if (!module) module = this.makeModule(kind, name);
        else this.place(module, name, 0);
        this.setKind(module, kind);
        next.set(name, module);
      }
    }
    for (const leftover of this.modules.values()) leftover.remove();
    this.modules = next;
    this.layer.style.transform = "";
    this.layer.classList.remove("is-rotating");
    this.setLock(lock);
    this.applyMarks();
    this.describeCells(rows);
  }

  /** Each cell's accessible name: "c3, Blue core", "c3, empty", with ", MagLocked" when
   * the cell is in the locked corridor. */
  describeCells(rows) {
    const n = this.n;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const name = cellName(x, y, n);
        const kind = KIND_OF[rows[y][x]];
        const locked = this.lock && (this.lock === name[0] || this.lock === name.slice(1));
        const text = `${name}, ${kind ? KIND_LABEL[kind] : "empty"}${locked ? ", MagLocked" : ""}`;
        this.slotEls.get(name).setAttribute("aria-label", text);
        this.cellButtons.get(name).setAttribute("aria-label", text);
      }
    }
  }

  /** Cells the last turn touched (modules that arrived, destroyed spaces). */
  setTouched(touched, destroyed = new Set()) {
    this.touched = touched;
    this.destroyed = destroyed;
    this.applyMarks();
  }

  applyMarks() {
    for (const [name, module] of this.modules) {
      module.classList.toggle("is-touched", this.touched.has(name));
    }
    for (const [name, slot] of this.slotEls) {
      slot.classList.toggle("is-destroyed", this.destroyed.has(name) && !this.modules.has(name));
    }
  }

  corridorBox(corridor) {
    const n = this.n;
    const size = 100 / n;
    if (/[a-h]/.test(corridor)) {
      const x = LETTERS.indexOf(corridor);
      return { left: `${x * size}%`, top: "0", width: `${size}%`, height: "100%", row: false };
    }
    const y = n - Number(corridor);
    return { left: "0", top: `${y * size}%`, width: "100%", height: `${size}%`, row: true };
  }

  setLock(corridor) {
    this.lock = corridor;
    this.overlays.querySelector(".maglock")?.remove();
    if (!corridor) return;
    const box = this.corridorBox(corridor);
    const lock = el("div", `maglock${box.row ? " is-row" : ""}`);
    Object.assign(lock.style, { left: box.left, top: box.top, width: box.width, height: box.height });
    const what = box.row ? `row ${corridor}` : `column ${corridor}`;
    lock.append(el("span", "maglock-label", `MagLock ${corridor}`));
    lock.setAttribute("role", "img");
    lock.setAttribute("aria-label", `MagLock on ${what}`);
    this.overlays.append(lock);
  }

  previewCorridor(corridor, kind = "") {
    this.overlays.querySelector(".corridor-preview")?.remove();
    if (!corridor) return;
    const box = this.corridorBox(corridor);
    const preview = el("div", `corridor-preview ${kind}`);
    Object.assign(preview.style, { left: box.left, top: box.top, width: box.width, height: box.height });
    this.overlays.append(preview);
  }

  /** Mark module cells with a class (hover hints, picked cores). */
  mark(className, cells) {
    for (const [name, module] of this.modules) module.classList.toggle(className, cells.has(name));
    for (const [name, button] of this.cellButtons) {
      if (className === "is-picked") button.classList.toggle("is-picked", cells.has(name));
    }
  }

  // ---- targets ------------------------------------------------------------------------

  /** Offer columns to drop into (letters), or none. */
  offerColumns(letters, onColumn) {
    this.onColumn = onColumn;
    const allowed = new Set(letters);
    for (const button of this.columnButtons) {
      button.disabled = !allowed.has(button.dataset.column);
    }
    this.resetRove(this.columnButtons);
    this.columns.hidden = allowed.size === 0;
  }

  /** Offer cells to click (names), or none; `describedBy` is the id of the words that say
   * what choosing a cell does (read after the cell's name). */
  offerCells(cells, onCell, onCellHover, describedBy = null) {
    this.onCell = onCell;
    for (const button of this.cellButtons.values()) {
      button.removeAttribute("aria-pressed");
      if (describedBy) button.setAttribute("aria-describedby", describedBy);
      else button.removeAttribute("aria-describedby");
    }
    this.onCellHover = onCellHover;
    const allowed = new Set(cells);
    for (const [name, button] of this.cellButtons) button.disabled = !allowed.has(name);
    this.resetRove([...this.cellButtons.values()]);
    this.cells.hidden = allowed.size === 0;
  }

  clearTargets() {
    this.offerColumns([], null);
    this.offerCells([], null, null);
    this.previewCorridor(null);
    this.mark("is-hinted", new Set());
    this.mark("is-picked", new Set());
  }

  // ---- animation ----------------------------------------------------------------------

  fallTime(distance) {
    return Math.round(120 + 70 * Math.sqrt(Math.max(distance, 0.5)) * 1.6);
  }

  async moveAll(moves) {
    // moves: [[from, to], ...] applied at once.
    const picked = moves.map(([from, to]) => [this.modules.get(from), from, to]);
    for (const [, from] of picked) this.modules.delete(from);
    let longest = 0;
    await nextFrame();
    for (const [module, from, to] of picked) {
      if (!module) continue;
      const d = Math.abs(coords(to, this.n).y - coords(from, this.n).y)
        + Math.abs(coords(to, this.n).x - coords(from, this.n).x);
      const t = this.fallTime(d);
      longest = Math.max(longest, t);
      this.place(module, to, t);
      this.modules.set(to, module);
    }
    await sleep(longest + 30);
  }

  async vanish(cells) {
    const gone = [];
    for (const cell of cells) {
      const module = this.modules.get(cell);
      if (!module) continue;
      this.modules.delete(cell);
      module.classList.add("is-vanishing");
      gone.push(module);
    }
    if (!gone.length) return;
    await sleep(340);
    for (const module of gone) module.remove();
  }

  async animateEvent(event) {
    const n = this.n;
    switch (event.type) {
      case "drop": {
        const { x, y } = coords(event.cell, n);
        const module = this.makeModule(event.side, event.cell);
        module.style.setProperty("--y", "-1.2");
        module.style.setProperty("--x", String(x));
        this.setKind(module, event.side);
        module.getBoundingClientRect();
        await nextFrame();
        const t = this.fallTime(y + 1.2);
        this.place(module, event.cell, t);
        this.modules.get(event.cell)?.remove();
        this.modules.set(event.cell, module);
        await sleep(t + 30);
        break;
      }
      case "rotate": {
        this.setLock(null);
        const angle = event.direction === "right" ? 90 : -90;
        this.layer.classList.add("is-rotating");
        await nextFrame();
        this.layer.style.transform = `rotate(${angle}deg)`;
        await sleep(560);
        // Put each module where the turn left it, unrotated, then let it settle.
        this.layer.classList.remove("is-rotating");
        const picked = event.moves.map(([from, turned, to]) => [this.modules.get(from), turned, to]);
        this.modules = new Map();
        for (const [module, turned] of picked) {
          if (!module) continue;
          this.place(module, turned, 0);
          this.modules.set(turned, module);
        }
        this.layer.style.transform = "";
        this.layer.getBoundingClientRect();
        await this.moveAll(picked.filter(([, turned, to]) => turned !== to).map(([, t, to]) => [t, to]));
        break;
      }
      case "lock_released":
        this.setLock(null);
        break;
      case "lockdown":
        this.setLock(event.locked);
        await sleep(450);
        break;
      case "purge":
        this.previewCorridor(event.corridor, "purge");
        await sleep(250);
        await this.vanish(event.destroyed);
        this.previewCorridor(null);
        await this.moveAll(event.moves || []);
        break;
      case "damage":
        if (event.emptied?.length) {
          for (const cell of event.emptied) {
            const module = this.modules.get(cell);
            if (module) {
              this.setKind(module, "empty");
              module.classList.add("is-flashing");
            }
          }
          await sleep(500);
        }
        await this.vanish(event.destroyed || []);
        await this.moveAll(event.moves || []);
        break;
      case "reroute": {
        const module = this.modules.get(event.cell);
        if (module) {
          this.setKind(module, event.side);
          module.classList.add("is-rerouted");
        }
        await sleep(700);
        break;
      }
      case "unload": {
        const cells = splitCells(event.cells);
        for (const cell of cells) this.modules.get(cell)?.classList.add("is-flashing");
        await sleep(820);
        for (const cell of cells) {
          const module = this.modules.get(cell);
          if (module) this.setKind(module, "empty");
        }
        await sleep(200);
        break;
      }
      default:
        break;
    }
  }

  /** Animate a turn's events from the board now shown, then draw `rows` exactly. */
  async playTurn(events, rows, lock) {
    this.clearTargets();
    this.setTouched(new Set(), new Set());
    if (!reducedMotion()) {
      try {
        for (const event of events) await this.animateEvent(event);
      } catch (error) {
        console.error("animation failed; drawing the state", error);
      }
    }
    this.render(rows, lock);
    const { touched, destroyed } = touchedBy(events);
    this.setTouched(touched, destroyed);
  }
}

/** The cells a turn's events touched: where modules came to rest, and emptied spaces. */
export function touchedBy(events) {
  const touched = new Set();
  const destroyed = new Set();
  for (const event of events || []) {
    if (event.cell) touched.add(event.cell);
    for (const move of event.moves || []) touched.add(move[move.length - 1]);
    for (const cell of event.destroyed || []) destroyed.add(cell);
    for (const cell of event.emptied || []) touched.add(cell);
    if (event.type === "unload") for (const cell of splitCells(event.cells)) touched.add(cell);
  }
  return { touched, destroyed };
}
