// Cargo Express's panels: the round's facts in the middle of the track, the character
// cards and their holders, one panel per seat (engine, train, yard, contracts, cards,
// character, score), the viewer's own secrets (hand, stack, open contracts), the final
// scoring and the log of the round. Each draws what the state says, nothing more.
import { el } from "../live/dom.js";
import { carsNode, locomotiveNode } from "./board.js";
import {
  CHARACTERS,
  CHARACTER_HELP,
  PHASE_WORDS,
  carsWords,
  changeText,
  contractWords,
  listWords,
  playedByWords,
  ratingText,
  seatLabel,
  seatName,
  seatParts,
  waitingWords,
} from "./words.js";

const CAPACITY = { A: 1, B: 2, C: 3, D: 4 }; // only a fallback for the words; the state's `capacity` wins

/** The middle of the ring: round, phase, stationmaster, bag and deck. */
export function centreNode(state) {
  const box = el("div", "xp-facts");
  const round = el("p", "xp-round", `Round ${state.round ?? "–"}${state.last_round ? " (last round)" : ""}`);
  const phase = el("p", "xp-phase", PHASE_WORDS[state.phase] || state.phase || "");
  box.append(round, phase);
  if (state.stationmaster !== null && state.stationmaster !== undefined) {
    const sm = el("p", "xp-stationmaster");
    sm.append(locomotiveNode(state.stationmaster), document.createTextNode(` Stationmaster: ${seatLabel(state, state.stationmaster)}`));
    box.append(sm);
  }
  const stock = el("p", "xp-stock", `Bag ${state.bag ?? "?"}${state.bag_empty ? " (empty)" : ""} · Deck ${state.deck ?? "?"}`);
  box.append(stock);
  return box;
}

/** The status of the round, in a sentence (who the table waits for). */
export function statusWords(state) {
  if (state.over) return "";
  const phase = PHASE_WORDS[state.phase] || "";
  const turn = state.turn;
  let text = `Round ${state.round} · ${phase}`;
  if (state.phase === "turn" && turn) {
    text += `: ${seatName(state, turn.seat)}'s turn ${turn.number} of ${turn.of}, card ${turn.card}`;
  }
  const waiting = waitingWords(state);
  return waiting ? `${text}. ${waiting}.` : `${text}.`;
}

export function renderCharacters(container, state) {
  container.replaceChildren(el("h2", "", "Characters"));
  const list = el("ul", "xp-characters");
  for (const ch of state.characters || []) {
    const item = el("li", "xp-character");
    item.dataset.character = ch.key;
    const name = el("strong", "", ch.name || CHARACTERS[ch.key] || ch.key);
    const holder = ch.holder === null || ch.holder === undefined
      ? el("span", "xp-holder", "on the board")
      : el("span", "xp-holder", `held by ${seatName(state, ch.holder)}`);
    if (ch.holder !== null && ch.holder !== undefined) {
      item.classList.add("is-held", `xp-held-${ch.holder + 1}`);
      holder.prepend(locomotiveNode(ch.holder));
    }
    item.append(name, holder, el("span", "xp-help", CHARACTER_HELP[ch.key] || ""));
    if (ch.key === "Dr" && ch.used) item.append(el("span", "xp-used", "used this round (face down)"));
    list.append(item);
  }
  container.append(list);
}

function cardsWords(state, part, i) {
  const mine = i === state.viewer;
  if (state.phase === "plan" || state.phase === "pick") {
    if (part.plan?.length) return `${mine ? "9 cards, 3 committed" : "3 face down"}: ${part.plan.join(", ")}`;
    if (part.committed) return mine ? "9 cards, 3 committed" : "ready: 3 face down";
    return state.phase === "plan" ? "planning…" : "9 cards";
  }
  if (state.phase === "turn") {
    const face = part.stack ?? 0;
    const played = part.played?.length ? `; played ${part.played.join(", ")}` : "";
    if (part.plan?.length) return `${face} face down (${part.plan.join(", ")})${played}`;
    return `${face} face down${played}`;
  }
  return part.played?.length ? `played ${part.played.join(", ")}` : "9 cards";
}

function row(term, value) {
  const wrap = el("div", "xp-row");
  wrap.append(el("dt", "", term));
  const dd = el("dd");
  if (typeof value === "string") dd.textContent = value;
  else dd.append(value);
  wrap.append(dd);
  return wrap;
}

function carsValue(cars, spots = 0) {
  const span = el("span", "xp-cars-value");
  span.append(carsNode(cars || "", { spots }), el("span", "xp-cars-words", cars ? carsWords(cars) : "none"));
  return span;
}

/** A seat's rating as the server gave it ("1200", "?" when provisional) and, once a
 * rated game is over, its change in the game ("+75"); null when it shows none. */
export function ratingNode(state, i) {
  const seat = state.seats?.[i];
  const text = ratingText(seat);
  if (text === null) return null;
  const box = el("span", "xp-rating");
  box.dataset.rating = String(seat.rating);
  box.append(el("span", "visually-hidden", "rating "), String(seat.rating));
  if (seat.rating_provisional) {
    const mark = el("abbr", "provisional", "?");
    mark.title = "provisional: too few games to be sure yet";
    box.append(mark);
  }
  const change = changeText(state, seat);
  if (change !== null) {
    const n = seat.rating_change;
    const chip = el("span", `rating-change ${n > 0 ? "up" : n < 0 ? "down" : "same"}`, change);
    chip.dataset.ratingChange = String(n);
    chip.title = `Rating ${change} in this game`;
    box.append(" ", chip);
  }
  return box;
}

function seatPanel(state, part, i) {
  const seat = state.seats?.[i] || {};
  const box = el("section", `xp-seat-panel xp-panel-${i + 1}`);
  box.dataset.seat = String(i);
  const head = el("h3", "xp-seat-head");
  head.append(locomotiveNode(i), el("span", "", seatName(state, i)));
  const rating = ratingNode(state, i);
  if (rating) head.append(rating);
  if (i === state.viewer) head.append(el("span", "xp-badge", "you"));
  if (state.stationmaster === i) head.append(el("span", "xp-badge", "stationmaster"));
  if ((state.acting || []).includes(i) && !state.over) head.append(el("span", "xp-badge xp-acting", "to decide"));
  if (part.dormant) head.append(el("span", "xp-badge", "dormant"));
  box.setAttribute("aria-label", seatName(state, i));
  const clock = el("span", "xp-clock-slot");
  if (seat.side) clock.dataset.clockSlot = seat.side;
  head.append(clock);
  box.append(head);
  const playedBy = playedByWords(seat);
  if (playedBy) {
    const line = el("p", "xp-played-by", playedBy.replace(/^./, (c) => c.toUpperCase()));
    line.dataset.playedBy = seat.left?.bot || "";
    box.append(line);
  }
  const facts = el("dl", "xp-facts-list");
  const cap = part.capacity ?? CAPACITY[part.engine];
  facts.append(row("Engine", part.engine ? `${part.engine}, ${cap} ${cap === 1 ? "car" : "cars"} at most` : "–"));
  facts.append(row("Train", carsValue(part.train, cap)));
  facts.append(row("Yard", carsValue(part.yard)));
  const done = (part.fulfilled || []).map((c) => `${c.id} (${carsWords(c.cars)}, ${c.value})`);
  facts.append(row("Fulfilled", done.length ? done.join("; ") : "none"));
  const open = part.open ? ` (${part.open.join(", ") || "none"})` : "";
  facts.append(row("Open contracts", `${part.open_count ?? part.open?.length ?? 0}${open}`));
  facts.append(row("Character", part.character ? CHARACTERS[part.character] || part.character : "none"));
  const cards = row("Cards", cardsWords(state, part, i));
  cards.dataset.cards = "";
  facts.append(cards);
  if (part.score) facts.append(row("Score now", `${part.score.total}`));
  box.append(facts);
  return box;
}

export function renderSeats(container, state) {
  container.replaceChildren(el("h2", "", "Seats"));
  const list = el("div", "xp-seat-list");
  seatParts(state).forEach((part, i) => list.append(seatPanel(state, part, i)));
  container.append(list);
}

/** Your own hand, stack and open contracts: only the viewer's seat has them. */
export function renderMine(container, state) {
  const part = seatParts(state)[state.viewer];
  container.hidden = !part || state.viewer === null || state.viewer === undefined;
  if (container.hidden) return;
  container.replaceChildren(el("h2", "", "Only you see this"));
  const facts = el("dl", "xp-facts-list");
  facts.append(row("Your stack", part.plan?.length ? part.plan.join(", ") + " (top first)" : "none"));
  facts.append(row("Your hand", part.hand?.length ? part.hand.join(", ") : "–"));
  const open = (part.open || []).map((id) => contractWords(state, id));
  facts.append(row("Your open contracts", open.length ? open.join("; ") : "none"));
  if (state.drawn?.length) {
    facts.append(row("Drawn", state.drawn.map((id) => contractWords(state, id)).join("; ")));
  }
  container.append(facts);
}

/** One seat's final scoring as [label, value] pairs, in the table's column order after
 * the seat itself: what both the table (wide screens) and the cards (phones) show. A
 * value is text, or a node (the rating). The place is the site's (`seats[i].place`: a
 * seat whose holder left is placed last, games.turns.finish), else the rules'. */
export function scoreItems(result, i, state = {}) {
  const b = result.breakdown[i];
  const contracts = (b.contracts || []).map((c) => `${c.id}: ${c.value}`).join(", ") || "none";
  const open = (b.open || []).length ? `${b.open_penalty} (${b.open.join(", ")})` : String(b.open_penalty ?? 0);
  const items = [
    ["Place", ordinal(state.seats?.[i]?.place ?? result.places?.[i])],
    ["Total", String(b.total)],
    ["Cars", String(b.cars)],
    ["Sets of 5", String(b.sets)],
    ["Set bonus", `+${b.set_points ?? 0}`],
    ["Contracts", contracts],
    ["Open", open],
    ["Tie-break cars", String(b.tiebreak)], // rule 69: scored cars and those on the train
  ];
  if (rated(state)) items.push(["Rating", ratingNode(state, i) || "—"]);
  return items;
}

/** Did this game move ratings (a seat's change in the state)? Then the scoring says each. */
const rated = (state) => Boolean(state.over && (state.seats || []).some((seat) =>
  seat.rating_change !== null && seat.rating_change !== undefined));

const WIDE_CELLS = new Set(["Contracts", "Open"]);

function cell(tag, className, value) {
  const node = el(tag, className);
  if (typeof value === "string") node.textContent = value;
  else node.append(value);
  return node;
}

function scoresTable(state, result) {
  const table = el("table", "xp-scores");
  const head = el("tr");
  for (const h of ["Seat", ...scoreItems(result, 0, state).map(([label]) => label)]) {
    const th = el("th", "", h);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  result.breakdown.forEach((_, i) => {
    const tr = el("tr");
    tr.dataset.seat = String(i);
    const th = el("th", "", seatName(state, i));
    th.scope = "row";
    const playedBy = playedByWords(state.seats?.[i]);
    if (playedBy) th.append(el("span", "xp-score-left", playedBy));
    tr.append(th, ...scoreItems(result, i, state).map(([label, value]) =>
      cell("td", label === "Total" ? "xp-total" : WIDE_CELLS.has(label) ? "xp-wrap" : "", value)));
    body.append(tr);
  });
  table.append(thead, body);
  const wrap = el("div", "xp-table-wrap xp-score-table");
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "Final scoring table");
  wrap.tabIndex = 0;
  wrap.append(table);
  return wrap;
}

/** Phones: a card per seat, in the order of the places, each a list of its items. */
function scoresCards(state, result) {
  const list = el("ol", "xp-score-cards");
  list.setAttribute("aria-label", "Final scoring by seat");
  const place = (i) => state.seats?.[i]?.place ?? result.places?.[i] ?? 9;
  const order = result.breakdown.map((_, i) => i).sort((a, b) => place(a) - place(b) || a - b);
  for (const i of order) {
    const items = scoreItems(result, i, state);
    const card = el("li", `xp-score-card xp-panel-${i + 1}`);
    card.dataset.seat = String(i);
    const head = el("p", "xp-score-head");
    head.append(el("span", "xp-score-place", items[0][1]), locomotiveNode(i),
      el("span", "xp-score-name", seatName(state, i)), el("strong", "xp-total", `${items[1][1]} points`));
    const facts = el("dl", "xp-score-items");
    const playedBy = playedByWords(state.seats?.[i]);
    if (playedBy) facts.append(row("Note", playedBy));
    for (const [label, value] of items.slice(2)) facts.append(row(label, value));
    card.append(head, facts);
    list.append(card);
  }
  return list;
}

/** A game the site ended before the rules did (the last person at the table left, on
 * the standings: docs/express-site.md) has no result of the rules: its scoring is each
 * seat's score when it ended, from the state's areas, and the site's places. */
function standings(state) {
  const seats = state.seats || [];
  if (!state.over || !seats.some((seat) => seat.place)) return null;
  const parts = seatParts(state);
  const breakdown = parts.map((part) => {
    const score = part.score || {};
    return {
      cars: score.cars, sets: score.sets, set_points: score.set_points,
      contracts: (part.fulfilled || []).map((c) => ({ id: c.id, value: c.value })),
      open: part.open || [], open_penalty: score.open_penalty, total: score.total,
      tiebreak: score.tiebreak,
    };
  });
  const winners = seats.filter((seat) => seat.place === 1).map((seat) => seat.seat);
  return { breakdown, places: seats.map((seat) => seat.place), winners, standings: true };
}

/** The final scoring, broken down per seat, and the places: a table on wide screens, a
 * card per seat on phones (the CSS shows one of the two; the other is out of the
 * accessibility tree too), so no phone scrolls sideways past the total. With the rating
 * of each seat and its change when the game was rated. */
export function renderScores(container, state, { heading = "h2" } = {}) {
  const result = state.result || standings(state);
  container.hidden = !result;
  if (!result) return;
  container.replaceChildren(el(heading, "", result.standings ? "Final standings" : "Final scoring"));
  if (result.standings) {
    container.append(el("p", "xp-hint", "The game ended before its last round, when the last person at the table left: the scores are those of that moment. Seats no one left come first, by score; then the seats whose players left, the later one left the better."));
  }
  if (result.breakdown?.length) {
    container.append(scoresTable(state, result), scoresCards(state, result));
  }
  container.append(el("p", "xp-hint", "Each car scores 1 and each full set of the five colours 5 more; then each fulfilled contract's value, and −2 for each contract still open. A tie goes to the seat with more cars, counting those still on its train too (tie-break cars)."));
  const winners = firstPlaces(state, result).map((i) => seatName(state, i));
  if (winners.length) container.append(el("p", "xp-winners", `First place: ${listWords(winners)}.`));
}

/** The seats in first place: the site's places (a seat whose holder left is never
 * first while one no one left is), else the rules' winners. */
export function firstPlaces(state, result) {
  const firsts = (state.seats || []).filter((seat) => seat.place === 1).map((seat) => seat.seat);
  return firsts.length ? firsts : result?.winners || [];
}

export function ordinal(n) {
  if (!n) return "";
  return { 1: "1st", 2: "2nd", 3: "3rd" }[n] || `${n}th`;
}

/** The log of the round, newest last. */
export function renderLog(container, lines) {
  const list = container.querySelector("ol") || container.appendChild(el("ol", "xp-log"));
  list.replaceChildren(...(lines.length ? lines : ["Nothing yet this round."]).map((line) => el("li", "", line)));
}

/** The seed's hash while the game goes on, the seed after it. */
export function renderSeed(container, state) {
  if (!container) return;
  container.replaceChildren();
  if (state.seed_hash) {
    container.append(el("span", "", "Seed hash "), el("code", "xp-hash", state.seed_hash));
  }
  if (state.seed) container.append(el("span", "", " · seed "), el("code", "", state.seed));
}
