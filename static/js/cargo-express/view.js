// The Cargo Express view of the live game page (issue #26), driven by the live shell
// (static/js/live/shell.js) through the interface in docs/live-frontend.md. It draws the
// state the server built for this viewer: the loop track, the seats, the characters, the
// viewer's own secrets, the decision controls from `state.legal`, the log of the round and
// the final scoring. It animates from each turn frame's events. No rule is decided here.
import { Track, touchedSpaces } from "./board.js";
import { Controls, PlanDraft } from "./controls.js";
import { PreTurn } from "./preturn.js";
import {
  centreNode,
  renderCharacters,
  renderLog,
  renderMine,
  renderScores,
  renderSeats,
  renderSeed,
  statusWords,
} from "./panels.js";
import { showSeedCheck } from "./fairness.js";
import { eventWords, outcomeWords, seatName } from "./words.js";

/** The shell also exposes its debug handle ({state, socket, view}) under this name. */
export const debugName = "expressGame";

/** Draw every part of the page for `state` (also the replay's and How to play's board). */
export function drawParts(root, state, { track, targets, live = false, gameId = null } = {}) {
  const $ = (selector) => root.querySelector(selector);
  if (track) track.render(state, { targets, centre: centreNode(state) });
  const status = $("[data-round-status]");
  // Once over, the shell's status line says the outcome; the replay has no status line.
  if (status) status.textContent = state.over ? (live ? "" : outcomeWords(state)) : statusWords(state);
  if ($("[data-seats]")) renderSeats($("[data-seats]"), state);
  if ($("[data-characters]")) renderCharacters($("[data-characters]"), state);
  if ($("[data-mine]")) renderMine($("[data-mine]"), state);
  if ($("[data-scores]")) renderScores($("[data-scores]"), state);
  renderSeed($("[data-seed]"), state);
  showSeedCheck($("[data-seed]"), gameId, state); // once the seed is public
}

/** The sentences of a turn frame's events. */
export function frameWords(state, events) {
  return (events || []).map((event) => eventWords(state, event)).filter(Boolean);
}

// A control's identity across redraws: its data attributes.
const focusKey = (node) => Object.entries(node.dataset || {}).map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(v)}"]`).join("");

function refocus(root, key) {
  const again = key ? root.querySelector(`button${key}:not(:disabled)`) : null;
  const first = root.querySelector("[data-controls] button:not(:disabled), .xp-space-inner.is-target");
  (again || first)?.focus();
}

export function createView(root, initial, { sendTurn, sendQueue = () => {} }) {
  const $ = (selector) => root.querySelector(selector);
  const track = new Track($("[data-track]"));
  const controls = new Controls($("[data-controls]"), {
    onSend: sendTurn,
    draft: PlanDraft.forGame(root.dataset.gameId, initial.viewer),
    onFreeze: () => track.root.querySelectorAll("button").forEach((b) => { b.disabled = true; }),
  });
  // Your next turn prepared while you wait (a pre-turn): `legal.next` from the server.
  const preturn = new PreTurn($("[data-preturn]"), { onQueue: sendQueue });
  let seenQueue = initial.queued;
  preturn.told(initial.queued);
  let state = initial;
  let interactive = false;
  // The log of the round: a snapshot's (`state.log`, built for this viewer) and then the
  // events of each frame (frames' states do not repeat it: `history_in_frames`), each kept
  // with its round and told by the server's rule (ExpressView.log): this round's, and the
  // last one's too while characters are picked. So a reload shows what the page showed.
  let entries = [];
  let adopted = null; // the snapshot log `entries` started from
  let revealedBy = null; // the seat whose card the banner names
  let animating = false;

  // The shell's `interactive` follows `acting`; a seat that has committed its stack is no
  // longer acting but may replace it until planning closes (the kind still lists
  // `legal.hand` for it), so the planning controls stay while no animation runs.
  const mayDecide = () => interactive
    || (!animating && !state.over && state.phase === "plan" && Boolean(state.legal?.hand));

  // Redrawing replaces the controls: keep the keyboard's place in them (the same step, or
  // the first control left) instead of dropping focus to the page.
  // `panels`: the seats too. setInteractive redraws only the track and the controls, so
  // the shell's clocks, put in the seats' [data-clock-slot] after each draw, stay.
  const drawAll = ({ panels = true } = {}) => {
    const focused = document.activeElement;
    const inside = focused && focused !== document.body
      && (root.querySelector("[data-controls]")?.contains(focused) || track.root.contains(focused));
    const key = inside ? focusKey(focused) : null;
    const may = mayDecide();
    const targets = controls.targets(state, may);
    if (panels) {
      drawParts(root, state, { track, targets, live: true, gameId: root.dataset.gameId });
      renderLog($("[data-log]"), frameWords(state, toldNow(state)));
    } else {
      track.render(state, { targets, centre: centreNode(state) });
    }
    controls.update(state, may);
    preturn.update(state, !may && !animating && !state.over);
    if (inside && !root.contains(focused)) refocus(root, key);
  };

  const told = (s) => (s.phase === "pick" ? [s.round - 1, s.round] : [s.round]);

  // A snapshot's log (a new array: the page's first state, a reconnect's) starts the
  // entries again. Those before its first `phase` event belong to that event's round, or
  // to the round before when it begins a round (the picks, `c…`); with none, to this one.
  const adopt = (s) => {
    if (!Array.isArray(s.log) || s.log === adopted) return;
    adopted = s.log;
    const first = s.log.find((event) => event.kind === "phase");
    let at = !first ? s.round : String(first.phase).startsWith("c") ? first.round - 1 : first.round;
    entries = s.log.map((event) => {
      if (event.kind === "phase") at = event.round;
      return { at, event };
    });
  };

  const addToLog = (after, events) => {
    let at = entries.length ? entries[entries.length - 1].at : after.round;
    for (const event of events || []) {
      if (event.kind === "phase") at = event.round;
      const { only, ply, ...kept } = event; // as the snapshot's log keeps them
      entries.push({ at, event: kept });
    }
    const rounds = told(after);
    entries = entries.filter((entry) => rounds.includes(entry.at));
  };

  const toldNow = (s) => {
    adopt(s);
    return entries.map((entry) => entry.event);
  };

  const showReveal = (before, events) => {
    const box = $("[data-reveal]");
    const revealed = (events || []).find((e) => e.kind === "revealed");
    if (!box || !revealed) return;
    box.hidden = false;
    revealedBy = revealed.seat;
    box.textContent = `${seatName(before, revealed.seat)} reveals ${revealed.card}${revealed.usable ? "" : " (not usable: the turn is lost)"}`;
    box.dataset.card = revealed.card;
  };

  return {
    track, // for tests and debugging (expressGame.view.track)
    controls,

    draw(next) {
      state = next;
      if ("queued" in next && next.queued !== seenQueue) { // a snapshot says this seat's queue
        seenQueue = next.queued;
        preturn.told(next.queued);
      }
      const reveal = $("[data-reveal]");
      if (reveal && (state.phase !== "turn" || state.turn?.seat !== revealedBy)) reveal.hidden = true;
      drawAll();
    },

    async animate(frame, before) {
      const after = { ...before, ...(frame.state || {}) };
      adopt(before);
      if (frame.state?.log) adopt(after); // a state that carries its log tells it whole
      else addToLog(after, frame.events);
      showReveal(before, frame.events);
      animating = true;
      try {
        await track.play(frame.events || [], before);
      } catch (error) {
        console.error(error);
      } finally {
        animating = false;
      }
    },

    // A frame that is no turn but tells something (a seat handed to a bot: `seat-handed`):
    // its events join the log of the round, as a turn's do.
    told(frame, before) {
      adopt(before);
      addToLog({ ...before, ...(frame.state || {}) }, frame.events);
    },

    describeTurn(frame, after) {
      const words = frameWords(after || state, frame.events);
      let text = words.slice(-4).join(" ") || "A decision was made.";
      if (after?.over) text += ` ${outcomeWords(after)}`;
      else if (after && after.viewer !== null && after.viewer !== undefined
               && (after.acting || []).includes(after.viewer)) text += " Your decision.";
      return text;
    },

    describeOutcome(over) {
      return outcomeWords(over);
    },

    setInteractive(on) {
      if (on === interactive) return;
      interactive = on;
      drawAll({ panels: false });
    },

    queued(frame) {
      preturn.told(frame);
      drawAll({ panels: false });
    },

    showLast(frame) {
      track.setMarked(touchedSpaces(frame.events));
    },
  };
}
