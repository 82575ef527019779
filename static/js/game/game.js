// The live game page: draws the state, animates turns as they arrive, lets the player to
// move make a turn, and talks to the server through GameSocket. No rule is decided here.
import { Bay, touchedBy } from "./board.js";
import { TurnControls } from "./controls.js";
import {
  describeTurn, playerName, readJson, renderAudit, renderPlayers, renderTurnList, sideName,
} from "./panels.js";
import { GameSocket } from "./socket.js";

const STATUS_TEXT = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  polling: "No live link: checking every 2 s",
  offline: "Offline: retrying",
};

function start() {
  const root = document.getElementById("game");
  if (!root) return;
  const initial = readJson("game-state");
  const you = initial.you ?? null;
  let state = initial;
  let lastTurn = null; // {side, token, events} of the last turn shown
  const $ = (selector) => root.querySelector(selector);

  const bay = new Bay($("[data-bay]"), state.size);
  const controls = new TurnControls($("[data-controls]"), bay, {
    onSend: (token) => socket.sendTurn(state.ply, token),
  });
  const announce = (text) => {
    $("[data-announce]").textContent = text;
  };
  const message = (text, isError = false) => {
    const line = $("[data-message]");
    line.textContent = text || "";
    line.classList.toggle("is-error", isError);
    line.setAttribute("role", isError ? "alert" : "status");
  };

  // Work on the page happens in order, one turn's animation after another.
  let chain = Promise.resolve();
  const enqueue = (job) => {
    chain = chain.then(job).catch((error) => console.error(error));
  };

  const merge = (next) => ({ ...state, ...next, you });

  function drawStatus() {
    const line = $("[data-status-line]");
    line.replaceChildren();
    delete line.dataset.botThinking;
    if (state.over) {
      const winner = state.result ? state.result.winner : state.audit?.winner;
      line.textContent = winner
        ? `Shift over: ${playerName(state, winner)} (${sideName(winner)}) wins`
        : "Shift over: draw";
    } else if (you && state.to_move === you) {
      line.textContent = "Your turn";
    } else if (state.players?.[state.to_move]?.bot) {
      // CargoBot's turn is computed by a Celery task; it arrives as a normal turn frame.
      const span = document.createElement("span");
      span.className = `side-${state.to_move}`;
      span.textContent = playerName(state, state.to_move);
      line.append(span, " is thinking…");
      line.dataset.botThinking = "";
    } else {
      const span = document.createElement("span");
      span.className = `side-${state.to_move}`;
      span.textContent = `${playerName(state, state.to_move)} (${sideName(state.to_move)})`;
      line.append(span, you ? " to move: waiting…" : " to move");
    }
    document.title = `${state.over ? "Over" : you && state.to_move === you ? "Your turn" : "Playing"} · ${playerName(state, "blue")} vs ${playerName(state, "orange")} · Cargo Connect`;
  }

  function drawRematch() {
    const box = $("[data-rematch]");
    box.replaceChildren();
    if (!state.over || !you || !root.dataset.rematchUrl) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const offer = state.rematch;
    const text = document.createElement("p");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn primary";
    button.dataset.action = "rematch";
    if (offer?.game) {
      const link = document.createElement("a");
      link.className = "btn primary";
      link.href = `/g/${offer.game}`;
      link.textContent = "Go to the rematch";
      text.textContent = "The rematch has started (colours swapped).";
      box.append(text, link);
      return;
    }
    if (offer?.offered_by && offer.offered_by !== you) {
      text.textContent = `${playerName(state, offer.offered_by)} offers a rematch.`;
      button.textContent = "Accept rematch";
    } else if (offer?.offered_by === you) {
      text.textContent = "Rematch offered: waiting for your opponent.";
      box.append(text);
      return;
    } else {
      text.textContent = "Play again, colours swapped?";
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

  function applyRematch(frame) {
    state = merge({ ...(frame.state || {}), rematch: frame.rematch ?? frame.state?.rematch });
    drawRematch();
    if (frame.rematch?.game) announce("The rematch has started.");
    else if (frame.rematch?.offered_by && frame.rematch.offered_by !== you) {
      announce(`${playerName(state, frame.rematch.offered_by)} offers a rematch.`);
    }
  }

  function drawPanels() {
    renderPlayers($("[data-players]"), state, you);
    renderTurnList($("[data-turns]"), state.turns || []);
    renderAudit($("[data-audit]"), state);
    drawStatus();
    drawRematch();
    const resign = $("[data-action=resign]");
    if (resign) resign.hidden = !you || state.over;
  }

  function drawAll() {
    bay.render(state.rows, state.lock);
    if (lastTurn) {
      const { touched, destroyed } = touchedBy(lastTurn.events);
      bay.setTouched(touched, destroyed);
    }
    drawPanels();
    controls.update(state, you);
  }

  const socket = new GameSocket(
    {
      wsPath: root.dataset.wsPath,
      turnUrl: root.dataset.turnUrl,
      resignUrl: root.dataset.resignUrl,
      eventsUrl: root.dataset.eventsUrl,
      csrfToken: root.dataset.csrf,
      ply: state.ply,
      over: state.over,
    },
    {
      onTurn: (frame) =>
        enqueue(async () => {
          const next = merge(frame.state || {});
          const mine = you && frame.side === you;
          controls.freeze(mine ? "Playing your turn…" : "");
          if (!mine) controls.panel.hidden = true;
          bay.render(state.rows, state.lock); // from the board before the turn (not a preview)
          message("");
          const text = describeTurn(frame.side, frame.token, frame.events);
          announce(text);
          await bay.playTurn(frame.events || [], next.rows, next.lock);
          lastTurn = { side: frame.side, token: frame.token, events: frame.events || [] };
          state = next;
          drawPanels();
          controls.update(state, you);
          message(text);
        }),
      onResigned: (frame) =>
        enqueue(() => {
          state = merge(frame.state || { over: true, resigned: frame.side });
          drawAll();
          const text = `${playerName(state, frame.side)} (${sideName(frame.side)}) resigned.`;
          announce(text);
          message(text);
        }),
      onState: (next) =>
        enqueue(() => {
          state = merge(next);
          drawAll();
        }),
      onRematch: (frame) => enqueue(() => applyRematch(frame)),
      onDuplicate: (frame) =>
        enqueue(() => {
          if (lastTurn || frame.ply !== state.ply - 1) return;
          lastTurn = { side: frame.side, token: frame.token, events: frame.events || [] };
          const { touched, destroyed } = touchedBy(lastTurn.events);
          bay.setTouched(touched, destroyed);
          message(`Last turn: ${describeTurn(frame.side, frame.token, frame.events)}`);
        }),
      onError: (frame) =>
        enqueue(() => {
          message(frame.message || `Refused (${frame.code})`, true);
          announce(frame.message || "Refused");
          drawAll(); // nothing changed: back to the state as it is
        }),
      onStatus: (status) => {
        const node = $("[data-connection]");
        node.dataset.status = status;
        node.textContent = STATUS_TEXT[status] || status;
      },
    },
  );

  // Resign, with confirmation.
  const dialog = $("[data-confirm-resign]");
  $("[data-action=resign]")?.addEventListener("click", () => {
    if (dialog?.showModal) dialog.showModal();
    else if (window.confirm("Resign this shift? Your opponent wins.")) socket.resign();
  });
  dialog?.addEventListener("close", () => {
    if (dialog.returnValue === "resign") socket.resign();
  });

  drawAll();
  announce(
    state.over ? "This shift is over." : you && state.to_move === you ? "Your turn." : "",
  );
  socket.start();
  window.cargoGame = { get state() { return state; }, socket, bay }; // for tests and debugging
}

start();
