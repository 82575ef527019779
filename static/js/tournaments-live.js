// A tournament's page, live (templates/tournaments/detail.html; docs/tournaments.md,
// "Live"). The tournament socket (/ws/tournament/<id>/) sends `sections` frames: HTML the
// server rendered from the page's own partials, one per section ([data-live-section]:
// facts, play, then a Swiss's standings and rounds or an arena's `arena`). This module
// swaps them in and knows no game.
//
// - On every open (the first and each reconnect) the server sends every section as this
//   viewer sees it, so nothing missed while the socket was down stays missing.
// - Each frame has `at` (ms, when its reads began): a section older than the one shown is
//   dropped (a frame that was on its way while the page got newer ones on connect).
// - Frames sent to everyone are rendered for nobody in particular: the page marks its own
//   standings row (`data-user`) and turns "Watch" into "Play" for the game of its "Play
//   now" (`data-game`), as the server does for the first render. A member's own section
//   (an arena player's pause and berserk forms) comes without a CSRF token: the page's
//   own (`data-csrf`) is put in.
// - Reconnects with the game socket's backoff (static/js/live/socket.js); 4404 stops.
// - A Swiss between rounds shows a countdown to the next round ([data-countdown-ms]: the
//   milliseconds left when the server rendered it). It counts down in the browser from
//   the moment the section arrived (no clock of the viewer's is trusted) and says
//   `data-countdown-done` at 0; the round's start comes as the next frame.
//
// The list (/tournaments/, [data-tournament-list]: the page's game or "") opens
// /ws/tournaments/: a `list` frame (every group's rows) on each open, then a `row` frame
// (templates/tournaments/_row.html, with its group, game and start) for each tournament
// that changed, filed under its group in the page's order or dropped for another game.
import { formatDeadline } from "./live/clock.js";
import { wsUrl } from "./live/dom.js";
import { afterClose, backoffDelay } from "./live/socket.js";
import { notificationFrame, socketReopened } from "./notifications.js";

const PING_MS = 25_000;
const LATER_ATTEMPT = 3; // 4429 and 1013: come back after a few seconds at least

const SHARED = ['[data-live-section="standings"]', '[data-live-section="rounds"]',
  '[data-live-section="arena"]'];
const within = (selector) => SHARED.map((section) => `${section} ${selector}`).join(", ");

/** Mark the viewer's own row and game in freshly swapped sections. */
export function markViewer(root, you) {
  const play = root.querySelector('[data-live-section="play"] [data-game]');
  const playing = play ? play.getAttribute("data-game") : "";
  for (const row of root.querySelectorAll(within("tr[data-user]"))) {
    row.classList.toggle("is-you", Boolean(you) && row.getAttribute("data-user") === you);
  }
  for (const link of root.querySelectorAll(within("a[data-game]"))) {
    const verb = link.querySelector(".game-verb");
    if (!verb) continue;
    if (playing && link.getAttribute("data-game") === playing) {
      verb.textContent = "Play";
    } else if (verb.textContent === "Play") {
      verb.textContent = "Watch"; // no longer the viewer's game in progress
    }
  }
}

/** The server writes times in UTC; shown in the viewer's own zone (static/js/deadlines.js). */
function localTimes(box) {
  for (const time of box.querySelectorAll("time[data-deadline]")) {
    const when = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(when.getTime())) time.textContent = formatDeadline(when);
  }
}

/** Forms sent without a token (rendered for a socket, not a request) get the page's. */
function fillTokens(box, csrf) {
  if (!csrf) return;
  for (const input of box.querySelectorAll('input[name="csrfmiddlewaretoken"]')) {
    if (!input.getAttribute("value")) input.setAttribute("value", csrf);
  }
}

/** Apply a `sections` frame to `root`; `shown` keeps each section's `at`. */
export function applySections(root, frame, shown, you, csrf = "") {
  let changed = false;
  for (const [name, html] of Object.entries(frame.sections || {})) {
    const box = root.querySelector(`[data-live-section="${name}"]`);
    if (!box) continue;
    if ((shown.get(name) ?? -Infinity) > frame.at) continue; // older than what is shown
    shown.set(name, frame.at);
    const current = box.cloneNode(true);
    for (const input of current.querySelectorAll('input[name="csrfmiddlewaretoken"]')) input.setAttribute("value", "");
    if (current.innerHTML.trim() !== html) {
      box.innerHTML = html;
      changed = true;
      localTimes(box);
      fillTokens(box, csrf);
    }
  }
  markViewer(root, you);
  return changed;
}

/** "m:ss" for a countdown's time left. */
export function countdownText(ms) {
  const seconds = Math.ceil(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Each countdown in `root`: its end fixed the first time it is seen (now + the
 * server's milliseconds left), its text the time left from `now`. */
export function countdowns(root, now = performance.now()) {
  for (const node of root.querySelectorAll("[data-countdown-ms]")) {
    if (!node.dataset.countdownEnd) {
      node.dataset.countdownEnd = String(now + Number(node.dataset.countdownMs || 0));
    }
    const left = Number(node.dataset.countdownEnd) - now;
    const text = left > 0 ? countdownText(left) : node.dataset.countdownDone || "0:00";
    if (node.textContent !== text) node.textContent = text;
  }
}

/** A socket to `path` that reconnects with backoff (4404 stops); `onFrame` gets each
 * frame but the bell's notifications. Every open is answered with the current state. */
function liveSocket(path, onFrame) {
  if (!("WebSocket" in window)) return;
  let attempt = 0;
  let everOpened = false;
  let pinger = 0;
  const connect = () => {
    let ws;
    try {
      ws = new WebSocket(wsUrl(path));
    } catch {
      return;
    }
    ws.addEventListener("open", () => {
      if (everOpened) socketReopened(); // the header's bell catches up
      everOpened = true;
      attempt = 0;
      clearInterval(pinger);
      pinger = setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
      }, PING_MS);
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
    ws.addEventListener("close", (event) => {
      clearInterval(pinger);
      const next = afterClose(event.code);
      if (next === "stop") return;
      if (next === "later" || next === "poll") attempt = Math.max(attempt, LATER_ATTEMPT);
      setTimeout(connect, backoffDelay(attempt));
      attempt += 1;
    });
  };
  connect();
}

function startPage() {
  const config = document.querySelector("[data-tournament-live]");
  if (!config) return;
  const id = config.getAttribute("data-tournament-live");
  const you = config.getAttribute("data-you") || "";
  const csrf = config.getAttribute("data-csrf") || "";
  const root = document.querySelector("main") || document.body;
  const shown = new Map();
  countdowns(root);
  setInterval(() => countdowns(root), 250);
  liveSocket(`/ws/tournament/${id}/`, (frame) => {
    if (frame.type === "sections" && frame.tournament === id) {
      applySections(root, frame, shown, you, csrf);
      countdowns(root);
    }
  });
}

const FINISHED_SHOWN = 50; // as the server's list (tournaments/pages.py)

/** The list (templates/tournaments/index.html): each group's rows kept current. */
export function startList(lists = document.querySelector("[data-tournament-list]")) {
  if (!lists) return null;
  const game = lists.getAttribute("data-tournament-list") || "";
  const seen = new Map(); // tournament id -> the `at` of the row shown
  let listAt = -Infinity;
  const body = (group) => lists.querySelector(`tbody[data-rows="${group}"]`);
  const tidy = () => {
    for (const tbody of lists.querySelectorAll("tbody[data-rows]")) {
      const group = tbody.closest("[data-group]");
      const empty = tbody.rows.length === 0;
      const scroll = tbody.closest(".table-scroll");
      if (scroll) scroll.hidden = empty;
      const words = group?.querySelector("[data-empty]");
      if (words) words.hidden = !empty;
    }
  };
  const rowOf = (html) => {
    const holder = document.createElement("tbody");
    holder.innerHTML = html;
    const row = holder.querySelector("tr");
    if (row) localTimes(row);
    return row;
  };
  const place = (frame) => {
    for (const old of lists.querySelectorAll(`tr[data-tournament="${frame.tournament}"]`)) old.remove();
    const tbody = body(frame.group);
    if (!tbody || (game && frame.game !== game)) return;
    const row = rowOf(frame.html);
    if (!row) return;
    const soonestFirst = frame.group === "upcoming";
    const after = [...tbody.rows].find((other) => {
      const starts = Number(other.getAttribute("data-starts"));
      return soonestFirst ? starts > frame.starts : starts < frame.starts;
    });
    tbody.insertBefore(row, after ?? null);
    if (frame.group === "finished") while (tbody.rows.length > FINISHED_SHOWN) tbody.deleteRow(-1);
  };
  const onFrame = (frame) => {
    if (frame.type === "list") {
      if (frame.at < listAt) return;
      listAt = frame.at;
      seen.clear();
      for (const [group, rows] of Object.entries(frame.rows || {})) {
        const tbody = body(group);
        if (!tbody) continue;
        tbody.replaceChildren(...rows.map(rowOf).filter(Boolean));
      }
    } else if (frame.type === "row") {
      if (Math.max(seen.get(frame.tournament) ?? -Infinity, listAt) > frame.at) return;
      seen.set(frame.tournament, frame.at);
      place(frame);
    } else {
      return;
    }
    tidy();
  };
  liveSocket(`/ws/tournaments/${game ? `?game=${encodeURIComponent(game)}` : ""}`, onFrame);
  return onFrame;
}

startPage();
startList();
