// The replay viewer: step through a finished game's states, animating each turn forward.
// Reuses the view's board and panels and the live shell's DOM helpers; no socket.
// `mountReplay(root, data, {onMove})` drives any page with the viewer's hooks (the replay
// page's #replay, mounted by static/js/live/replay.js as Cargo Connect's `replay_module`;
// the review pages mount it from review-marks.js). `data` is
// {states, turns, startText?}; the page may leave out [data-players] and [data-audit].
import { bindStepping } from "../live/stepping.js";
import { Bay, touchedBy } from "./board.js";
import { describeTurn, renderAudit, renderPlayers, renderTurnList } from "./panels.js";

export function mountReplay(root, data, { onMove } = {}) {
  const states = data.states;
  const turns = data.turns;
  const last = states.length - 1;
  const $ = (selector) => root.querySelector(selector);
  const bay = new Bay($("[data-bay]"), states[0].size);
  let at = last;
  let busy = Promise.resolve();

  function panels() {
    const state = states[at];
    // A puzzle attempt's review has no players' panels and no Final Audit.
    if ($("[data-players]")) renderPlayers($("[data-players]"), state, null);
    renderTurnList($("[data-turns]"), turns.map((t) => t.token), {
      sides: turns.map((t) => t.side),
      current: at,
      onPick: (k) => go(k),
    });
    if ($("[data-audit]")) renderAudit($("[data-audit]"), at === last ? state : { ...state, over: false });
    $("[data-ply]").textContent = `Turn ${at} of ${last}`;
    $("[data-first]").disabled = $("[data-prev]").disabled = at === 0;
    $("[data-next]").disabled = $("[data-last]").disabled = at === last;
    const turn = turns[at - 1];
    const text = turn ? `${at}. ${describeTurn(turn.side, turn.token, turn.events)}` : data.startText || "The empty bay.";
    $("[data-message]").textContent = text;
    $("[data-announce]").textContent = text;
    onMove?.(at);
  }

  function go(k) {
    k = Math.max(0, Math.min(last, k));
    busy = busy.then(async () => {
      if (k === at) return;
      if (k === at + 1) {
        const next = states[k];
        await bay.playTurn(turns[at].events || [], next.rows, next.lock);
      } else {
        bay.render(states[k].rows, states[k].lock);
        bay.setTouched(...Object.values(touchedBy(turns[k - 1]?.events)));
      }
      at = k;
      panels();
    }).catch((error) => console.error(error));
  }

  bay.render(states[at].rows, states[at].lock);
  if (turns[at - 1]) bay.setTouched(...Object.values(touchedBy(turns[at - 1].events)));
  panels();
  bindStepping(root, go, () => at, last);
  const handle = { go, get at() { return at; } };
  window.cargoReplay = handle;
  return handle;
}
