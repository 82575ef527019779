// The Cargo Connect view of the live game page: the bay (drawn and animated from events),
// the turn controls, the player panels, the turn list and the Final Audit. The live shell
// (static/js/live/shell.js) loads this module because the server named it, and drives it
// through the interface documented there and in docs/live-frontend.md. No rule is decided
// here: the view draws the state and offers exactly `state.legal` / `state.options`.
import { Bay, touchedBy } from "./board.js";
import { TurnControls } from "./controls.js";
import {
  describeTurn,
  outcomeText,
  renderAudit,
  renderPlayers,
  renderTurnList,
  resultLine,
} from "./panels.js";

/** The shell also exposes its debug handle ({state, socket, view}) under this name. */
export const debugName = "cargoGame";

/** The viewer's side ("blue" / "orange"), or null for a spectator. */
const viewerSide = (state) => state.seats?.[state.viewer]?.side ?? null;

export function createView(root, initial, { sendTurn }) {
  const $ = (selector) => root.querySelector(selector);
  const bay = new Bay($("[data-bay]"), initial.size);
  const controls = new TurnControls($("[data-controls]"), bay, { onSend: sendTurn });
  let state = initial;
  let interactive = false;
  let last = null; // the last turn frame shown, for its marks on the bay

  const drawControls = () => controls.update(state, viewerSide(state), interactive);

  const markLast = () => {
    if (!last) return;
    const { touched, destroyed } = touchedBy(last.events);
    bay.setTouched(touched, destroyed);
  };

  return {
    bay, // for tests and debugging (cargoGame.view.bay)

    draw(next) {
      state = next;
      bay.render(state.rows, state.lock);
      markLast();
      renderPlayers($("[data-players]"), state, viewerSide(state));
      renderTurnList($("[data-turns]"), state.turns || [], { result: resultLine(state) });
      renderAudit($("[data-audit]"), state);
      const review = $("[data-review-link]");
      if (review) review.hidden = !state.over || state.status === "aborted";
      drawControls();
    },

    async animate(frame, before) {
      const after = { ...before, ...(frame.state || {}) };
      if (frame.side && frame.side === viewerSide(before)) controls.freeze("Playing your turn…");
      bay.render(before.rows, before.lock); // from the board before the turn (not a preview)
      await bay.playTurn(frame.events || [], after.rows, after.lock);
      last = frame;
    },

    // The words announced (aria-live) as a turn arrives: what happened, then the result
    // if it ended the shift, or "Your turn." when the viewer is to act next.
    describeTurn(frame, after) {
      let text = describeTurn(frame.side, frame.token, frame.events);
      // Only a turn that ended the shift says its result; a game ended otherwise (on time,
      // resigned, claimed) has the ending's own words in the status line.
      const cut = after?.ending && after.ending.termination !== "played_out";
      if (after?.over && !cut) text += ` ${outcomeText(after)}.`;
      else if (after && after.viewer !== null && after.viewer !== undefined
               && (after.acting || []).includes(after.viewer)) text += " Your turn.";
      return text;
    },

    describeOutcome(over) {
      return outcomeText(over);
    },

    setInteractive(on) {
      if (on === interactive) return;
      interactive = on;
      drawControls();
    },

    showLast(frame) {
      last = frame;
      markLast();
    },
  };
}
