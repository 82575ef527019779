// The test-only Bid kind's live view (tests/platform/bid_kind.py), driven by the live shell
// (static/js/live/shell.js) through the view interface documented there. It draws what the
// state it is handed says: each seat's bid as the server built it for this viewer (its own
// bid, "?" for another seat's until the reveal), who is ready, the scores, and a button per
// legal bid (`state.legal`). Nothing is decided here.
import { el } from "../live/dom.js";

export const debugName = "bidGame";

// "bob (East)": a seat's holder and its name.
const seatWords = (state, i) => {
  const seat = state.seats?.[i];
  if (!seat) return `Seat ${i + 1}`;
  return seat.name ? `${seat.name} (${seat.label})` : seat.label;
};

export function bidText(bid) {
  if (bid === null || bid === undefined) return "";
  if (bid === "?") return "?";
  return bid.replace(/^b/, "");
}

export function createView(root, initial, { sendTurn }) {
  const $ = (selector) => root.querySelector(selector);
  let state = initial;
  let interactive = false;
  let revealed = null; // the last reveal's bids, seen on this page (a reload starts without)

  function drawBids() {
    const body = $("[data-bids] tbody");
    body.replaceChildren();
    (state.seats || []).forEach((seat, i) => {
      const row = el("tr");
      row.dataset.seat = String(i);
      row.append(el("th", "", seat.label));
      row.lastChild.scope = "row";
      row.append(el("td", "", seat.name || seat.label));
      const bid = state.bids?.[i];
      let words;
      if (bid === null || bid === undefined) words = state.over ? "" : "thinking";
      else if (bid === "?") words = "ready (hidden)";
      else words = `bid ${bidText(bid)}`;
      const cell = el("td", "", words);
      cell.dataset.bid = bid ?? "";
      const last = el("td", "", revealed?.[i] ? bidText(revealed[i]) : "");
      last.dataset.revealed = revealed?.[i] ?? "";
      row.append(cell, last, el("td", "", String(state.scores?.[i] ?? 0)));
      body.append(row);
    });
    $("[data-round]").textContent = state.over
      ? "Final scores"
      : `Round ${state.round} of ${state.rounds}`;
  }

  function drawTurns() {
    const list = $("[data-turns]");
    list.textContent = (state.turns || []).join(" ") || "No bids yet.";
  }

  function drawControls() {
    const box = $("[data-controls]");
    const buttons = $("[data-bid-buttons]");
    const legal = state.legal || [];
    box.hidden = !interactive || !legal.length;
    buttons.replaceChildren();
    if (box.hidden) return;
    for (const token of legal) {
      const button = el("button", "btn", bidText(token));
      button.type = "button";
      button.dataset.bidToken = token;
      button.setAttribute("aria-label", `Bid ${bidText(token)}`);
      button.addEventListener("click", () => {
        interactive = false;
        drawControls();
        sendTurn(token);
      });
      buttons.append(button);
    }
  }

  return {
    draw(next) {
      state = next;
      drawBids();
      drawTurns();
      drawControls();
    },

    // Nothing moves: the next draw shows the bids; a reveal is kept for its column.
    async animate(frame) {
      const reveal = (frame.events || []).find((event) => event.type === "reveal");
      if (reveal) revealed = reveal.bids;
    },

    describeTurn(frame, after) {
      const words = [];
      for (const event of frame.events || []) {
        if (event.type === "bid") words.push(`You bid ${event.bid}.`);
        else if (event.type === "ready" && event.seat !== after?.viewer) {
          words.push(`${seatWords(after || state, event.seat)} is ready.`);
        } else if (event.type === "reveal") {
          const bids = event.bids
            .map((bid, i) => `${seatWords(after || state, i)} ${bid ? bidText(bid) : "none"}`)
            .join(", ");
          words.push(`Round ${event.round} revealed: ${bids}.`);
        } else if (event.type === "resigned") {
          words.push(`${seatWords(after || state, event.seat)} left.`);
        }
      }
      if (after?.over) words.push(this.describeOutcome(after));
      return words.join(" ");
    },

    describeOutcome(over) {
      const places = over.result?.places || [];
      const first = places
        .map((place, i) => (place === 1 ? seatWords(over, i) : null))
        .filter(Boolean);
      return first.length ? `${first.join(" and ")} won.` : "The game is over.";
    },

    setInteractive(on) {
      if (on === interactive) return;
      interactive = on;
      drawControls();
    },
  };
}
