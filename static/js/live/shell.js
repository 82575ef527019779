// The live-game shell: everything on a live game page that is the same for every game.
// It owns the transport (GameSocket: reconnect with backoff, catch-up by `sync`, HTTP
// fallback polling), the connection indicator, the status line and the message line,
// the aria-live announcements, resign (with its confirm dialog) and the rematch box. It
// knows no game: the board, the controls, the panels and the words for a turn belong to a
// *view*, a module the server names and the shell loads. docs/live-frontend.md has more.
//
// ---- The page ------------------------------------------------------------------------
// templates/games/game.html renders the root element `#game` with the transport's URLs as
// data attributes (ws-path, turn-url, resign-url, events-url, rematch-url, csrf) and
// `data-view-module` (the view's static URL, from the context key `view_module`), includes
// the view's partial (`view_template`), which lays out the page and places the shell's
// fragments (templates/games/live/), and embeds the state as json_script `#game-state`.
// The shell finds its elements by these hooks (each optional):
//   [data-connection] [data-status-line] [data-message] [data-announce] [data-rematch]
//   [data-spectators] (the spectator count, from `spectators` frames)
//   [data-action=resign] [data-confirm-resign] (a <dialog> whose form returns "resign"; its
//   data-question is the window.confirm() text where <dialog> is not supported)
//   [data-clocks] (the players' clocks, ./clock.js) [data-abandon] (abort and claim,
//   ./abandon.js; data-abort-url and data-claim-url on the root) [data-extras] (another
//   app's marks and actions beside the seats, ./extras.js)
//
// ---- The state fields the shell reads (everything else is the view's) ---------------------
//   ply, over, status, turns, rematch {offered_by, game, url}, clock, abandon, ending {text},
//   extras {marks, actions}
//   (docs/clocks.md),
//   seats [{seat, side, label, name, rating, bot}] in seat order,
//   acting [seat indexes that may act now], viewer (this page's seat index or null; only in
//   the page's own state: broadcast states lack it, so the shell keeps the first one),
//   seqs (games whose seats decide at the same time: the number each seat's next decision
//   carries; sendTurn sends the viewer's).
//
// ---- The view interface ----------------------------------------------------------------
// The view module exports
//   createView(root, state, {sendTurn, sendQueue}) -> view
//       root      the #game element (the view draws into the elements of its own partial)
//       state     the first state, with `viewer`
//       sendTurn(token)  send a turn (a string in the game's notation) for the current ply;
//                 the answer comes back as a turn frame (-> animate, then draw) or as an
//                 error (-> draw with the unchanged state). The view freezes its own
//                 controls while its turn is in flight.
//       sendQueue(key, steps)  queue steps for the viewer's next turn `key` ([] cancels);
//                 the answer is a `queued` frame (-> view.queued(frame)) or an error.
//   debugName (optional) a global name under which the shell also exposes its debug handle
//       {state, socket, view} (always exposed as window.liveGame).
// and the view object has
//   draw(state)               draw everything for this state at once (no animation); called
//                             on load, after every turn's animation, on snapshots and errors.
//   animate(frame, before) -> Promise   play a `turn` frame, starting from `before` (the
//                             state shown so far; the state after is `frame.state`). Resolve
//                             when done, also if the animation fails. The shell calls
//                             draw(after) next. Frames are handed over strictly in order,
//                             one animation at a time.
//   describeTurn(frame, state) -> string   one sentence for a turn frame (announced through
//                             aria-live and shown in the message line); `state` is the state
//                             after it.
//   describeOutcome(state) -> string   the status line once `state.over` ("… wins").
//   setInteractive(on)        on: the viewer may act now (their seat is in `acting`, the game
//                             is not over, no animation runs); offer controls only then.
//   told(frame, before)       (optional) the events of a frame that is no turn (a seat
//                             left and a bot plays it on: `resigned`), for the view's log;
//                             the shell calls draw(after) next.
//   queued(frame)             (optional) the viewer's pre-turn was stored, cancelled, or
//                             played at its reveal (`played`, `dropped`, `reason`).
//   showLast(frame)           (optional) mark a turn already applied: on load the shell asks
//                             for the last turn's frame only so the view can mark it.
// The shell never reads a game's own fields and the view never touches the socket.
import { AbandonBox } from "./abandon.js";
import { ChatPanel } from "./chat.js";
import { ClockDisplay } from "./clock.js";
import { el, readJson, titledName } from "./dom.js";
import { SeatExtras } from "./extras.js";
import { GameSocket } from "./socket.js";

const STATUS_TEXT = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  polling: "No live link: checking every 2 s",
  offline: "Offline: retrying",
};

const seatName = (seat) => titledName(seat?.name, seat?.title) || seat?.label || "";
const SIGNED_OUT = 4401; // the socket's close code when its session signed out
const SIGNED_OUT_TEXT = "You signed out, so this page no longer plays for you. Sign in again to play.";
// Carries that message over the reload that makes the page a spectator's (sessionStorage:
// this tab only; the value is the page's path, so another game's page does not show it).
const SIGNED_OUT_KEY = "cargo:signed-out";

export const spectatorText = (count) =>
  `${count} ${count === 1 ? "spectator" : "spectators"}`;

export async function startLiveGame(root) {
  const $ = (selector) => root.querySelector(selector);
  const initial = readJson("game-state");
  const viewer = initial.viewer ?? null;
  const siteName = document.title.split(" · ").pop();
  let state = initial;
  let lastShown = false; // a turn's marks are on the board (from a turn or its duplicate)
  let signedOutShown = false;

  function drawSpectators(count) {
    const node = $("[data-spectators]");
    if (!node || !Number.isInteger(count)) return;
    node.dataset.count = String(count);
    node.textContent = spectatorText(count);
  }

  const announce = (text) => {
    const node = $("[data-announce]");
    if (node) node.textContent = text;
  };
  const message = (text, isError = false) => {
    const line = $("[data-message]");
    if (!line) return;
    line.textContent = text || "";
    line.classList.toggle("is-error", isError);
    line.setAttribute("role", isError ? "alert" : "status");
  };

  let module;
  try {
    module = await import(root.dataset.viewModule);
  } catch (error) {
    message("The game view could not be loaded; reload the page to try again.", true);
    throw error;
  }

  const merge = (next) => ({ ...state, ...next, viewer });
  // The site's words for an ending it decided (on time, aborted, claimed), else the view's.
  const outcome = () => state.ending?.text || view.describeOutcome(state);
  const seatOfSide = (side) => state.seats?.find((seat) => seat.side === side);
  const mySeat = () => (viewer === null ? null : state.seats?.[viewer] ?? null);
  const yourTurn = () => viewer !== null && !state.over && (state.acting || []).includes(viewer);

  // Work on the page happens in order, one turn's animation after another.
  let chain = Promise.resolve();
  const enqueue = (job) => {
    chain = chain.then(job).catch((error) => console.error(error));
  };

  function seatSpans(seats, withLabel) {
    const spans = [];
    seats.forEach((seat, i) => {
      if (i) spans.push(", ");
      const text = withLabel ? `${seatName(seat)} (${seat.label})` : seatName(seat);
      spans.push(el("span", `side-${seat.side}`, text));
    });
    return spans;
  }

  function drawStatus() {
    const line = $("[data-status-line]");
    if (line) {
      line.replaceChildren();
      delete line.dataset.botThinking;
      const acting = (state.acting || []).map((i) => state.seats?.[i]).filter(Boolean);
      if (state.over) {
        line.textContent = outcome();
      } else if (yourTurn()) {
        line.textContent = "Your turn";
      } else if (acting.length && acting.every((seat) => seat.bot)) {
        // A bot's turn is computed by a Celery task; it arrives as a normal turn frame.
        line.append(...seatSpans(acting, false), acting.length > 1 ? " are thinking…" : " is thinking…");
        line.dataset.botThinking = "";
      } else if (acting.length) {
        line.append(...seatSpans(acting, true), viewer !== null ? " to move: waiting…" : " to move");
      }
    }
    // "marta vs kofi · Cargo Connect", as the server renders it; while it is this page's
    // turn the tab says so first.
    const names = (state.seats || []).map(seatName).join(" vs ");
    document.title = `${yourTurn() ? "Your turn · " : ""}${names} · ${siteName}`;
  }

  function drawRematch() {
    const box = $("[data-rematch]");
    if (!box) return;
    box.replaceChildren();
    const me = mySeat();
    const offer = state.rematch;
    // Two seats swap (Cargo Connect's colours: its view's `data-swap`); more turn by one
    // seat (games.turns.play's rematch).
    const many = (state.seats || []).length > 2;
    const turned = many ? "seats turned by one" : box.dataset.swap || "seats swapped";
    if (state.over && !me && offer?.game && offer.url) {
      // A spectator follows the players to their rematch (lichess does), or is offered it.
      const link = el("a", "btn primary", "Watch the rematch");
      link.href = offer.url;
      box.hidden = false;
      box.append(el("p", "", "The players started a rematch."), link);
      return;
    }
    if (!state.over || !me || !root.dataset.rematchUrl) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const text = el("p", "");
    const button = el("button", "btn primary");
    button.type = "button";
    button.dataset.action = "rematch";
    if (offer?.game) {
      const link = el("a", "btn primary", "Go to the rematch");
      link.href = offer.url;
      text.textContent = `The rematch has started (${turned}).`;
      box.append(text, link);
      return;
    }
    if (offer?.offered_by && offer.offered_by !== me.side) {
      text.textContent = `${seatName(seatOfSide(offer.offered_by))} offers a rematch.`;
      button.textContent = "Accept rematch";
    } else if (offer?.offered_by === me.side) {
      text.textContent = `Rematch offered: waiting for ${many ? "the other players" : "your opponent"}.`;
      box.append(text);
      return;
    } else {
      text.textContent = `Play again, ${turned}?`;
      button.textContent = "Offer a rematch";
    }
    button.addEventListener("click", offerRematch);
    box.append(text, button);
  }

  async function offerRematch() {
    try {
      const response = await fetch(root.dataset.rematchUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": root.dataset.csrf, Accept: "application/json" },
      });
      const frame = await response.json();
      if (frame.type === "error") message(frame.message, true);
      else applyRematch(frame);
    } catch {
      message("Could not reach the server; try again.", true);
    }
  }

  // A rematch that starts while the page is open takes its players and its spectators to it
  // (the frame every socket on the game gets carries the new game's URL); on a reload of the
  // old game the box links it.
  function applyRematch(frame) {
    state = merge({ ...(frame.state || {}), rematch: frame.rematch ?? frame.state?.rematch });
    drawRematch();
    const offer = frame.rematch;
    if (offer?.game && offer.url) {
      // Players and spectators alike: a spectator watches the rematch as it starts.
      const words = mySeat()
        ? "The rematch has started: going to the new game"
        : "The players started a rematch: watching it";
      announce(`${words}.`);
      message(`${words}…`);
      window.location.assign(offer.url);
      return;
    }
    if (offer?.game) announce("The rematch has started.");
    else if (offer?.offered_by && offer.offered_by !== mySeat()?.side) {
      announce(`${seatName(seatOfSide(offer.offered_by))} offers a rematch.`);
    }
  }

  // The shell's own parts of the page.
  function drawShell() {
    drawStatus();
    drawRematch();
    clocks.update(state);
    extras.update(state, viewer); // after the clocks: its marks go beside them
    abandon.update(state, viewer);
    chat?.setOver(state.over);
    const resign = $("[data-action=resign]");
    if (resign) resign.hidden = viewer === null || state.over;
  }

  function drawAll() {
    view.draw(state);
    drawShell();
    view.setInteractive(yourTurn());
  }

  const socket = new GameSocket(
    {
      wsPath: root.dataset.wsPath,
      turnUrl: root.dataset.turnUrl,
      resignUrl: root.dataset.resignUrl,
      abortUrl: root.dataset.abortUrl,
      claimUrl: root.dataset.claimUrl,
      eventsUrl: root.dataset.eventsUrl,
      csrfToken: root.dataset.csrf,
      viewer,
      ply: state.ply,
      over: state.over,
    },
    {
      onTurn: (frame) =>
        enqueue(async () => {
          const before = state;
          const next = merge(frame.state || {});
          view.setInteractive(false);
          message("");
          const text = view.describeTurn(frame, next);
          announce(text);
          await view.animate(frame, before);
          lastShown = true;
          state = next;
          view.draw(state);
          drawShell();
          view.setInteractive(yourTurn());
          message(text);
        }),
      onResigned: (frame) =>
        enqueue(() => {
          const before = state;
          state = merge(frame.state || { over: true, resigned: frame.side, acting: [] });
          if (frame.events?.length) view.told?.(frame, before);
          drawAll();
          const seat = seatOfSide(frame.side);
          // The site resigns for a seat too (the Daily Challenge's day ended, two timeouts
          // in a row): the state's `ending` words it, or the seat's `left` (a bot plays it
          // on, issue #42); only a real resignation is called one.
          const left = seat?.left;
          const who = `${seatName(seat) || frame.side} (${seat?.label ?? frame.side})`;
          const text = state.over && state.ending?.text
            ? `${state.ending.text}.`
            : left ? `${who} ${left.why}${left.name ? `: ${left.name} plays the seat from now` : ""}.`
              : `${who} resigned.`;
          announce(text);
          message(text);
        }),
      onEnded: (frame) =>
        enqueue(() => {
          state = merge(frame.state || {});
          drawAll();
          const text = state.over ? outcome() : `${seatName(seatOfSide(frame.side)) || frame.side} ran out of time.`;
          announce(text);
          message(state.over ? "" : text); // once over, the status line says it
        }),
      onPresence: (frame) =>
        enqueue(() => {
          if (!state.abandon || state.over) return;
          state = { ...state, abandon: { ...state.abandon, away: frame.away } };
          abandon.update(state, viewer);
        }),
      onState: (next) =>
        enqueue(() => {
          // A seat's page given a spectator's snapshot: the seat changed hands (a bot plays
          // it on since its holder left, docs/live-protocol.md). The page becomes the one
          // a spectator gets, as a reload would show it.
          if (viewer !== null && next.viewer === null) {
            // Signed out: the socket came back as a spectator's; the reloaded page says why.
            if (signedOutShown) sessionStorage.setItem(SIGNED_OUT_KEY, location.pathname);
            window.location.reload();
            return;
          }
          state = merge(next);
          drawAll();
        }),
      onRematch: (frame) => enqueue(() => applyRematch(frame)),
      // After the turn frames before it: a queue played at a reveal is told after its steps.
      onQueued: (frame) => enqueue(() => view.queued?.(frame)),
      onSpectators: (frame) => drawSpectators(frame.count),
      onOpen: () => chat?.connected(),
      onChat: (frame) => chat?.handle(frame),
      onClosed: (code) => {
        chat?.disconnected();
        if (code === SIGNED_OUT && viewer !== null && !signedOutShown) {
          signedOutShown = true;
          message(SIGNED_OUT_TEXT, true);
        }
      },
      onDuplicate: (frame) =>
        enqueue(() => {
          if (lastShown || frame.ply !== state.ply - 1) return;
          lastShown = true;
          view.showLast?.(frame);
          message(`Last turn: ${view.describeTurn(frame, state)}`);
        }),
      onError: (frame) =>
        enqueue(() => {
          message(frame.message || `Refused (${frame.code})`, true);
          announce(frame.message || "Refused");
          drawAll(); // nothing changed: back to the state as it is
        }),
      onStatus: (status) => {
        const node = $("[data-connection]");
        if (!node) return;
        node.dataset.status = status;
        node.textContent = STATUS_TEXT[status] || status;
      },
    },
  );

  const view = module.createView(root, state, {
    // A game whose seats decide at the same time numbers each seat's own decisions.
    sendTurn: (token) => socket.sendTurn(state.seqs?.[viewer] ?? state.ply, token),
    // A pre-turn (a kind whose `legal.next` offers one): queued, replaced or cancelled.
    sendQueue: (key, steps) => socket.sendFrame({ type: "queue", key, steps }),
  });
  const clocks = new ClockDisplay($("[data-clocks]"));
  const extras = new SeatExtras(root, $("[data-extras]"), {
    csrfToken: root.dataset.csrf,
    onMessage: (text, isError) => {
      message(text, isError);
      announce(text);
    },
  });
  const chatRoot = $("[data-chat]");
  const chat = chatRoot ? new ChatPanel(chatRoot, { send: (frame) => socket.sendFrame(frame) }) : null;
  const abandon = new AbandonBox($("[data-abandon]"), {
    onAbort: () => socket.abort(),
    onClaim: (result, seat) => socket.claim(result, seat),
  });

  // Resign, with confirmation.
  const dialog = $("[data-confirm-resign]");
  const consequence = dialog?.querySelector("[data-resign-consequence]");
  if (consequence?.dataset.many && (state.seats || []).length > 2) {
    consequence.textContent = consequence.dataset.many; // nobody "wins at once"
  }
  $("[data-action=resign]")?.addEventListener("click", () => {
    if (dialog?.showModal) dialog.showModal();
    else if (window.confirm(dialog?.dataset.question || "Resign?")) socket.resign();
  });
  dialog?.addEventListener("close", () => {
    if (dialog.returnValue === "resign") socket.resign();
  });

  drawAll();
  announce(state.over ? `${outcome()}.` : yourTurn() ? "Your turn." : "");
  if (sessionStorage.getItem(SIGNED_OUT_KEY) === location.pathname) {
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    if (viewer === null) message(SIGNED_OUT_TEXT, true);
  }
  socket.start();
  const handle = { get state() { return state; }, socket, view }; // for tests and debugging
  window.liveGame = handle;
  if (module.debugName) window[module.debugName] = handle;
}
