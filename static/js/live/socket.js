// The live transport of docs/live-protocol.md: one WebSocket to the game, with acks by
// ply, duplicate and gap handling, automatic reconnects, and an HTTP fallback (POST turns,
// poll events every 2 s) when the socket cannot connect.
//
// It tracks the ply the page has accepted and hands the page only frames in order:
//   onTurn(frame)      a `turn` frame for exactly the next ply (also the ack of ours)
//   onResigned(frame)  a `resigned` frame
//   onEnded(frame)     an `ended` frame: the site ended the game (on time, aborted, claimed)
//   onPresence(frame)  a `presence` frame: how long each seat's player has been away
//   onState(state)     a snapshot at least as new as what the page has
//   onError(frame)     an `error` frame (or a transport failure, code "network")
//   onRematch(frame)   a `rematch` frame (an offer, or the new game)
//   onDuplicate(frame) a `turn` frame for a ply already applied (used for the last-turn marks)
//   onSpectators(frame) a `spectators` frame: {count} sockets watching without a seat
//   onClosed(code)     the WebSocket closed with this code (4401: its session signed out);
//                      4403/4404 stop reconnecting, 4430 polls and retries after a minute,
//                      4429/1013 back off (`afterClose`)
//   onStatus(status)   "connecting" | "live" | "reconnecting" | "polling" | "offline"
//
// A game frame from the socket may carry a diff of the state instead of the state
// (docs/live-protocol.md, "Frames that carry what changed"): the socket applies it to the
// state this connection holds (./diff.js) and hands the page the frame with its whole
// `state`, as before; a diff that does not start from that state is dropped and the page
// catches up (`sync`), which ends with the state whole.
//
// It knows the protocol's frames and plies, never a game's rules or tokens.
import { HeldState } from "./diff.js";
import { wsUrl } from "./dom.js";
import { notificationFrame, socketReopened } from "../notifications.js";

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 10_000;
const POLL_MS = 2_000;
const PING_MS = 25_000;
const OPEN_TIMEOUT_MS = 5_000;
const FAILURES_BEFORE_POLLING = 2;

// Close codes the server refuses or ends a socket with (docs/live-protocol.md). A refused
// socket is accepted and then closed, so the page sees the code (not an HTTP 403):
export const CLOSE_HIDDEN = 4403; // not allowed to watch this game now: do not come back
export const CLOSE_NOT_FOUND = 4404; // no such game: do not come back
export const CLOSE_FLOODING = 4429; // too many frames: come back, but not at once
export const CLOSE_TOO_MANY = 4430; // too many spectators: read over HTTP, try much later
export const CLOSE_TRY_AGAIN = 1013; // the server cannot answer now: come back with backoff
const FINAL_CLOSES = new Set([CLOSE_HIDDEN, CLOSE_NOT_FOUND]);
const TOO_MANY_RETRY_MS = 60_000;
const SLOW_DOWN_ATTEMPT = 3; // the backoff's attempt for 4429 and 1013: 2–4 s at least

/** What the page does after a close with `code`: "stop", "poll" (and try the socket much
 * later), "later" (back off at least a few seconds) or "reconnect" (the usual backoff). */
export function afterClose(code) {
  if (FINAL_CLOSES.has(code)) return "stop";
  if (code === CLOSE_TOO_MANY) return "poll";
  if (code === CLOSE_FLOODING || code === CLOSE_TRY_AGAIN) return "later";
  return "reconnect";
}

export function backoffDelay(attempt) {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2)); // jitter: 50–100 %
}

export class GameSocket {
  constructor(config, handlers) {
    this.config = config; // {wsPath, turnUrl, resignUrl, abortUrl, claimUrl, eventsUrl, csrfToken, viewer}
    this.h = handlers;
    this.ply = config.ply;
    this.over = Boolean(config.over);
    this.pending = null; // {ply, token} sent and not yet acknowledged
    this.ws = null;
    this.attempt = 0;
    this.failures = 0;
    this.everOpened = false;
    this.polling = false;
    this.syncing = false;
    this.firstSync = true;
    this.stopped = false;
    this.status = "connecting";
    this.held = new HeldState(); // the state this socket's connection holds
  }

  start() {
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pollTimer);
    clearInterval(this.pingTimer);
    this.ws?.close();
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.h.onStatus?.(status);
  }

  // ---- WebSocket --------------------------------------------------------------------

  wsUrl() {
    return wsUrl(this.config.wsPath);
  }

  connect() {
    if (this.stopped || !("WebSocket" in window) || !this.config.wsPath) {
      this.startPolling();
      return;
    }
    if (!this.polling) this.setStatus(this.everOpened ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.wsUrl());
    } catch {
      this.onSocketFailed();
      return;
    }
    this.ws = ws;
    this.held.reset(); // a new connection sends its state whole first
    let opened = false;
    let heard = false; // a socket that closes before any frame arrives counts as a failure
    const openTimer = setTimeout(() => {
      if (!opened) ws.close();
    }, OPEN_TIMEOUT_MS);
    ws.addEventListener("open", () => {
      if (this.everOpened) socketReopened(); // the header's bell catches up
      opened = true;
      clearTimeout(openTimer);
      this.sync(this.firstSync ? Math.max(0, this.ply - 1) : this.ply);
      this.firstSync = false;
      this.h.onOpen?.();
      if (this.h.onSpectators) this.sendFrame({ type: "spectators" }); // the count, kept live
      if (this.pending) this.sendFrame({ type: "turn", ...this.pending });
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.sendFrame({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (message) => {
      if (!heard) {
        // The first frame proves the link works: live from now on.
        heard = true;
        this.everOpened = true;
        this.attempt = 0;
        this.failures = 0;
        this.stopPolling();
        this.setStatus("live");
      }
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (notificationFrame(frame)) return; // for the header's bell, not the game
      const whole = this.held.take(frame);
      if (whole === null) {
        this.sync(this.ply); // a diff from a state this page does not hold: catch up
        return;
      }
      this.handleFrame(whole);
    });
    ws.addEventListener("close", (event) => {
      this.h.onClosed?.(event.code);
      clearTimeout(openTimer);
      clearInterval(this.pingTimer);
      if (this.ws === ws) this.ws = null;
      this.syncing = false;
      if (!opened || !heard) this.failures += 1;
      this.onSocketClosed(event.code);
    });
  }

  onSocketClosed(code) {
    if (this.stopped) return;
    const next = afterClose(code);
    if (next === "stop") {
      // Refused for good (not allowed, or no such game): reconnecting would be refused
      // again, and so would polling.
      clearTimeout(this.reconnectTimer);
      this.stopPolling();
      this.setStatus("offline");
      return;
    }
    if (next === "poll") {
      // Too many spectators: follow the game over HTTP, and try a socket again much later.
      this.startPolling();
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => this.connect(), TOO_MANY_RETRY_MS);
      return;
    }
    if (next === "later") this.attempt = Math.max(this.attempt, SLOW_DOWN_ATTEMPT);
    this.onSocketFailed();
  }

  onSocketFailed() {
    if (this.stopped) return;
    // Never connected, or repeatedly failing to reconnect: play over HTTP meanwhile.
    if (this.failures >= (this.everOpened ? FAILURES_BEFORE_POLLING : 1)) {
      this.startPolling();
    } else if (!this.polling) {
      this.setStatus(this.everOpened ? "reconnecting" : "connecting");
    }
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  sendFrame(frame) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  sync(after) {
    if (this.polling && !this.isOpen()) {
      this.poll(after);
      return;
    }
    if (this.syncing) return;
    this.syncing = true;
    this.sendFrame({ type: "sync", after });
  }

  // ---- frames -------------------------------------------------------------------------

  handleFrame(frame) {
    switch (frame?.type) {
      case "turn": {
        if (frame.ply < this.ply) {
          this.h.onDuplicate?.(frame);
          return;
        }
        if (frame.ply > this.ply) {
          this.sync(this.ply); // a gap: catch up
          return;
        }
        this.ply = frame.ply + 1;
        if (this.acknowledges(frame)) this.pending = null;
        if (frame.state?.over) this.over = true;
        this.h.onTurn?.(frame);
        return;
      }
      case "resigned":
        if (this.over) return; // already shown
        this.pending = null;
        this.over = true;
        this.h.onResigned?.(frame);
        return;
      case "ended":
        if (frame.state?.over) {
          if (this.over) return; // already shown
          this.pending = null;
          this.over = true;
        }
        this.h.onEnded?.(frame);
        return;
      case "presence":
        this.h.onPresence?.(frame);
        return;
      case "state": {
        this.syncing = false;
        const state = frame.state;
        if (!state || state.ply < this.ply) return;
        if (state.ply > this.ply) this.pending = null;
        this.ply = state.ply;
        this.over = Boolean(state.over);
        this.h.onState?.(state);
        return;
      }
      case "rematch":
        this.h.onRematch?.(frame);
        return;
      case "queued": // a pre-turn of this seat's (docs/live-protocol.md), for the view
        this.h.onQueued?.(frame);
        return;
      case "spectators":
        this.h.onSpectators?.(frame);
        return;
      case "error":
        if (this.pending) this.pending = null;
        this.h.onError?.(frame);
        return;
      default:
        // The table chat's frames go to the chat (static/js/live/chat.js), never to a
        // game handler: a chat refusal does not clear the pending turn.
        if (typeof frame?.type === "string" && frame.type.startsWith("chat")) this.h.onChat?.(frame);
        return; // pong and anything unknown
    }
  }

  // Is this turn frame the answer to our pending decision? A decision carries the game's
  // ply, or, in a game whose seats decide at the same time, its seat's own count (`seq`):
  // then it is answered by a frame of our seat with that `seq`.
  acknowledges(frame) {
    if (!this.pending) return false;
    if (frame.seq === undefined) return this.pending.ply === frame.ply;
    return frame.seat === this.config.viewer && frame.seq === this.pending.ply;
  }

  // ---- sending --------------------------------------------------------------------------

  // `ply` is the number the decision carries: the game's ply, or the seat's own count of
  // decisions (`state.seqs[viewer]`) in a game whose seats decide at the same time.
  sendTurn(ply, token) {
    this.pending = { ply, token };
    if (this.sendFrame({ type: "turn", ply, token })) return;
    this.post(this.config.turnUrl, { ply: String(ply), token });
  }

  resign() {
    if (this.sendFrame({ type: "resign", ply: this.ply })) return;
    this.post(this.config.resignUrl, { ply: String(this.ply) });
  }

  abort() {
    if (this.sendFrame({ type: "abort" })) return;
    this.post(this.config.abortUrl, {});
  }

  // `claim("win" | "draw")` with two seats; `claim(null, seat)` with more: hand that
  // seat, whose player left, to its stand-in (docs/clocks.md).
  claim(result, seat = null) {
    const frame = seat === null ? { type: "claim", result } : { type: "claim", seat };
    if (this.sendFrame(frame)) return;
    this.post(this.config.claimUrl, seat === null ? { result } : { seat: String(seat) });
  }

  async post(url, fields) {
    const body = new URLSearchParams(fields);
    try {
      const response = await fetch(url, {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: { "X-CSRFToken": this.config.csrfToken, Accept: "application/json" },
      });
      let frame = null;
      try {
        frame = await response.json();
      } catch {
        frame = null;
      }
      if (frame?.type) {
        this.handleFrame(frame);
        // A refusal may carry the state as it is (a refused abort or claim): draw it.
        if (frame.type === "error" && frame.state) this.handleFrame({ type: "state", state: frame.state });
        if (frame.type === "error" && frame.code === "stale_ply") this.poll(this.ply);
      } else if (!response.ok) {
        this.handleFrame({ type: "error", code: "http", message: `The server refused that (${response.status}).` });
      }
    } catch {
      this.handleFrame({ type: "error", code: "network", message: "Could not reach the server; try again." });
    }
  }

  // ---- polling fallback --------------------------------------------------------------

  startPolling() {
    if (this.stopped) return;
    if (!this.polling) {
      this.polling = true;
      this.poll(this.firstSync ? Math.max(0, this.ply - 1) : this.ply);
      this.firstSync = false;
      this.pollTimer = setInterval(() => this.poll(this.ply), POLL_MS);
    }
    this.setStatus("polling");
  }

  stopPolling() {
    if (!this.polling) return;
    this.polling = false;
    clearInterval(this.pollTimer);
  }

  async poll(after) {
    if (!this.config.eventsUrl) return;
    const url = new URL(this.config.eventsUrl, window.location.href);
    url.searchParams.set("after", String(after));
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      for (const frame of data.turns || []) this.handleFrame({ type: "turn", ...frame });
      if (data.state) this.handleFrame({ type: "state", state: data.state });
      if (this.polling) this.setStatus("polling");
    } catch {
      if (this.polling) this.setStatus("offline");
    }
  }
}
