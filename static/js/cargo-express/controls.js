// Deciding in Cargo Express, from `state.legal` only: pick a character; build a stack of
// three cards in order and commit it (again, to change it, until planning closes); at your
// turn one step at a time (special attach, a destination on the track, an action, sign
// and keep one of the two cards drawn, fulfils, End turn); the refit swap. Every button
// sends exactly one token the server listed; nothing here decides a rule.
import { el } from "../live/dom.js";
import { carsNode } from "./board.js";
import {
  CHARACTERS,
  CHARACTER_HELP,
  carsWords,
  cardWords,
  contractWords,
  pathWords,
  soFarWords,
  stepWords,
} from "./words.js";

const isPathStep = (step, moves) => moves.some((m) => m.path === step);

// "brown, white, white" with its cubes (the cubes are aria-hidden; the words are not).
function carsWordsNode(cars) {
  const span = el("span", "xp-cars-value");
  span.append(carsNode(cars), el("span", "", carsWords(cars)));
  return span;
}

// The notation of a choice, small, after its words (issue #42, point 14: buttons read
// "Move (<<*)"): a hint for players who know it; screen readers hear "notation <<*" last.
function notationHint(token) {
  const hint = el("span", "xp-notation");
  hint.append(el("span", "visually-hidden", "notation "), el("code", "", token));
  return hint;
}

function button(text, onClick, { label, cls = "btn", data = {}, hint } = {}) {
  const b = el("button", cls, text);
  b.type = "button";
  if (hint) b.append(" ", notationHint(hint));
  if (label) b.setAttribute("aria-label", label);
  for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
  b.addEventListener("click", onClick);
  return b;
}

/** A half-built stack kept in this tab (sessionStorage) for one game and seat, so that a
 * reload does not lose it (issue #42, point 13). Nothing of it leaves the browser: the
 * server sees a stack only when it is committed. `key` is null where there is nothing to
 * keep it for (no game id, a spectator): then it keeps nothing. */
export class PlanDraft {
  constructor(key) {
    this.key = key;
  }

  static forGame(gameId, seat) {
    return new PlanDraft(gameId && seat !== null && seat !== undefined
      ? `cargo-express.plan-draft:${gameId}:${seat}` : null);
  }

  /** The stack kept for `round` over the committed stack `committed` (a list or null), if
   * it still fits the cards in hand; else null, and a draft that no longer fits is
   * dropped. */
  load(round, committed, hand) {
    if (!this.key) return null;
    let draft = null;
    try {
      draft = JSON.parse(window.sessionStorage.getItem(this.key) ?? "null");
    } catch {
      draft = null;
    }
    if (!draft) return null;
    const cards = Array.isArray(draft.stack) ? draft.stack : [];
    const fits = draft.round === round
      && draft.committed === (committed || []).join("")
      && cards.length <= 3 && new Set(cards).size === cards.length
      && cards.every((card) => (hand || []).includes(card));
    if (!fits) {
      this.clear();
      return null;
    }
    return [...cards];
  }

  save(round, committed, stack) {
    if (!this.key) return;
    if (stack.join("") === (committed || []).join("")) return this.clear(); // nothing new
    try {
      window.sessionStorage.setItem(this.key, JSON.stringify({
        round, committed: (committed || []).join(""), stack }));
    } catch {
      // storage full or refused: the draft lives as long as the page, as before
    }
  }

  clear() {
    if (!this.key) return;
    try {
      window.sessionStorage.removeItem(this.key);
    } catch {
      // nothing kept
    }
  }
}

export class Controls {
  constructor(root, { onSend, onFreeze = () => {}, draft = new PlanDraft(null) }) {
    this.root = root;
    this.onSend = onSend;
    this.onFreeze = onFreeze; // disable the track's buttons too while a decision is in flight
    this.draft = draft; // the half-built stack kept over a reload
    this.stack = [];
    this.stackKey = "";
    this.chooser = null; // a space whose several paths are offered
  }

  send(token) {
    this.chooser = null;
    this.root.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    this.onFreeze();
    this.onSend(token);
  }

  /** The spaces the track offers as buttons: destinations, or the refit swap's spaces. */
  targets(state, interactive) {
    const out = new Map();
    if (!interactive) return out;
    const legal = state.legal || {};
    if (state.phase === "turn") {
      for (const move of legal.moves || []) {
        if (move.end === null || move.end === undefined) continue;
        const paths = (legal.moves || []).filter((m) => m.end === move.end);
        out.set(move.end, {
          label: paths.length > 1 ? `Move to space ${move.end} (${paths.length} ways)` : `Move to space ${move.end}`,
          onPick: (n) => this.pickSpace(state, n),
        });
      }
    } else if (state.phase === "swap") {
      for (const swap of legal.swaps || []) {
        out.set(swap.space, { label: `Swap the refit piece with space ${swap.space}`, onPick: () => this.send(swap.token) });
      }
    }
    return out;
  }

  pickSpace(state, n) {
    const paths = (state.legal?.moves || []).filter((m) => m.end === n);
    if (paths.length === 1) this.send(paths[0].path);
    else {
      this.chooser = n;
      this.update(state, true);
      this.root.querySelector("[data-path]")?.focus();
    }
  }

  update(state, interactive) {
    this.state = state;
    const legal = state.legal || {};
    const key = `${state.round}:${state.phase}:${JSON.stringify(legal.committed || null)}`;
    if (key !== this.stackKey) {
      this.stackKey = key;
      this.stack = [...(legal.committed || [])];
      this.chooser = null;
      if (state.phase === "plan" && legal.hand) {
        const kept = this.draft.load(state.round, legal.committed, legal.hand);
        if (kept) this.stack = kept;
      } else if (state.phase !== "plan") {
        this.draft.clear(); // planning is over: its draft with it
      }
    }
    const box = this.root;
    box.replaceChildren();
    const show = interactive && !state.over && Object.keys(legal).length > 0;
    box.hidden = !show;
    if (!show) return;
    const draw = {
      pick: () => this.drawPick(legal),
      plan: () => this.drawPlan(legal),
      turn: () => this.drawTurn(state, legal),
      swap: () => this.drawSwap(legal),
    }[state.phase];
    if (draw) draw();
  }

  drawPick(legal) {
    this.root.append(el("h2", "", "Pick a character"));
    const group = el("div", "xp-choices");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Characters still on the board");
    for (const key of legal.picks || []) {
      const b = button("", () => this.send(key), { cls: "btn xp-choice", data: { pick: key } });
      b.append(el("strong", "", CHARACTERS[key] || key), el("span", "xp-help", CHARACTER_HELP[key] || ""));
      group.append(b);
    }
    this.root.append(group);
  }

  drawPlan(legal) {
    const committed = legal.committed;
    this.root.append(el("h2", "", committed ? "Your stack is committed" : "Build your stack"));
    this.root.append(el("p", "xp-hint", committed
      ? `Committed: ${committed.join(", ")} (top first). You may change it until planning closes.`
      : "Choose three cards in order: the first is your first turn. A card above your engine is marked; it is allowed (you may upgrade first)."));
    const usable = new Set(legal.usable || []);
    const hand = el("div", "xp-hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", "Your nine planning cards");
    for (const card of legal.hand || []) {
      const at = this.stack.indexOf(card);
      const b = button("", () => this.toggleCard(card), { cls: "xp-card", data: { card } });
      b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      const not = usable.has(card) ? "" : ", not usable with your engine now";
      const name = el("span", "xp-card-name", card);
      const notes = [];
      if (card === "D") notes.push(el("span", "xp-card-note", "1/2"));
      if (!usable.has(card)) { b.classList.add("is-unusable"); notes.push(el("span", "xp-card-note", "not yet")); }
      if (at >= 0) {
        const order = el("span", "xp-card-order", String(at + 1));
        order.setAttribute("aria-hidden", "true");
        notes.push(order);
      }
      const words = `: ${cardWords(card)}${not}${at >= 0 ? `, in your stack as card ${at + 1}` : ""}`;
      b.append(name, ...notes, el("span", "visually-hidden", words));
      hand.append(b);
    }
    this.root.append(hand);
    const stack = el("p", "xp-stack-line", this.stack.length
      ? `Stack, top first: ${this.stack.join(", ")}${this.stack.length < 3 ? ` (${3 - this.stack.length} more)` : ""}`
      : "Stack: empty");
    stack.dataset.stack = this.stack.join("");
    const actions = el("div", "xp-actions");
    const commit = button(committed ? "Commit this stack instead" : "Commit stack", () => this.send(this.stack.join("")), { cls: "btn primary", data: { commit: "" } });
    commit.disabled = this.stack.length !== 3 || (committed && committed.join("") === this.stack.join(""));
    const clear = button("Clear", () => { this.stack = []; this.keepDraft(); this.update(this.state, true); }, { data: { clear: "" } });
    clear.disabled = !this.stack.length;
    actions.append(commit, clear);
    this.root.append(stack, actions);
  }

  keepDraft() {
    this.draft.save(this.state.round, this.state.legal?.committed, this.stack);
  }

  toggleCard(card) {
    const at = this.stack.indexOf(card);
    if (at >= 0) this.stack.splice(at, 1);
    else if (this.stack.length < 3) this.stack.push(card);
    this.keepDraft();
    this.update(this.state, true);
    this.root.querySelector(`[data-card="${card}"]`)?.focus();
  }

  drawTurn(state, legal) {
    const turn = state.turn;
    this.root.append(el("h2", "", turn ? `Your turn: card ${cardWords(turn.card)}` : "Your turn"));
    if (turn?.steps?.length) {
      const line = el("p", "xp-hint xp-so-far", soFarWords(turn.steps));
      line.dataset.soFar = turn.steps.join(".");
      line.append(" ", notationHint(turn.steps.join(".")));
      this.root.append(line);
    }
    const moves = legal.moves || [];
    if (legal.sign?.length) return this.drawSign(state, legal);
    const steps = legal.steps || [];
    if (steps.includes("^")) this.group("Before moving", [["^", stepWords(state, "^")]]);
    if (moves.length) this.drawMoves(moves);
    const actions = steps.filter((s) => s !== "^" && !s.startsWith("f") && !isPathStep(s, moves));
    const reorders = actions.filter((s) => s.startsWith("o"));
    const others = actions.filter((s) => !s.startsWith("o"));
    if (others.length) this.group("Action", others.map((s) => [s, stepWords(state, s)]));
    if (reorders.length) this.drawReorders(state, reorders);
    const fulfils = steps.filter((s) => s.startsWith("f"));
    if (fulfils.length) this.group("Fulfil", fulfils.map((s) => [s, stepWords(state, s)]));
    if (legal.end) {
      const end = button("End turn", () => this.send("end"), { cls: "btn primary", data: { step: "end" } });
      const box = el("div", "xp-actions");
      box.append(end);
      this.root.append(box);
    }
  }

  drawMoves(moves) {
    const box = el("div", "xp-step-group");
    box.append(el("h3", "", "Move: click a highlighted space, or choose here"));
    const list = el("div", "xp-choices");
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", "Destinations");
    const shown = this.chooser === null ? moves : moves.filter((m) => m.end === this.chooser);
    for (const move of shown) {
      const where = move.end === null || move.end === undefined ? "Move" : `To space ${move.end}`;
      const b = button("", () => this.send(move.path), { cls: "btn xp-choice", data: { path: move.path } });
      b.append(el("strong", "", where), el("span", "xp-help", pathWords(move.path)), notationHint(move.path));
      list.append(b);
    }
    box.append(list);
    this.root.append(box);
  }

  group(title, items) {
    const box = el("div", "xp-step-group");
    box.append(el("h3", "", title));
    const list = el("div", "xp-choices");
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", title);
    for (const [token, words] of items) list.append(button(words, () => this.send(token), { data: { step: token }, hint: token }));
    box.append(list);
    this.root.append(box);
  }

  // Reordering a complex has many orders: folded away, by complex, until asked for.
  drawReorders(state, reorders) {
    const box = el("details", "xp-step-group xp-reorders");
    box.append(el("summary", "", `Action: reorder a complex (${reorders.length} orders)`));
    const bySpace = new Map();
    for (const step of reorders) {
      const space = step.slice(1, step.indexOf("="));
      if (!bySpace.has(space)) bySpace.set(space, []);
      bySpace.get(space).push(step);
    }
    for (const [space, steps] of bySpace) {
      const list = el("div", "xp-choices");
      list.setAttribute("role", "group");
      list.setAttribute("aria-label", `Reorder the complex on space ${space}`);
      for (const step of steps) {
        const order = step.slice(step.indexOf("=") + 1);
        const b = button("", () => this.send(step), { data: { step } });
        b.append(el("span", "visually-hidden", `Reorder space ${space} to `), carsWordsNode(order));
        list.append(b);
      }
      box.append(el("h3", "", `Space ${space}`), list);
    }
    if (this.openReorders) box.open = true;
    box.addEventListener("toggle", () => { this.openReorders = box.open; });
    this.root.append(box);
  }

  drawSign(state, legal) {
    const box = el("div", "xp-step-group");
    box.append(el("h3", "", "Keep one of the contracts drawn"));
    const drawn = state.drawn || [];
    if (drawn.length) box.append(el("p", "xp-hint", `Drawn: ${drawn.map((id) => contractWords(state, id)).join("; ")}. The other goes to the bottom of the deck.`));
    const list = el("div", "xp-choices");
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", "Which contract to keep");
    for (const token of legal.sign) list.append(button(stepWords(state, token), () => this.send(token), { data: { step: token } }));
    box.append(list);
    this.root.append(box);
  }

  drawSwap(legal) {
    this.root.append(el("h2", "", "Move the refit piece"));
    this.root.append(el("p", "xp-hint", "You are the new stationmaster: swap the refit piece with a highlighted space."));
    const list = el("div", "xp-choices");
    list.setAttribute("role", "group");
    list.setAttribute("aria-label", "Spaces for the refit piece");
    for (const swap of legal.swaps || []) {
      list.append(button(`Space ${swap.space}`, () => this.send(swap.token), { label: `Space ${swap.space}: swap the refit piece here`, data: { swap: swap.token } }));
    }
    this.root.append(list);
  }
}
