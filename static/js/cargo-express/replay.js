// Cargo Express's replay (`replay_module`), mounted by static/js/live/replay.js on the replay
// page's #replay with the replay built for this viewer (games.records.history.replay_data): each
// state is what that viewer could see then (everything, once the game is over, unless the
// page asked for one seat's view). Steps forward animate the decision's events on the track.
import { el } from "../live/dom.js";
import { bindStepping } from "../live/stepping.js";
import { Track, touchedSpaces } from "./board.js";
import { showFingerprints } from "./fairness.js";
import { drawParts, frameWords } from "./view.js";
import { seatName } from "./words.js";

// The decision shown is in the address ("#decision-4"), and the links to another view of
// the same game ("Everything", "As Seat K saw it") carry it, so switching views, or
// reloading, keeps the place (issue #42, point 15: it jumped to the last decision).
const PLACE = /^#decision-(\d+)$/;

function placeOf(hash, last) {
  const found = PLACE.exec(hash || "");
  return found ? Math.min(last, Number(found[1])) : null;
}

export function mountReplay(root, data) {
  const { states, turns } = data;
  const last = states.length - 1;
  const $ = (selector) => root.querySelector(selector);
  const track = new Track($("[data-track]"));
  let at = placeOf(window.location.hash, last) ?? last;

  // Keep the place in the address and in the other views' links (their own query kept).
  const views = [...root.querySelectorAll(".xp-seen-as a[href]")];
  function keepPlace() {
    const place = at === last ? "" : `#decision-${at}`;
    const here = new URL(window.location.href);
    if (here.hash !== place) {
      here.hash = place;
      window.history.replaceState(window.history.state, "", here);
    }
    for (const link of views) {
      const target = new URL(link.getAttribute("href"), window.location.href);
      target.hash = place;
      link.href = target.href;
    }
  }
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
    drawParts(root, state, { track, gameId: data.id });
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
    keepPlace();
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
  showFingerprints($("[data-seed]"), data, (seat) => seatName(states[last], seat));
  bindStepping(root, go, () => at, last);
  $("[data-round-prev]").addEventListener("click", () => jumpRound(-1));
  $("[data-round-next]").addEventListener("click", () => jumpRound(1));
  const handle = { go, get at() { return at; } };
  window.expressReplay = handle;
  return handle;
}
