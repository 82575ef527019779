// Cargo Express's replay (`replay_module`), mounted by static/js/live/replay.js on the replay
// page's #replay with the replay built for this viewer (games.history.replay_data): each
// state is what that viewer could see then (everything, once the game is over, unless the
// page asked for one seat's view). Steps forward animate the decision's events on the track.
import { el } from "../live/dom.js";
import { bindStepping } from "../live/stepping.js";
import { Track, touchedSpaces } from "./board.js";
import { drawParts, frameWords } from "./view.js";
import { seatName } from "./words.js";

export function mountReplay(root, data) {
  const { states, turns } = data;
  const last = states.length - 1;
  const $ = (selector) => root.querySelector(selector);
  const track = new Track($("[data-track]"));
  let at = last;
  let busy = Promise.resolve();

  const turnText = (k) => {
    const turn = turns[k - 1];
    if (!turn) return "Before the first decision.";
    const words = frameWords(states[k], turn.events).join(" ");
    return `${k}. ${seatName(states[k], turn.seat)}: ${turn.token}. ${words}`.trim();
  };

  function drawList() {
    const list = $("[data-turns]");
    list.replaceChildren();
    turns.forEach((turn, k) => {
      const item = el("li");
      const button = el("button", "link-button", `${states[k + 1]?.seats?.[turn.seat]?.label || `Seat ${turn.seat + 1}`}: ${turn.token}`);
      button.type = "button";
      if (k + 1 === at) button.setAttribute("aria-current", "step");
      button.addEventListener("click", () => go(k + 1));
      item.append(button);
      list.append(item);
    });
  }

  function panels() {
    const state = states[at];
    drawParts(root, state, { track });
    track.setMarked(touchedSpaces(turns[at - 1]?.events));
    $("[data-ply]").textContent = `Decision ${at} of ${last}`;
    $("[data-first]").disabled = $("[data-prev]").disabled = at === 0;
    $("[data-next]").disabled = $("[data-last]").disabled = at === last;
    const text = turnText(at);
    $("[data-message]").textContent = text;
    $("[data-announce]").textContent = text;
    drawList();
    const round = state.round;
    $("[data-round-at]").textContent = `Round ${round}`;
    $("[data-round-prev]").disabled = roundStart(round - 1) === null && roundStart(round) === at;
    $("[data-round-next]").disabled = roundStart(round + 1) === null;
  }

  // The first decision of round `r` (the state where it begins), or null.
  function roundStart(r) {
    const k = states.findIndex((s) => s.round === r);
    return k < 0 ? null : k;
  }

  function jumpRound(delta) {
    const r = states[at].round;
    const start = roundStart(r);
    if (delta < 0 && start !== null && start < at) return go(start);
    const k = roundStart(r + delta);
    if (k !== null) go(k);
  }

  function go(k) {
    k = Math.max(0, Math.min(last, k));
    busy = busy.then(async () => {
      if (k === at) return;
      if (k === at + 1) await track.play(turns[at].events || [], states[at]);
      at = k;
      panels();
    }).catch((error) => console.error(error));
    return busy;
  }

  const seenAs = $("[data-seen-as]");
  if (seenAs) {
    seenAs.textContent = data.everything
      ? "Everything: every plan, hand and contract, as the record has them."
      : data.viewer !== null && data.viewer !== undefined
        ? `As ${seatName(states[0], data.viewer)} saw it.`
        : "As a spectator sees it.";
  }
  panels();
  bindStepping(root, go, () => at, last);
  $("[data-round-prev]").addEventListener("click", () => jumpRound(-1));
  $("[data-round-next]").addEventListener("click", () => jumpRound(1));
  const handle = { go, get at() { return at; } };
  window.expressReplay = handle;
  return handle;
}
