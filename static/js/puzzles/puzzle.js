// A Weekly Puzzle's page: the bay, Blue's hand and shelf, the goal and turns left; each turn
// goes to the server, which applies it with the engine and answers the events and the state
// after them. Undo and retry replay the attempt's turns on the server; the solution line can
// be stepped through. The bay and the turn controls are Cargo Connect's own modules.
// Nothing here decides a rule: the page offers exactly `state.legal` / `state.options`.
import { Bay } from "../cargo-connect/board.js";
import { TurnControls } from "../cargo-connect/controls.js";
import { describeTurn, renderTurnList } from "../cargo-connect/panels.js";
import { el, readJson } from "../live/dom.js";
import { guestEntry, loadAttempt, postJson, saveAttempt, updateGuest } from "./storage.js";

const root = document.querySelector("[data-puzzle-page]");
const $ = (selector) => root.querySelector(selector);
const page = readJson("puzzle-page");
const startState = readJson("puzzle-state");
const csrf = root.dataset.csrf;
const CHIT = { gold: "Gold chit: completed first", steel: "Steel chit: completed before" };

let state = startState;
let busy = false;
let stepping = null; // {steps, at} while the solution is shown
const bay = new Bay($("[data-bay]"), state.size);
const controls = new TurnControls($("[data-controls]"), bay, { onSend: sendTurn });

const progress = () => (page.member ? page.progress : guestEntry(page.puzzle));
const wasShown = () => Boolean(progress()?.shown);
const isSolved = () => (page.member ? page.progress?.solved : Boolean(guestEntry(page.puzzle)?.proof));

function message(text, error = false) {
  const line = $("[data-message]");
  line.textContent = text || "";
  line.classList.toggle("is-error", error);
}

function drawBlue(s) {
  const panel = $("[data-blue]");
  panel.replaceChildren();
  const top = el("div", "player-top");
  top.append(el("span", "can blue"), el("span", "player-name", "Blue (you)"));
  const points = el("span", "player-points", String(s.points.blue));
  points.dataset.points = "blue";
  points.append(el("small", "", " pts"));
  top.append(points);
  panel.append(top);
  const held = new Set(startState.cards.blue);
  const hand = el("ul", "hand");
  hand.setAttribute("aria-label", "Blue's cards");
  const now = new Set(s.cards.blue);
  for (const [card, name] of s.card_names) {
    if (!held.has(card)) continue;
    const item = el("li", now.has(card) ? "" : "is-spent", name);
    item.dataset.card = card;
    if (!now.has(card)) item.setAttribute("aria-label", `${name} (played)`);
    hand.append(item);
  }
  if (!held.size) hand.append(el("li", "is-empty", "No cards"));
  panel.append(hand);
  const shelf = el("ul", "shelf");
  shelf.setAttribute("aria-label", "Blue's shelf: shapes already completed");
  for (const [shape, chit] of Object.entries(s.shelves.blue)) {
    if (chit === "rust") continue;
    const item = el("li", chit, shape);
    item.dataset.shape = shape;
    item.title = `${shape}: ${CHIT[chit]}`;
    item.setAttribute("aria-label", `${shape}: ${CHIT[chit]}`);
    shelf.append(item);
  }
  if (!shelf.children.length) shelf.append(el("li", "is-empty", "No shapes yet"));
  panel.append(el("h2", "shelf-title", "Shelf"), shelf); // the panel has no heading above it
  panel.append(el("p", "shelf-legend", "A shape on the shelf scores its value only (no Gold bonus)."));
}

function statusText(s) {
  const p = s.puzzle;
  if (p.status === "solved") return `Solved in ${s.turns.length} turn${s.turns.length === 1 ? "" : "s"}!`;
  if (p.status === "out_of_turns") {
    return p.turns_left ? "Out of turns: no turn can be taken." : "Out of turns: the goal was not met.";
  }
  return `Turn ${s.turns.length + 1} of ${p.limit} · ${p.turns_left} turn${p.turns_left === 1 ? "" : "s"} left`;
}

function drawProgress() {
  const info = $("[data-attempt-info]");
  const p = progress();
  const parts = [];
  if (p?.attempts) parts.push(`Attempts so far: ${p.attempts}.`);
  if (isSolved()) parts.push(`You solved it${p.solved_in ? ` in ${p.solved_in} attempt${p.solved_in === 1 ? "" : "s"}` : ""}.`);
  if (!page.member) parts.push("Kept in this browser.");
  info.textContent = parts.join(" ") || "No attempt yet.";
}

function drawResult() {
  const panel = $("[data-result]");
  const status = state.puzzle.status;
  panel.hidden = status === "playing";
  panel.replaceChildren();
  if (status === "solved") {
    panel.append(el("h2", "", "Solved"), el("p", "", `${state.puzzle.goal_words.replace(/\.$/, "")}: done in ${state.turns.length}.`));
  } else if (status === "out_of_turns") {
    panel.append(el("h2", "", "Out of turns"), el("p", "", "Undo the last turn, retry, show the solution, or review the attempt."));
  }
  if (status !== "playing") {
    // Only a finished attempt is reviewed (the server refuses one in progress), so the
    // review cannot give the solution away mid-attempt.
    const review = el("button", "btn", "Review this attempt");
    review.type = "button";
    review.dataset.review = "";
    review.addEventListener("click", reviewAttempt);
    const actions = el("p", "puzzle-actions");
    actions.append(review);
    panel.append(actions);
  }
}

async function reviewAttempt() {
  const failed = state.puzzle.status !== "solved";
  if (failed && !isSolved() && !wasShown()
      && !window.confirm("The review shows the solver's line: solving afterwards will not count in the puzzle's figures.")) return;
  const { ok, data } = await postJson(page.urls.review, { tokens: state.turns }, csrf);
  if (!ok) {
    message(data.error || "Could not review the attempt.", true);
    return;
  }
  if (page.member) page.progress = data.progress;
  else if (data.shown) updateGuest(page.puzzle, page.date, (entry) => { if (!entry.proof) entry.shown = true; });
  window.location.assign(data.url);
}

function drawGoalProgress(s) {
  const line = $("[data-goal-progress]"); // "Gained 3 of 7 points." (score and AppCon goals)
  if (line) line.textContent = s.puzzle.progress_words || "";
}

function draw(animateEvents) {
  $("[data-status-line]").textContent = statusText(state);
  drawGoalProgress(state);
  drawBlue(state);
  renderTurnList($("[data-turns]"), state.turns, { sides: state.turns.map(() => "blue") });
  $("[data-undo]").disabled = busy || !state.turns.length;
  $("[data-retry]").disabled = busy || !state.turns.length;
  drawProgress();
  drawResult();
  if (!animateEvents) bay.render(state.rows, state.lock);
  controls.update(state, "blue", !busy && !stepping && state.puzzle.status === "playing");
}

async function sendTurn(token) {
  if (busy) return;
  busy = true;
  const before = state;
  const { ok, data } = await postJson(page.urls.turn, { tokens: before.turns, token, shown: wasShown() }, csrf);
  if (!ok) {
    busy = false;
    message(data.error || "The turn was refused.", true);
    state = before;
    draw(false);
    return;
  }
  bay.render(before.rows, before.lock);
  state = data.state;
  saveAttempt(page.puzzle, page.member, state.turns);
  if (page.member) {
    page.progress = data.progress;
  } else {
    updateGuest(page.puzzle, page.date, (entry) => {
      if (!before.turns.length) entry.attempts += 1;
      if (data.proof && !entry.proof) {
        entry.proof = data.proof;
        entry.solved_in = Math.max(entry.attempts, 1);
      }
    });
  }
  const events = (data.events || []).filter((e) => e.type !== "over");
  const words = describeTurn("blue", token, events);
  message(words);
  $("[data-announce]").textContent = `${words} ${statusText(state)}`;
  await bay.playTurn(data.events || [], state.rows, state.lock);
  busy = false;
  draw(true);
  if (data.figures) drawFigures(data.figures);
}

async function replayTo(tokens) {
  busy = true;
  draw(true);
  const { ok, data } = await postJson(page.urls.state, { tokens }, csrf);
  busy = false;
  if (!ok) {
    message(data.error || "Could not go back.", true);
    saveAttempt(page.puzzle, page.member, []);
    state = startState;
  } else {
    state = data.state;
    saveAttempt(page.puzzle, page.member, state.turns);
  }
  draw(false);
}

function drawFigures(figures) {
  const panel = $("[data-figures]");
  panel.hidden = false;
  panel.replaceChildren(el("h2", "", "How others did"));
  if (!figures.solvers) {
    // The figures count members' solves made before seeing the solution; a guest's solve
    // counts once merged into an account.
    const first = page.member && !page.progress?.shown;
    panel.append(el("p", "", first ? "You are the first member to solve it."
      : page.member ? "No member has solved it before seeing the solution yet."
        : "No member has solved it yet. Your solve counts once you sign up (or sign in) and merge this browser's progress."));
    return;
  }
  const n = figures.solvers;
  panel.append(el("p", "", `Solved by ${n} player${n === 1 ? "" : "s"} (signed in, before seeing the solution), in ${figures.average_attempts} attempts on average.`));
  const list = el("ul", "attempt-figures");
  for (const [attempts, count] of figures.attempts) {
    list.append(el("li", "", `${attempts} attempt${attempts === 1 ? "" : "s"}: ${count}`));
  }
  panel.append(list);
  if (figures.first_turn) {
    panel.append(el("p", "", `Most common first turn: ${figures.first_turn} (${figures.first_turn_share}% of solvers).`));
  }
}

function drawStep() {
  const { steps, at } = stepping;
  const panel = $("[data-solution]");
  panel.hidden = false;
  panel.replaceChildren(el("h2", "", "The solver's line"));
  const line = el("div", "turn-list solution-line");
  steps.slice(1).forEach((step, i) => {
    const b = el("button", `tok blue${i + 1 === at ? " is-last" : ""}`, step.token);
    b.type = "button";
    b.addEventListener("click", () => showStep(i + 1, false));
    line.append(b);
  });
  panel.append(line);
  const nav = el("p", "puzzle-actions");
  const back = el("button", "btn", "◀ Back");
  back.type = "button";
  back.disabled = at === 0;
  back.addEventListener("click", () => showStep(at - 1, false));
  const next = el("button", "btn", "Next ▶");
  next.type = "button";
  next.dataset.step = "next";
  next.disabled = at === steps.length - 1;
  next.addEventListener("click", () => showStep(at + 1, true));
  const done = el("button", "btn", "Back to my attempt");
  done.type = "button";
  done.addEventListener("click", () => {
    stepping = null;
    panel.hidden = true;
    draw(false);
  });
  nav.append(back, next, done);
  panel.append(nav, el("p", "", at ? `Step ${at} of ${steps.length - 1}: ${statusText(steps[at].state)}` : "The Start."));
}

async function showStep(at, animate) {
  const prev = stepping.steps[stepping.at].state;
  stepping.at = at;
  const step = stepping.steps[at];
  drawStep();
  $("[data-status-line]").textContent = "Showing the solution";
  if (animate) {
    bay.render(prev.rows, prev.lock);
    await bay.playTurn(step.events, step.state.rows, step.state.lock);
  } else {
    bay.render(step.state.rows, step.state.lock);
  }
  drawBlue(step.state);
  drawGoalProgress(step.state);
}

async function showSolution() {
  if (!isSolved() && !wasShown()
      && !window.confirm("Show the solution? Solving afterwards will not count in the puzzle's figures.")) return;
  const { ok, data } = await postJson(page.urls.solution, {}, csrf);
  if (!ok) {
    message(data.error || "Could not load the solution.", true);
    return;
  }
  if (page.member) page.progress = data.progress;
  else updateGuest(page.puzzle, page.date, (entry) => { entry.shown = true; });
  stepping = { steps: data.steps, at: 0 };
  controls.update(state, "blue", false);
  await showStep(0, false);
}

$("[data-undo]").addEventListener("click", () => replayTo(state.turns.slice(0, -1)));
$("[data-retry]").addEventListener("click", () => {
  saveAttempt(page.puzzle, page.member, []);
  state = startState;
  message("A new attempt: the bay is back at the Start.");
  draw(false);
});
$("[data-show-solution]").addEventListener("click", showSolution);

async function start() {
  draw(false);
  const saved = loadAttempt(page.puzzle, page.member);
  if (saved.length) await replayTo(saved);
  if (page.figures) drawFigures(page.figures);
  else if (!page.member && guestEntry(page.puzzle)?.proof) {
    const { ok, data } = await postJson(page.urls.figures, { proof: guestEntry(page.puzzle).proof }, csrf);
    if (ok) drawFigures(data.figures);
  }
}

window.cargoPuzzle = { get state() { return state; }, bay };
start();
