// The lobby, live, for the lobby page and a table's page (one module, no inline scripts).
// The lobby socket (docs/live-protocol.md, "/ws/lobby/"; docs/tables.md) pushes `seeks`,
// `seek_added`, `seek_changed` (someone joined or left a table), `seek_removed`, and
// `seek_accepted` to the seated members when a table starts; it reconnects with the game
// socket's backoff. URLs come from the page: data-ws-path (the lobby socket's path),
// data-seeks-url / data-status-url (the polling fallbacks) and each seek's `accept_url`.
//
//   Lobby:      <ul id="seeks" data-ws-path data-seeks-url data-me data-csrf>: seek rows
//               (templates/games/_seek.html) kept live; without a socket, seeks.json is polled every 3 s.
//   Challenge:  <… data-watch-challenge="<id>" data-ws-path data-status-url data-seats>: go to
//               the game as soon as the table starts (the socket tells the seated members; a
//               poll of the table's status every 3 s covers blocked WebSockets and guests),
//               and reload when its seats change (`data-seats` is their signature).
import { el, titledName, titleMark, wsUrl } from "./dom.js";
import { backoffDelay } from "./socket.js";
import { notificationFrame, socketReopened } from "../notifications.js";

const POLL_MS = 3_000;

/** A lobby socket that reconnects with backoff; onUp / onDown say when it opens / closes. */
function lobbySocket(path, { onFrame, onUp, onDown }) {
  if (!path || !("WebSocket" in window)) {
    onDown?.();
    return;
  }
  let attempt = 0;
  let everOpened = false;
  const connect = () => {
    let ws;
    try {
      ws = new WebSocket(wsUrl(path));
    } catch {
      onDown?.();
      return;
    }
    ws.addEventListener("open", () => {
      if (everOpened) socketReopened(); // the header's bell catches up
      everOpened = true;
      attempt = 0;
      onUp?.();
    });
    ws.addEventListener("message", (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (notificationFrame(frame)) return; // for the header's bell
      onFrame(frame);
    });
    ws.addEventListener("close", () => {
      onDown?.();
      setTimeout(connect, backoffDelay(attempt));
      attempt += 1;
    });
  };
  connect();
}

function postForm(action, csrf, button) {
  const form = el("form", "inline");
  form.method = "post";
  form.action = action;
  const input = el("input", "");
  input.type = "hidden";
  input.name = "csrfmiddlewaretoken";
  input.value = csrf;
  button.type = "submit";
  form.append(input, button);
  return form;
}

// Whether two rows show the same seek alike: the words, the class and where each link and
// form goes (a row the server drew differs from lobby.js's in spacing and CSRF mask only).
function sameRow(a, b) {
  const words = (node) => node.textContent.replace(/\s+/g, "");
  const targets = (node) => [...node.querySelectorAll("a[href], form[action]")]
    .map((t) => t.getAttribute("href") ?? t.getAttribute("action")).join(" ");
  return a.className === b.className && words(a) === words(b) && targets(a) === targets(b);
}

// One seek from the viewer's side: the same row as templates/games/_seek.html.
function seekRow(seek, me, csrf, several) {
  const mine = Boolean(me) && seek.by === me;
  const table = (seek.seat_count || 2) > 2;
  const seated = Boolean(me) && (seek.people || []).includes(me);
  const li = el("li", `seek${mine ? " is-mine" : ""}${table ? " is-table" : ""}`);
  li.dataset.id = seek.id;
  const player = el("span", "seek-player");
  const mark = titleMark(seek.by_title);
  if (mark) player.append(mark, " ");
  player.append(seek.by, el("span", "rating", String(seek.rating)));
  const plays = mine ? seek.creator_plays : seek.taker_plays;
  const time = `${seek.time_control_label}${seek.rated ? "" : " · casual"}`;
  const options = seek.options || (seek.size ? `${seek.size}×${seek.size}` : "");
  li.append(player, el("span", "seek-size", several ? `${seek.game_name} · ${options}` : options),
            el("span", "seek-time", time));
  if (table) {
    const names = seek.seats.map((s) => (s.name ? `${titledName(s.name, s.title)}${s.host ? " (host)" : ""}` : "open"));
    li.append(el("span", "seek-seats", `${seek.seat_count} seats, ${seek.free} free: ${names.join(", ")}`));
  }
  li.append(el("span", "seek-side", `You play ${plays}`));
  const action = el("span", "seek-action");
  if (mine) {
    const waiting = el("span", "seek-waiting");
    const dots = el("span", "waiting-dots");
    dots.setAttribute("aria-hidden", "true");
    dots.append(el("i", ""), el("i", ""), el("i", ""));
    waiting.append(dots, table ? "Waiting for players" : "Waiting for an opponent");
    action.append(waiting);
    if (table && seek.url) {
      const link = el("a", "", "Your table");
      link.href = seek.url;
      action.append(link);
    }
    if (seek.cancel_url) action.append(postForm(seek.cancel_url, csrf, el("button", "link-button", "Cancel")));
  } else if (seated) {
    const link = el("a", "", "Your table");
    link.href = seek.url;
    action.append(link);
    if (seek.leave_url) action.append(postForm(seek.leave_url, csrf, el("button", "link-button", "Leave")));
  } else if ((me || seek.guests) && seek.accept_url) {
    action.append(postForm(seek.accept_url, csrf, el("button", "button button-small", table ? "Join" : "Accept")));
  }
  li.append(action);
  return li;
}

function watchSeeks(table) {
  const body = table;
  const empty = document.querySelector(".empty-seeks");
  const { me, csrf } = table.dataset;
  const several = Boolean(table.dataset.several);
  const setEmpty = (isEmpty) => {
    if (empty) empty.hidden = !isEmpty;
  };
  const row = (seek) => seekRow(seek, me, csrf, several);
  // A snapshot (the socket's first frame, a poll) keeps the rows that did not change: the
  // same nodes in place, so a row the keyboard is on keeps its focus and a row being read
  // is not swapped under the reader; only new or changed rows are made.
  const render = (seeks) => {
    const mineFirst = [...seeks].sort((a, b) => Number(b.by === me) - Number(a.by === me));
    const rows = mineFirst.map((seek) => {
      const fresh = row(seek);
      const old = body.querySelector(`li[data-id="${seek.id}"]`);
      return old && sameRow(old, fresh) ? old : fresh;
    });
    rows.forEach((node, i) => {
      if (body.children[i] !== node) body.insertBefore(node, body.children[i] ?? null);
    });
    while (body.children.length > rows.length) body.lastElementChild.remove();
    setEmpty(seeks.length === 0);
  };
  const add = (seek) => {
    if (!body.querySelector(`li[data-id="${seek.id}"]`)) body.prepend(row(seek));
    setEmpty(false);
  };
  const change = (seek) => {
    const old = body.querySelector(`li[data-id="${seek.id}"]`);
    if (old) old.replaceWith(row(seek));
    else add(seek);
  };
  const remove = (id) => {
    body.querySelector(`li[data-id="${id}"]`)?.remove();
    setEmpty(body.children.length === 0);
  };

  let polling = null;
  const poll = async () => {
    try {
      const response = await fetch(table.dataset.seeksUrl, { headers: { Accept: "application/json" } });
      if (response.ok) render((await response.json()).seeks);
    } catch {
      // offline: try again at the next tick
    }
  };
  lobbySocket(table.dataset.wsPath, {
    onFrame: (frame) => {
      if (frame.type === "seeks") render(frame.seeks);
      else if (frame.type === "seek_added") add(frame.seek);
      else if (frame.type === "seek_changed") change(frame.seek);
      else if (frame.type === "seek_removed") remove(frame.id);
      else if (frame.type === "seek_accepted") window.location.assign(frame.url);
    },
    onUp: () => {
      clearInterval(polling);
      polling = null;
    },
    onDown: () => {
      if (!polling && table.dataset.seeksUrl) polling = setInterval(poll, POLL_MS);
    },
  });
}

function watchChallenge(node) {
  const id = node.dataset.watchChallenge;
  // A form of this page being sent (Leave, Start, Sit here) goes where its answer leads: a
  // frame caused by it must not reload the page over that navigation.
  let submitting = false;
  document.addEventListener("submit", () => {
    submitting = true;
  });
  const reload = () => {
    if (!submitting) window.location.reload();
  };
  lobbySocket(node.dataset.wsPath, {
    onFrame: (frame) => {
      if (frame.type === "seek_accepted" && frame.id === id) window.location.assign(frame.url);
      else if (frame.type === "seek_changed" && frame.id === id) reload();
      else if (frame.type === "seek_removed" && frame.id === id) reload();
    },
  });
  const url = node.dataset.statusUrl;
  if (!url) return;
  setInterval(async () => {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const status = await response.json();
      if (status.url) window.location.assign(status.url);
      else if (status.status !== "open") reload();
      else if (node.dataset.seats !== undefined && status.signature !== undefined
               && status.signature !== node.dataset.seats) reload();
    } catch {
      // offline: try again at the next tick
    }
  }, POLL_MS);
}

const seeks = document.getElementById("seeks");
if (seeks) watchSeeks(seeks);
for (const node of document.querySelectorAll("[data-watch-challenge]")) watchChallenge(node);
