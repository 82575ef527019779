// Making a turn: offers exactly state.legal and state.options, grouped by the token's first
// character (notation, not rules). Calls onSend(token) with the whole turn token.
// Card names and their order come from `state.card_names` ([key, name] pairs).
//
// Keyboard and focus (docs/accessibility.md): every step can be taken with the keyboard.
// Opening a card or the unload step moves focus to its first choice; Back and Escape return
// to the card that was opened; sending a turn moves focus to the board (never to the page),
// and when the viewer's next turn comes, focus that was on the board goes to the columns.
import { el } from "../live/dom.js";
import { splitCells } from "./board.js";
import { corridorWords } from "./panels.js";

export class TurnControls {
  constructor(panel, bay, { onSend, onMessage }) {
    this.panel = panel;
    this.bay = bay;
    this.onSend = onSend;
    this.onMessage = onMessage;
    this.state = null;
    this.active = false;
    // Focus is moved for the player only once they have used the game's controls (or the
    // board), never on opening the page.
    this.hadFocus = false;
    const noteFocus = () => { this.hadFocus = true; };
    panel.addEventListener("focusin", noteFocus);
    bay.root.addEventListener("focusin", noteFocus);
  }

  /** Offer a turn from this state as `you` (a side) when `enabled` (the shell says the
   * viewer may act now), or nothing. */
  update(state, you, enabled) {
    this.state = state;
    this.you = you;
    this.cardNames = new Map(state.card_names || []);
    this.active = Boolean(enabled && you) && !state.over && state.legal?.length > 0;
    this.legal = new Set(state.legal || []);
    this.showChoices();
  }

  /** Stop offering (while a turn is being sent or animated). */
  freeze(text) {
    const refocus = this.focusIsOurs();
    this.active = false;
    this.bay.clearTargets();
    this.heading("Your turn");
    this.instructions(text);
    if (refocus) this.bay.focusBoard();
  }

  drawBoard() {
    this.bay.render(this.state.rows, this.state.lock);
  }

  heading(text) {
    // "Your turn" repeats the status line: a phone hides it (game.css), not a card's name.
    const heading = el("h2", text === "Your turn" ? "repeats-status" : "", text);
    heading.id = "controls-title";
    this.panel.setAttribute("aria-labelledby", heading.id);
    this.panel.replaceChildren(heading);
  }

  /** A paragraph of instructions; with `id`, board targets can point to it. */
  instructions(text, id = null) {
    const paragraph = el("p", "", text);
    if (id) paragraph.id = id;
    this.panel.append(paragraph);
    return paragraph;
  }

  /** Whether focus is in the panel or on the board, or lost (on the page itself). */
  focusIsOurs() {
    const active = document.activeElement;
    if (!active || active === document.body) return this.hadFocus;
    return this.panel.contains(active) || this.bay.hasFocus();
  }

  /** The first step of a turn. `focusCard`: the card whose panel was just left (Back). */
  showChoices(focusCard = null) {
    const state = this.state;
    const refocus = this.focusIsOurs();
    this.panel.onkeydown = null;
    this.bay.root.onkeydown = null;
    this.bay.clearTargets();
    if (!this.active) {
      this.panel.hidden = true;
      if (refocus && document.activeElement === document.body) this.bay.focusBoard();
      return;
    }
    this.panel.hidden = false;
    this.heading("Your turn");
    const drops = [...this.legal].filter((t) => /^[a-h]$/.test(t));
    this.bay.offerColumns(drops, (column) => this.choose(column));
    const help = this.instructions(drops.length
      ? "Drop into a marked column, or play a card:"
      : "No column is open to you: play a card.");
    if (drops.length) help.append(el("span", "visually-hidden", " (on the bay, the arrow keys move between the open columns)"));
    const cards = el("div", "card-buttons");
    cards.setAttribute("role", "group");
    cards.setAttribute("aria-label", "Your cards");
    for (const [card, cardName] of this.cardNames) {
      if (!state.cards?.[this.you]?.includes(card)) continue;
      const tokens = [...this.legal].filter((t) => t[0] === card);
      const button = el("button", "btn", cardName);
      button.type = "button";
      button.dataset.card = card;
      button.disabled = tokens.length === 0;
      if (!tokens.length) button.title = "Not playable now";
      button.addEventListener("click", () => this.openCard(card, tokens));
      cards.append(button);
    }
    this.panel.append(cards);
    let pass = null;
    if (this.legal.has("-")) {
      pass = el("button", "btn primary", "Pass");
      pass.type = "button";
      pass.dataset.token = "-";
      pass.addEventListener("click", () => this.choose("-"));
      this.instructions("You have no legal action: you must pass (you may still unload).");
      this.panel.append(pass);
    }
    const back = focusCard && cards.querySelector(`[data-card="${focusCard}"]:not(:disabled)`);
    if (back) back.focus();
    else if (refocus) {
      // Focus that was on the board (or lost) goes to the board's choices, else the panel's.
      if (drops.length) this.bay.focusBoard();
      else (cards.querySelector("button:not(:disabled)") || pass)?.focus();
    }
  }

  /** Escape leaves a card's panel (like Back). */
  escapeTo(action) {
    this.panel.onkeydown = (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      action();
    };
    this.bay.root.onkeydown = this.panel.onkeydown;
  }

  /** Back to the first step; focus returns to `card`'s button. */
  backButton(text = "Back", card = null) {
    const back = el("button", "btn small", text);
    back.type = "button";
    const leave = () => {
      this.drawBoard();
      this.showChoices(card);
    };
    back.addEventListener("click", leave);
    this.escapeTo(leave);
    return back;
  }

  openCard(card, tokens) {
    this.bay.clearTargets();
    this.heading(this.cardNames.get(card));
    if (card === "S") {
      const group = el("div", "choice-buttons");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", "Direction");
      for (const [token, label] of [["S<", "⟲ Rotate left"], ["S>", "⟳ Rotate right"]]) {
        if (!this.legal.has(token)) continue;
        group.append(this.tokenButton(token, label));
      }
      this.instructions("Turn the whole bay a quarter turn; everything settles and any MagLock is released.");
      this.panel.append(group);
    } else if (card === "L" || card === "P") {
      this.instructions(card === "L"
        ? "Choose a corridor to MagLock (choosing the locked one releases it):"
        : "Choose a corridor to purge; its modules are removed and the rest settle:");
      const columns = tokens.filter((t) => /^[LP][a-h]$/.test(t)).sort();
      const rows = tokens.filter((t) => /^[LP][1-8]$/.test(t)).sort();
      for (const [label, list] of [["Columns", columns], ["Rows", rows]]) {
        if (!list.length) continue;
        const group = el("div", "choice-buttons");
        group.setAttribute("role", "group");
        group.setAttribute("aria-label", label);
        group.append(el("span", "", `${label}:`));
        for (const token of list) {
          const corridor = token.slice(1);
          const release = card === "L" && corridor === this.state.lock;
          const button = this.tokenButton(token, release ? `${corridor} (release)` : corridor);
          button.setAttribute("aria-label", `${this.cardNames.get(card)}: ${release ? "release " : ""}${corridorWords(corridor)}`);
          const show = () => this.bay.previewCorridor(corridor, card === "P" ? "purge" : "");
          button.addEventListener("mouseenter", show);
          button.addEventListener("focus", show);
          button.addEventListener("mouseleave", () => this.bay.previewCorridor(null));
          group.append(button);
        }
        this.panel.append(group);
      }
    } else if (card === "D") {
      this.pickDamage(tokens, null);
      this.bay.focusBoard();
      return;
    } else if (card === "R") {
      const cells = tokens.map((t) => t.slice(1));
      this.instructions("Choose one of your opponent's cores (here or on the bay) to make it yours:", "controls-cells");
      const group = el("div", "choice-buttons");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", "Opponent's cores");
      for (const cell of cells.sort()) {
        const button = this.tokenButton(`R${cell}`, cell);
        button.setAttribute("aria-label", `${this.cardNames.get("R")}: the core at ${cell}`);
        group.append(button);
      }
      this.panel.append(group);
      this.bay.offerCells(cells, (cell) => this.choose(`R${cell}`), null, "controls-cells");
    }
    this.panel.append(this.backButton("Back", card));
    this.panel.querySelector("[data-token]")?.focus();
  }

  pickDamage(tokens, first) {
    const onCell = this.bay.focusedCell();
    this.bay.clearTargets();
    this.heading(this.cardNames.get("D"));
    const pairs = tokens.map((t) => splitCells(t.slice(1)));
    let offered;
    if (!first) {
      offered = [...new Set(pairs.flat())];
      this.instructions("Choose the first of two side-by-side modules to destroy, on the bay (arrow keys move between them):", "controls-cells");
    } else {
      offered = [first];
      for (const [a, b] of pairs) {
        if (a === first) offered.push(b);
        if (b === first) offered.push(a);
      }
      this.instructions(`First: ${first}. Now choose the module next to it (or ${first} again to undo):`, "controls-cells");
    }
    this.bay.offerCells(offered, (cell) => {
      if (!first) return this.pickDamage(tokens, cell);
      if (cell === first) return this.pickDamage(tokens, null);
      const token = tokens.find((t) => {
        const [a, b] = splitCells(t.slice(1));
        return (a === first && b === cell) || (b === first && a === cell);
      });
      if (token) this.choose(token);
    }, null, "controls-cells");
    if (first) this.bay.mark("is-picked", new Set([first]));
    this.panel.append(this.backButton("Back", "D"));
    if (onCell) this.bay.focusCell(onCell) || this.bay.focusBoard();
  }

  tokenButton(token, label) {
    const button = el("button", "btn", label);
    button.type = "button";
    button.dataset.token = token;
    button.addEventListener("click", () => this.choose(token));
    return button;
  }

  /** A Phase 1 token was chosen: send it, or first offer the unloads it makes possible. */
  choose(token) {
    if (!this.active || !this.legal.has(token)) return;
    const option = this.state.options?.[token];
    if (!option) {
      this.send(token);
      return;
    }
    this.offerUnload(token, option, new Set());
  }

  offerUnload(token, option, picked) {
    const first = !this.panel.querySelector("[data-unload]"); // the step just opened
    const refocus = this.focusIsOurs();
    const onCell = this.bay.focusedCell();
    this.bay.clearTargets();
    this.bay.render(option.rows, option.lock);
    this.heading("Unload an AppCon?");
    this.instructions(
      `After ${token} the bay looks like this. Pick four cores to unload (on the bay, or choose an AppCon below), or end your turn without unloading.`,
      "controls-cells",
    );
    const unloads = option.unloads.map(([cells, shape, value]) => ({ cells, shape, value, set: new Set(splitCells(cells)) }));
    const chosen = unloads.find((u) => u.set.size === picked.size && [...u.set].every((c) => picked.has(c)));
    const list = el("ul", "unload-list");
    list.setAttribute("aria-label", "AppCons you can unload");
    for (const u of unloads) {
      const item = el("li", "");
      const button = el("button", "btn", "");
      button.type = "button";
      button.dataset.unload = u.cells;
      button.append(el("strong", "", u.shape), ` +${u.value}`, el("span", "tok", splitCells(u.cells).join(" ")));
      button.setAttribute("aria-pressed", String(u === chosen));
      button.setAttribute("aria-label", `${u.shape} for ${u.value} points: ${splitCells(u.cells).join(", ")}`);
      const hint = () => this.bay.mark("is-hinted", u.set);
      button.addEventListener("mouseenter", hint);
      button.addEventListener("focus", hint);
      button.addEventListener("mouseleave", () => this.bay.mark("is-hinted", new Set()));
      button.addEventListener("click", () => this.offerUnload(token, option, new Set(u.set)));
      item.append(button);
      list.append(item);
    }
    this.panel.append(list);
    const cells = [...new Set(unloads.flatMap((u) => [...u.set]))];
    this.bay.offerCells(cells, (cell) => {
      const next = new Set(picked);
      if (next.has(cell)) next.delete(cell);
      else if (next.size < 4) next.add(cell);
      this.offerUnload(token, option, next);
    }, null, "controls-cells");
    for (const cell of cells) {
      const button = this.bay.cellButtons.get(cell);
      button.setAttribute("aria-pressed", String(picked.has(cell)));
    }
    this.bay.mark("is-picked", picked);
    const actions = el("div", "choice-buttons");
    const unload = el("button", "btn primary", chosen ? `Unload ${chosen.shape} (+${chosen.value})` : "Unload");
    unload.type = "button";
    unload.dataset.action = "unload";
    unload.disabled = !chosen;
    if (!chosen && picked.size) {
      this.panel.append(el("p", "", picked.size < 4 ? `${picked.size} of 4 cores picked.` : "Those four cores are not one of the AppCons listed."));
    }
    unload.addEventListener("click", () => chosen && this.send(`${token}+${chosen.cells}`));
    const skip = el("button", "btn", "End turn without unloading");
    skip.type = "button";
    skip.dataset.action = "skip";
    skip.addEventListener("click", () => this.send(token));
    actions.append(unload, skip, this.backButton("Back", /^[a-h]$/.test(token) ? null : token[0]));
    this.panel.append(actions);
    if (chosen) unload.focus();
    else if (onCell && this.bay.focusCell(onCell)) return; // picking cores on the bay
    else if (first || refocus) list.querySelector("button")?.focus();
  }

  send(token) {
    if (!this.active) return;
    this.freeze(`Sending ${token}…`);
    this.onSend(token);
  }
}
