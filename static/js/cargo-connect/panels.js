// Players (points, unused cards, shelves), the turn list, the Final Audit and the words
// announced for each turn. Presentation only: every number comes from the state or events,
// card names and their order from `state.card_names`, shapes and their order from the keys
// of `state.shelves[side]`.
import { el, titledName } from "../live/dom.js";
import { splitCells } from "./board.js";

const SIDES = ["blue", "orange"];
const CHIT_WORD = { gold: "Gold chit", steel: "Steel chit", rust: "Rust chit (not completed yet)" };

export const sideName = (side) => (side === "blue" ? "Blue" : "Orange");

export function playerName(state, side) {
  const player = state.players?.[side];
  return titledName(player?.name, player?.title) || sideName(side);
}

/** The status line's words once the shift is over. */
export function outcomeText(state) {
  const winner = state.result ? state.result.winner : state.audit?.winner;
  return winner
    ? `Shift over: ${playerName(state, winner)} (${sideName(winner)}) wins`
    : "Shift over: draw";
}

export function corridorWords(corridor) {
  return /[a-h]/.test(corridor) ? `column ${corridor}` : `row ${corridor}`;
}

/** The player panels: the viewer's opponent first (on a phone, above the bay), the viewer
 * last (below it); a spectator sees Orange first and Blue last. */
export function renderPlayers(container, state, you) {
  container.replaceChildren();
  const bottom = you || "blue";
  for (const side of [SIDES.find((s) => s !== bottom), bottom]) {
    const player = state.players?.[side] || {};
    const panel = el("section", `panel player ${side} ${side === bottom ? "is-bottom" : "is-top"}`);
    panel.dataset.side = side;
    const toMove = !state.over && state.to_move === side;
    panel.classList.toggle("is-to-move", toMove);
    panel.setAttribute("aria-label", `${sideName(side)} player`);
    const top = el("div", "player-top");
    top.append(el("span", `can ${side}`));
    const name = el("span", "player-name", playerName(state, side));
    const extra = [];
    if (player.rating) extra.push(ratingWords(player));
    if (you === side) extra.push("you");
    if (extra.length) name.append(" ", el("small", "", `(${extra.join(", ")})`));
    const change = ratingChange(state, player);
    if (change) name.append(" ", change);
    top.append(name);
    if (toMove) top.append(el("span", "to-move-badge", "to move"));
    // The shell's clock for this side goes here in a timed game (live/clock.js).
    const clockSlot = el("span", "player-clock");
    clockSlot.dataset.clockSlot = side;
    top.append(clockSlot);
    const points = el("span", "player-points", String(state.points?.[side] ?? 0));
    points.dataset.points = side;
    points.append(el("small", "", " pts"));
    top.append(points);
    panel.append(top);

    // The cards and the shelf, one box: on a phone the viewer's own bar (name, clock, points)
    // sits right under the bay and these below the turn controls (game.css).
    const details = el("div", "player-details");
    const hand = el("ul", "hand");
    hand.setAttribute("aria-label", `${sideName(side)}'s cards`);
    const unused = new Set(state.cards?.[side] || []);
    for (const [card, cardName] of state.card_names || []) {
      const spent = !unused.has(card);
      const item = el("li", spent ? "is-spent" : "", cardName);
      item.dataset.card = card;
      if (spent) item.append(el("span", "visually-hidden", " (played)"));
      hand.append(item);
    }
    details.append(hand);

    const shelf = el("ul", "shelf");
    shelf.setAttribute("aria-label", `${sideName(side)}'s shelf`);
    for (const [shape, chit] of Object.entries(state.shelves?.[side] || {})) {
      const item = el("li", chit, shape);
      item.dataset.shape = shape;
      item.dataset.chit = chit;
      item.title = `${shape}: ${CHIT_WORD[chit]}`;
      item.setAttribute("aria-label", `${shape}: ${CHIT_WORD[chit]}`);
      shelf.append(item);
    }
    details.append(shelf);
    panel.append(details);
    container.append(panel);
  }
  const legend = el("p", "shelf-legend");
  legend.innerHTML =
    'Shelf: <span class="chit gold">Gold</span> first to complete (+2) · ' +
    '<span class="chit steel">Steel</span> second · ' +
    '<span class="chit rust">Rust</span> not yet (−2 at the Final Audit)';
  container.append(legend);
}

const RATING_WORDS = { elo: "Elo", openskill: "rating", vs_cargobot: "vs CargoBot rating", bot_level: "rated" };
const CHANGE_WORDS = { elo: "Elo rating", openskill: "Rating", vs_cargobot: "vs CargoBot rating" };

/** "Elo 1216", "vs CargoBot rating 1180", "rated 800" (CargoBot's level's fixed rating). */
export function ratingWords(player) {
  const label = RATING_WORDS[player.rating_kind];
  return label ? `${label} ${player.rating}` : String(player.rating);
}

const signedChange = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

/** Once the game is over: the rating's change in this game (+20 / −20), or null. */
export function ratingChange(state, player) {
  if (!state.over || player?.rating_change === null || player?.rating_change === undefined) {
    return null;
  }
  const n = player.rating_change;
  const chip = el("span", `rating-change ${n > 0 ? "up" : n < 0 ? "down" : "same"}`, signedChange(n));
  chip.dataset.ratingChange = String(n);
  const what = CHANGE_WORDS[player.rating_kind] ?? "Elo rating";
  chip.title = `${what} ${signedChange(n)} in this game`;
  return chip;
}

/** How the shift was cut short, if it was (`state.ending`, from the server, names every
 * ending: resigned, on time, left, end of day, aborted, voided); null when it was played out. */
function cutShort(state) {
  const ending = state.ending;
  return ending && ending.termination !== "played_out" ? ending : null;
}

const capital = (text) => text.replace(/^./, (c) => c.toUpperCase());

/** The line that ends a finished game's turn list: "1-0 · Orange resigned",
 * "1-0 · Orange ran out of time", "0-1 · Final Audit: Blue −3, Orange 5". */
export function resultLine(state) {
  if (state.voided) return `Voided · ${state.voided}`;
  if (!state.over) return null;
  const ending = cutShort(state);
  if (ending?.termination === "aborted") return ending.text;
  const winner = state.result ? state.result.winner : state.audit?.winner ?? null;
  const score = winner === "blue" ? "1-0" : winner === "orange" ? "0-1" : "½-½";
  if (ending?.termination === "abandoned") return `${score} · ${ending.text}`;
  if (ending?.reason) return `${score} · ${capital(ending.reason)}`;
  if (state.resigned) return `${score} · ${sideName(state.resigned)} resigned`;
  const points = state.result || {};
  const final =
    points.blue === undefined ? "" : `: Blue ${signed(points.blue)}, Orange ${signed(points.orange)}`;
  return `${score} · Final Audit${final}`;
}

/** When a cut-short shift's Final Audit was run, in words: "at the resignation". */
function auditMoment(ending) {
  const out = (ending.out || []).map(sideName).join(" and ");
  switch (ending.termination) {
    case "resigned":
      return "at the resignation";
    case "timed_out":
      return `when ${out}'s time ran out`;
    case "day_ended":
      return "when the day ended";
    case "abandoned":
      return "when the game was claimed";
    default:
      return "when the game ended";
  }
}

/** The turn list in notation, Blue's turns on the left and Orange's on the right. Every
 * turn has its own number (turn k is the k-th turn of the game, as the replay's "Turn k of
 * N" counts them; docs/accessibility.md); `result` (a line of words) ends a finished game's
 * list. */
export function renderTurnList(list, turns, { sides, current, onPick, result } = {}) {
  list.replaceChildren();
  const sideOf = (i) => sides?.[i] || (i % 2 === 0 ? "blue" : "orange");
  const twoSided = new Set(turns.map((_, i) => sideOf(i))).size > 1; // not a solo puzzle
  let column = 0; // the grid column the next item falls in: 0 Blue's, 1 Orange's
  turns.forEach((token, i) => {
    const side = sideOf(i);
    const place = twoSided ? (side === "blue" ? 0 : 1) : column;
    if (place !== column) list.append(el("span", "tok-gap")); // a side moved twice running
    column = 1 - place;
    const item = el(onPick ? "button" : "span", `tok ${side}`, token);
    item.dataset.ply = String(i);
    item.dataset.num = String(i + 1); // shown before the token by the style sheet
    if (onPick) {
      item.setAttribute("aria-label", `Turn ${i + 1}, ${sideName(side)}: ${token}`);
      item.type = "button";
      item.addEventListener("click", () => onPick(i + 1));
    }
    const isCurrent = current === undefined ? i === turns.length - 1 : i === current - 1;
    if (isCurrent) {
      item.classList.add("is-last");
      if (onPick) item.setAttribute("aria-current", "step");
    }
    list.append(item);
  });
  if (!turns.length && !result) list.append(el("p", "no-turns", "No turns yet"));
  if (result) {
    const line = el("p", "result-line", result);
    line.dataset.result = "";
    list.append(line);
  }
  scrollWithin(list, list.querySelector(".is-last"));
}

/** Scroll the list itself (never the page: on a phone the list is below the bay) so that
 * `item` shows. The list is the items' offset parent (position: relative). */
function scrollWithin(list, item) {
  if (!item) return;
  const top = item.offsetTop;
  const end = top + item.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (end > list.scrollTop + list.clientHeight) list.scrollTop = end - list.clientHeight;
}

const DECIDED = {
  gold: "scores tied: more Gold chits decided it",
  rust: "scores and Gold chits tied: fewer Rust penalties decided it",
  orange: "tied on score, Gold and Rust: Orange, who moved second, wins the final tiebreak",
  draw: "a draw (scores and Gold chits tied, rules before 0.92)",
};

const signed = (n) => (n < 0 ? `−${-n}` : String(n));

export function renderAudit(container, state) {
  container.replaceChildren();
  const audit = state.audit;
  // No Final Audit while the bay's shift goes on, nor when the site ended the game with
  // the shift unfinished (an abort, a draw called when the opponent left: no `result`).
  if (!state.over || (state.ending && !state.result)) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  container.append(el("h2", "", "Final Audit"));
  // An ending that cut the shift short (a resignation, a clock, a claim, the day's end)
  // decides the winner whatever the audit says: `result` has it, `ending` its words.
  const ending = cutShort(state);
  const winner = state.result ? state.result.winner : audit?.winner ?? null;
  let verdict = winner ? `${playerName(state, winner)} (${sideName(winner)}) wins` : "Draw";
  if (ending?.reason) verdict += ` — ${capital(ending.reason)}`;
  else if (state.resigned) verdict += ` — ${sideName(state.resigned)} resigned`;
  container.append(el("p", "verdict", verdict));
  if (!audit) return;
  // A tiebreak is named only when the scores tied: "score" means the final scores differed.
  if (ending) {
    container.append(el("p", "decided", `Scores as if the Final Audit ran ${auditMoment(ending)}.`));
  } else if (audit.decided_by !== "score" && DECIDED[audit.decided_by]) {
    container.append(el("p", "decided", `Tiebreak: ${DECIDED[audit.decided_by]}.`));
  }
  const table = el("table", "");
  const head = el("tr", "");
  const corner = el("td", "");
  head.append(corner, el("th", "", sideName("blue")), el("th", "", sideName("orange")));
  for (const th of head.querySelectorAll("th")) th.scope = "col";
  const thead = el("thead", "");
  thead.append(head);
  const body = el("tbody", "");
  const rows = [
    ["Points", (s) => signed(s.points)],
    ["Rust chits", (s) => String(s.rust)],
    ["Rust penalty", (s) => (s.penalty ? `−${Math.abs(s.penalty)}` : "0")],
    ["Gold chits", (s) => String(s.gold)],
    ["Final score", (s) => signed(s.final)],
  ];
  for (const [label, value] of rows) {
    const tr = el("tr", label === "Final score" ? "final" : "");
    const rowHead = el("th", "", label);
    rowHead.scope = "row";
    tr.append(rowHead);
    for (const side of SIDES) {
      const td = el("td", "", value(audit[side]));
      td.dataset.side = side;
      tr.append(td);
    }
    body.append(tr);
  }
  const changes = SIDES.map((side) => state.players?.[side]).filter((p) => ratingChange(state, p));
  if (changes.length) {
    const tr = el("tr", "rating-row");
    const system = changes.find((p) => p.rating_kind === "vs_cargobot")?.rating_kind ?? changes[0].rating_kind;
    tr.append(el("th", "", CHANGE_WORDS[system] ?? "Elo rating"));
    for (const side of SIDES) {
      const player = state.players?.[side];
      const chip = ratingChange(state, player);
      const td = el("td", "", chip ? `${player.rating} ` : "—");
      td.dataset.side = side;
      if (chip) td.append(chip);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(thead, body);
  container.append(table);
}

/** One sentence about a turn, for the aria-live region and the message line. */
export function describeTurn(side, token, events) {
  const who = sideName(side);
  const parts = [];
  for (const event of events || []) {
    switch (event.type) {
      case "drop":
        parts.push(`${who} dropped into column ${event.cell[0]} (${event.cell})`);
        break;
      case "rotate":
        parts.push(`${who} rotated the bay ${event.direction}`);
        break;
      case "lockdown":
        parts.push(
          event.locked
            ? `${who} MagLocked ${corridorWords(event.locked)}`
            : `${who} released the MagLock on ${corridorWords(event.corridor)}`,
        );
        break;
      case "purge":
        parts.push(`${who} purged ${corridorWords(event.corridor)}`);
        break;
      case "damage":
        parts.push(`${who} damaged ${event.cells.join(" and ")}`);
        break;
      case "reroute":
        parts.push(`${who} re-routed the core at ${event.cell}`);
        break;
      case "pass":
        parts.push(`${who} passed`);
        break;
      case "unload": {
        const chit = event.chit ? ` and the ${event.chit === "gold" ? "Gold" : "Steel"} chit` : "";
        parts.push(
          `unloaded ${"OISL".includes(event.shape) ? "an" : "a"} ${event.shape} (${splitCells(event.cells).join(" ")}) for ${event.value}${chit}`,
        );
        break;
      }
      case "over":
        parts.push("the shift is over");
        break;
      default:
        break;
    }
  }
  if (!parts.length) return `${who} played ${token}`;
  return `${parts.join(", ")}.`.replace(/^./, (c) => c.toUpperCase());
}
