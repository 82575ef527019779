// The test-only Bid kind's replay (`replay_module`), mounted by static/js/live/replay.js on
// the replay page's #replay with the replay built for this viewer: each state's bids are
// what that viewer could see then ("?" for a bid still hidden from them).
import { bidText } from "./view.js";

export function mountReplay(root, data) {
  const { states, turns } = data;
  const last = states.length - 1;
  const $ = (selector) => root.querySelector(selector);
  let at = last;

  const label = (state, i) => state.seats?.[i]?.label || `Seat ${i + 1}`;

  function draw() {
    const state = states[at];
    const body = $("[data-bids] tbody");
    body.replaceChildren();
    (state.seats || []).forEach((seat, i) => {
      const row = document.createElement("tr");
      row.dataset.seat = String(i);
      const head = document.createElement("th");
      head.scope = "row";
      head.textContent = `${seat.label}${seat.name ? ` (${seat.name})` : ""}`;
      const bid = state.bids?.[i];
      const cell = document.createElement("td");
      cell.dataset.bid = bid ?? "";
      cell.textContent = bid === null || bid === undefined ? "" : bid === "?" ? "ready (hidden)" : bidText(bid);
      const score = document.createElement("td");
      score.textContent = String(state.scores?.[i] ?? 0);
      row.append(head, cell, score);
      body.append(row);
    });
    $("[data-round]").textContent = state.over ? "Final scores" : `Round ${state.round} of ${state.rounds}`;
    $("[data-ply]").textContent = `Bid ${at} of ${last}`;
    $("[data-first]").disabled = $("[data-prev]").disabled = at === 0;
    $("[data-next]").disabled = $("[data-last]").disabled = at === last;
    const turn = turns[at - 1];
    const text = turn ? `${at}. ${label(state, turn.seat)}: ${turn.token === "?" ? "a hidden bid" : `bid ${bidText(turn.token)}`}` : "Before the first bid.";
    $("[data-message]").textContent = text;
    $("[data-announce]").textContent = text;
    const list = $("[data-turns]");
    list.replaceChildren();
    turns.forEach((t, k) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link-button";
      button.textContent = `${label(state, t.seat)} ${t.token}`;
      if (k + 1 === at) button.setAttribute("aria-current", "step");
      button.addEventListener("click", () => go(k + 1));
      item.append(button);
      list.append(item);
    });
  }

  function go(k) {
    at = Math.max(0, Math.min(last, k));
    draw();
  }

  const seenAs = $("[data-seen-as]");
  if (seenAs) {
    seenAs.textContent = data.everything
      ? "Every bid, as the game ended."
      : data.viewer !== null && data.viewer !== undefined
        ? `As ${label(states[0], data.viewer)} saw it.`
        : "As a spectator saw it.";
  }
  $("[data-first]").addEventListener("click", () => go(0));
  $("[data-prev]").addEventListener("click", () => go(at - 1));
  $("[data-next]").addEventListener("click", () => go(at + 1));
  $("[data-last]").addEventListener("click", () => go(last));
  draw();
  const handle = { go, get at() { return at; } };
  window.bidReplay = handle;
  return handle;
}
