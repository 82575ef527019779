// The players' clocks on a live game page, for any game (the shell drives it). The server
// owns the clocks (docs/clocks.md): each state it sends has `clock` = {control: {kind,
// label, ...}, remaining: [ms | null per seat], running: [seat indexes], started, lag_ms,
// in correspondence deadlines: [ISO date | null per seat], and no_increment: [seat
// indexes] when some seats gain no increment (an arena's berserk)},
// the time left as the state was made. This module only counts the running clocks down
// for display, from the moment the state arrived, until the next state replaces it; it
// never decides that a flag fell (the server's `ended` frame says so).
import { el, titledName } from "./dom.js";

const TICK_MS = 100;
const LOW_MS = 20_000; // a live clock under 20 s is shown with tenths and marked low
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const pad = (n) => String(n).padStart(2, "0");

/** A time left in the words and figures a clock shows ("4:05", "9.3", "2 d 5 h"). */
export function formatClock(ms, kind = "live") {
  const left = Math.max(0, ms);
  if (kind === "correspondence" && left >= HOUR) {
    const days = Math.floor(left / DAY);
    const hours = Math.floor((left % DAY) / HOUR);
    const minutes = Math.floor((left % HOUR) / 60_000);
    return days ? `${days} d ${hours} h` : `${hours} h ${pad(minutes)} min`;
  }
  if (kind === "live" && left < LOW_MS) {
    return (Math.floor(left / 100) / 10).toFixed(1);
  }
  const seconds = Math.floor(left / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(seconds % 60)}` : `${m}:${pad(seconds % 60)}`;
}

const DATE_PARTS = { weekday: "short", day: "numeric", month: "short", hour: "2-digit",
  minute: "2-digit" };
const DEADLINE_FORMAT = new Intl.DateTimeFormat(undefined, { ...DATE_PARTS, timeZoneName: "short" });
const SHORT_DEADLINE_FORMAT = new Intl.DateTimeFormat(undefined, DATE_PARTS);

/** A deadline as a date in the member's own time zone (the browser's): "Fri 5 Dec, 14:30
 * CET", or without the zone's name when `short` (a clock on a player's bar). `when` is a
 * Date or an ISO 8601 string. */
export function formatDeadline(when, { short = false } = {}) {
  const date = when instanceof Date ? when : new Date(when);
  return (short ? SHORT_DEADLINE_FORMAT : DEADLINE_FORMAT).format(date);
}

/** The clocks: one per seat that has one, named. A view that draws its players' bars puts a
 * `[data-clock-slot=<side>]` in each, and that seat's clock goes there, beside the board, as
 * lichess shows it (issue #27: on a phone the box was below the board, the controls and the
 * player's card). Clocks without a slot go in the box ([data-clocks]), captioned with the
 * time control; the box hides when it holds none. A box marked `data-clock-bar` takes every
 * clock, slots or not: a compact bar the view keeps in view (sticky) while its player
 * decides (issue #42: a game of up to four seats has no bar beside the board per player);
 * the viewer's own clock there says "You". */
export class ClockDisplay {
  constructor(container) {
    this.container = container;
    this.clock = null;
    this.seats = [];
    this.receivedAt = 0;
    this.timer = null;
    this.items = [];
  }

  /** A new state arrived: show its clocks (none if untimed) and count from now. */
  update(state) {
    this.clock = state.clock || null;
    this.seats = state.seats || [];
    this.viewer = state.viewer ?? null;
    this.over = Boolean(state.over);
    // A finished game's clocks no longer run: its bar scrolls away with the page instead
    // of staying over the final scoring.
    this.container?.classList.toggle("is-over", this.over);
    this.receivedAt = performance.now();
    this.build();
    this.render();
    clearInterval(this.timer);
    this.timer = null;
    if (this.clock && !this.over && (this.clock.running || []).length) {
      this.timer = setInterval(() => this.render(), TICK_MS);
    }
  }

  build() {
    if (!this.container) return;
    this.container.replaceChildren();
    this.items = [];
    if (!this.clock) {
      this.container.hidden = true;
      return;
    }
    const bar = this.container.hasAttribute("data-clock-bar");
    const caption = el("p", bar ? "clocks-control visually-hidden" : "clocks-control",
      this.clock.control?.label || "");
    this.container.append(caption);
    let boxed = 0;
    (this.clock.remaining || []).forEach((ms, index) => {
      if (ms === null || ms === undefined) return;
      const seat = this.seats[index] || {};
      const slot = seat.side && !bar ? document.querySelector(`[data-clock-slot="${seat.side}"]`) : null;
      const mine = index === this.viewer;
      const item = el("div", `clock side-${seat.side || index}${slot ? " is-on-bar" : ""}${mine ? " is-mine" : ""}`);
      item.dataset.seat = String(index);
      const name = titledName(seat.name, seat.title);
      const full = name ? `${name} (${seat.label})` : seat.label || "";
      const time = el("span", "clock-time");
      time.setAttribute("role", "timer");
      if (bar) {
        // Short on the bar ("You", "bob"), whole for screen readers ("bob (Seat 2)").
        const shown = el("span", "clock-name", mine ? "You" : name || seat.label || "");
        shown.setAttribute("aria-hidden", "true");
        item.append(shown, el("span", "visually-hidden", mine ? `You, ${full}` : full), time);
      } else {
        item.append(el("span", slot ? "clock-name visually-hidden" : "clock-name", full), time);
      }
      if ((this.clock.no_increment || []).includes(index) && this.clock.control?.increment_ms) {
        // A seat that gains none (an arena's berserk): the control's "+3" is not theirs.
        item.append(el("span", "clock-note", "no increment"));
      }
      const deadline = (this.clock.deadlines || [])[index];
      if (deadline && !this.over) {
        // correspondence: the date the seat's decision is due, beside its countdown
        const due = el("span", "clock-deadline");
        const date = el("time", "", formatDeadline(deadline, { short: Boolean(slot) }));
        date.setAttribute("title", formatDeadline(deadline));
        date.setAttribute("datetime", deadline);
        due.append("due ", date);
        item.append(due);
      }
      if (slot) slot.replaceChildren(item);
      else {
        this.container.append(item);
        boxed += 1;
      }
      this.items.push({ index, item, time });
    });
    this.container.hidden = boxed === 0;
  }

  /** Each clock's time now (the running ones counted down since the state arrived). */
  remaining() {
    if (!this.clock) return [];
    const passed = performance.now() - this.receivedAt;
    const running = new Set(this.over ? [] : this.clock.running || []);
    return (this.clock.remaining || []).map((ms, i) =>
      ms === null || ms === undefined ? null : Math.max(0, running.has(i) ? ms - passed : ms),
    );
  }

  render() {
    if (!this.clock) return;
    const now = this.remaining();
    const running = new Set(this.over ? [] : this.clock.running || []);
    const kind = this.clock.control?.kind || "live";
    for (const { index, item, time } of this.items) {
      const left = now[index] ?? 0;
      const text = formatClock(left, kind);
      if (time.textContent !== text) time.textContent = text;
      item.classList.toggle("is-running", running.has(index));
      item.classList.toggle("is-low", kind === "live" && left < LOW_MS);
      item.classList.toggle("is-out", left <= 0);
    }
  }
}
