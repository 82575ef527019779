// The table chat's panel (templates/games/live/_chat.html; docs/chat.md). It knows no game:
// the shell hands it the chat frames (`chat*`), tells it when the socket opens and when the
// game is over, and gives it `send(frame)` (false when the socket is not open).
//
// - Each room keeps the last number (`seq`) the page has; a socket that opens sends
//   `chat_sync` with those numbers and gets the messages it lacks (`chat_state`). A frame
//   whose number skips one asks again (a message of a muted member is never sent, so a
//   skip is normal). When the game ends, the page asks again: the spectators' room opens
//   to the players then.
// - A moderator's changes (a message hidden, or shown again) come numbered per room
//   (`version`): a frame at or below the page's number is old news and dropped; one that
//   skips a number means the page missed one, and it reloads the room; a `chat_state` with
//   a higher number than the page had (changes made while its socket was down) reloads too.
// - Text goes into the page as text (`textContent`), never as markup; links stay text.
// - New messages are announced in a polite live region ("alice: hello"); the logs
//   themselves are not live, so the buttons beside each message are not read out.
// - The panel is a <details>: open on wide screens, closed on phones, where its summary
//   counts the messages that came while it was closed.

const ROOM_NAMES = { players: "players", spectators: "spectators" };
const NARROW = "(max-width: 860px)";
const KEEP = 200; // lines kept per room on the page

// An element with attributes and, if given, its text (always as text, never markup).
function el(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

export class ChatPanel {
  constructor(root, { send }) {
    this.root = root;
    this.send = send;
    this.last = { players: 0, spectators: 0 };
    this.moderated = {}; // each room's moderation number, once a chat_state told it
    this.you = null;
    this.write = null;
    this.muted = [];
    this.over = false;
    this.live = false;
    this.unread = 0;
    this.pending = "";
    this.input = root.querySelector("[data-chat-input]");
    this.form = root.querySelector("[data-chat-form]");
    if (window.matchMedia?.(NARROW).matches) root.open = false;
    root.addEventListener("toggle", () => {
      if (root.open) this.setUnread(0);
    });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.say();
    });
  }

  room(name) {
    return this.root.querySelector(`[data-chat-room="${name}"]`);
  }

  // ---- from the shell -------------------------------------------------------------------

  connected() {
    this.live = true;
    this.sync();
    this.drawForm();
  }

  disconnected() {
    this.live = false;
    this.drawForm();
  }

  setOver(over) {
    if (over && !this.over && this.live) this.sync(); // the spectators' room opens
    this.over = Boolean(over);
  }

  handle(frame) {
    switch (frame.type) {
      case "chat":
        this.received(frame);
        return;
      case "chat_state":
        this.applyState(frame);
        return;
      case "chat_hidden":
      case "chat_shown":
        this.moderation(frame);
        return;
      case "chat_muted":
        this.muted = frame.names || [];
        if (frame.muted) this.removeAuthor(frame.name);
        else this.reload(); // their earlier messages come back
        this.error(frame.muted ? `You muted ${frame.name}.` : `You unmuted ${frame.name}.`);
        this.drawMuted();
        return;
      case "chat_reported":
        this.error("Reported. Thank you: a moderator will look at it.");
        return;
      case "chat_error":
        if (this.pending && !this.input.value) this.input.value = this.pending;
        this.pending = "";
        this.error(frame.message || `Refused (${frame.code})`);
        return;
      default:
    }
  }

  // ---- frames ---------------------------------------------------------------------------

  sync() {
    this.send({ type: "chat_sync", after: { ...this.last } });
  }

  reload() {
    this.last = { players: 0, spectators: 0 };
    this.moderated = {}; // the answer's numbers are the room's own
    for (const log of this.root.querySelectorAll("[data-chat-log]")) {
      for (const line of log.querySelectorAll("[data-seq]")) line.remove();
    }
    this.sync();
  }

  received(frame) {
    const last = this.last[frame.room] ?? 0;
    if (frame.seq <= last) return; // had it
    if (frame.seq > last + 1) {
      this.sync(); // a gap (or a muted member's message): ask for what we lack
      return;
    }
    this.last[frame.room] = frame.seq;
    if (frame.author === this.you && frame.text === this.pending) this.pending = "";
    this.addLine(frame.room, frame);
    this.announce(frame);
  }

  // A moderator hid a message or showed one again, numbered in its room.
  moderation(frame) {
    const known = this.moderated[frame.room];
    if (known !== undefined) {
      if (frame.version <= known) return; // old news
      if (frame.version > known + 1) {
        this.reload(); // a change missed: the room again from the server
        return;
      }
      this.moderated[frame.room] = frame.version;
    }
    const room = this.room(frame.room);
    if (frame.type === "chat_hidden") {
      room?.querySelector(`[data-seq="${Number(frame.seq)}"]`)?.remove();
    } else if (frame.seq <= (this.last[frame.room] ?? 0) && !this.muted.includes(frame.author)
               && !room?.querySelector(`[data-seq="${Number(frame.seq)}"]`)) {
      this.addLine(frame.room, frame, { restored: true }); // later ones come by catch-up
    }
    this.drawEmpty();
  }

  applyState(frame) {
    if (frame.you !== undefined) this.you = frame.you;
    this.write = frame.write;
    this.reason = frame.reason || "";
    this.muted = frame.muted || [];
    if (frame.limit) {
      this.input.maxLength = frame.limit;
      this.root.querySelector("[data-chat-hint]").textContent = `At most ${frame.limit} characters.`;
    }
    const readable = new Set();
    let missed = false;
    for (const part of frame.rooms || []) {
      readable.add(part.room);
      const known = this.moderated[part.room];
      if (known !== undefined && (part.version ?? 0) > known) missed = true;
      this.moderated[part.room] = Math.max(known ?? 0, part.version ?? 0);
      const room = this.room(part.room);
      if (!room) continue;
      for (const seq of part.hidden || []) room.querySelector(`[data-seq="${Number(seq)}"]`)?.remove();
      for (const line of part.messages || []) {
        if (line.seq > (this.last[part.room] ?? 0)) this.addLine(part.room, line);
      }
      this.last[part.room] = Math.max(this.last[part.room] ?? 0, part.seq);
    }
    for (const name of Object.keys(ROOM_NAMES)) {
      const room = this.room(name);
      if (room) room.hidden = !readable.has(name);
    }
    this.spectatorsClosed = !readable.has("spectators");
    this.drawEmpty();
    this.drawForm();
    this.drawMuted();
    if (missed) this.reload(); // a message shown again while away: it may be anywhere
  }

  // ---- drawing ----------------------------------------------------------------------------

  // A line at the end of its room's log; a `restored` one (shown again) in its place by
  // number, without counting as new.
  addLine(roomName, line, { restored = false } = {}) {
    const log = this.room(roomName)?.querySelector("[data-chat-log]");
    if (!log) return;
    const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    const time = new Date(line.at);
    const clock = Number.isNaN(time.getTime())
      ? ""
      : time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const item = el("p", { class: "chat-line" });
    item.dataset.seq = String(line.seq);
    item.dataset.author = line.author;
    item.append(
      el("time", { class: "chat-time", datetime: line.at }, clock),
      " ",
      el("span", { class: "chat-author" }, line.author),
      " ",
      el("span", { class: "chat-text" }, line.text),
    );
    if (this.you && line.author !== this.you) item.append(" ", this.actions(roomName, line));
    if (restored) {
      const after = [...log.querySelectorAll("[data-seq]")].find((l) => Number(l.dataset.seq) > line.seq);
      log.insertBefore(item, after ?? null);
      this.drawEmpty();
      return;
    }
    log.append(item);
    const lines = log.querySelectorAll("[data-seq]");
    if (lines.length > KEEP) lines[0].remove();
    if (stick) log.scrollTop = log.scrollHeight;
    if (!this.root.open) this.setUnread(this.unread + 1);
    this.drawEmpty();
  }

  // The two things a member may do with another's message, behind one small button.
  actions(roomName, line) {
    const box = el("span", { class: "chat-actions" });
    const more = el("button", {
      type: "button",
      class: "link-button chat-more",
      "aria-expanded": "false",
      "aria-label": `Report or mute ${line.author}`,
    }, "⋯");
    const menu = el("span", { class: "chat-menu", hidden: "" });
    const report = el("button", { type: "button", class: "link-button" }, "Report");
    const mute = el("button", { type: "button", class: "link-button" }, `Mute ${line.author}`);
    report.addEventListener("click", () => {
      this.send({ type: "chat_report", room: roomName, seq: line.seq }) || this.error("Not connected.");
      menu.hidden = true;
      more.setAttribute("aria-expanded", "false");
      more.focus();
    });
    mute.addEventListener("click", () => {
      if (!this.send({ type: "chat_mute", name: line.author, mute: true })) this.error("Not connected.");
      this.input.focus();
    });
    more.addEventListener("click", () => {
      menu.hidden = !menu.hidden;
      more.setAttribute("aria-expanded", String(!menu.hidden));
      if (!menu.hidden) report.focus();
    });
    menu.append(report, " ", mute);
    box.append(more, menu);
    return box;
  }

  removeAuthor(name) {
    for (const line of this.root.querySelectorAll("[data-seq]")) {
      if (line.dataset.author === name) line.remove();
    }
    this.drawEmpty();
  }

  drawEmpty() {
    for (const log of this.root.querySelectorAll("[data-chat-log]")) {
      const empty = log.querySelector("[data-chat-empty]");
      if (empty) empty.hidden = Boolean(log.querySelector("[data-seq]"));
    }
  }

  drawForm() {
    const note = this.root.querySelector("[data-chat-note]");
    const writing = this.live && Boolean(this.write);
    this.form.hidden = !writing;
    if (writing) {
      this.root.querySelector("[data-chat-label]").textContent = `Message to the ${ROOM_NAMES[this.write]}`;
    }
    const words = [];
    if (!this.live) words.push("Chat needs the live connection; it comes back with it.");
    else if (!this.write && this.reason) words.push(this.reason);
    if (this.live && this.spectatorsClosed) {
      words.push("The spectators' chat opens to the players when the game ends.");
    }
    note.textContent = words.join(" ");
    note.hidden = words.length === 0;
  }

  drawMuted() {
    const box = this.root.querySelector("[data-chat-muted]");
    box.replaceChildren();
    box.hidden = this.muted.length === 0;
    if (box.hidden) return;
    box.append("Muted: ");
    this.muted.forEach((name, i) => {
      if (i) box.append(", ");
      const unmute = el("button", { type: "button", class: "link-button", "aria-label": `Unmute ${name}` }, name);
      unmute.addEventListener("click", () => {
        if (!this.send({ type: "chat_mute", name, mute: false })) this.error("Not connected.");
      });
      box.append(unmute);
    });
    box.append(" (select a name to unmute)");
  }

  setUnread(count) {
    this.unread = count;
    const badge = this.root.querySelector("[data-chat-unread]");
    badge.textContent = count ? `${count} new` : "";
  }

  announce(line) {
    const region = this.root.querySelector("[data-chat-announce]");
    region.textContent = `${line.author} (${ROOM_NAMES[line.room] ?? line.room}): ${line.text}`;
  }

  error(text) {
    this.root.querySelector("[data-chat-error]").textContent = text;
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    if (!this.send({ type: "chat", text })) {
      this.error("Not connected: the message was not sent.");
      return;
    }
    this.pending = text;
    this.input.value = "";
    this.error("");
  }
}
