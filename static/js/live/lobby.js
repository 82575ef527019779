// The lobby, live, for the lobby page and a link challenge's waiting page (one module, no
// inline scripts). The lobby socket (docs/live-protocol.md, "/ws/lobby/") pushes `seeks`,
// `seek_added`, `seek_removed`, and `seek_accepted` to a seek's creator; it reconnects with
// the game socket's backoff. URLs come from the page: data-ws-path (the lobby socket's path),
// data-seeks-url / data-status-url (the polling fallbacks) and each seek's `accept_url`.
//
//   Lobby:      <table id="seeks" data-ws-path data-seeks-url data-me data-csrf>: rows kept
//               live; without a socket, seeks.json is polled every 3 s.
//   Challenge:  <… data-watch-challenge="<id>" data-ws-path data-status-url>: go to the game
//               as soon as someone accepts (the socket tells the creator; a poll of the
//               challenge's status every 3 s covers blocked WebSockets).
import { el, wsUrl } from "./dom.js";
import { backoffDelay } from "./socket.js";

const POLL_MS = 3_000;

/** A lobby socket that reconnects with backoff; onUp / onDown say when it opens / closes. */
function lobbySocket(path, { onFrame, onUp, onDown }) {
  if (!path || !("WebSocket" in window)) {
    onDown?.();
    return;
  }
  let attempt = 0;
  const connect = () => {
    let ws;
    try {
      ws = new WebSocket(wsUrl(path));
    } catch {
      onDown?.();
      return;
    }
    ws.addEventListener("open", () => {
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

function watchSeeks(table) {
  const body = table.querySelector("tbody");
  const empty = document.querySelector(".empty-seeks");
  const { me, csrf } = table.dataset;
  const setEmpty = (isEmpty) => {
    if (empty) empty.hidden = !isEmpty;
  };
  const row = (seek) => {
    const tr = el("tr", "");
    tr.dataset.id = seek.id;
    for (const text of [seek.by, seek.rating, `${seek.size}×${seek.size}`, seek.time_control_label, seek.color]) {
      tr.append(el("td", "", String(text)));
    }
    const td = el("td", "");
    if (me && seek.by !== me && seek.accept_url) {
      const form = el("form", "");
      form.method = "post";
      form.action = seek.accept_url;
      const input = el("input", "");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = csrf;
      const button = el("button", "button button-small", "Accept");
      button.type = "submit";
      form.append(input, button);
      td.append(form);
    }
    tr.append(td);
    return tr;
  };
  const render = (seeks) => {
    body.replaceChildren(...seeks.map(row));
    setEmpty(seeks.length === 0);
  };
  const add = (seek) => {
    if (!body.querySelector(`tr[data-id="${seek.id}"]`)) body.prepend(row(seek));
    setEmpty(false);
  };
  const remove = (id) => {
    body.querySelector(`tr[data-id="${id}"]`)?.remove();
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
  lobbySocket(node.dataset.wsPath, {
    onFrame: (frame) => {
      if (frame.type === "seek_accepted" && frame.id === id) window.location.assign(frame.url);
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
      else if (status.status !== "open") window.location.reload();
    } catch {
      // offline: try again at the next tick
    }
  }, POLL_MS);
}

const seeks = document.getElementById("seeks");
if (seeks) watchSeeks(seeks);
for (const node of document.querySelectorAll("[data-watch-challenge]")) watchChallenge(node);
