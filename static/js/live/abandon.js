// Abort and claim on a live game page, for any game (the shell drives it; docs/clocks.md).
// The state's `abandon` = {abortable, away: [ms | null per seat] | null, claim_after_ms}
// says whether the game may still be aborted (before every seat has moved) and, in a live
// game, how long each seat's player has been away (sockets closed). The box offers
// "Abort the game" while abortable, and, with two seats, "Claim the win" / "Call it a draw"
// once the opponent has been away for `claim_after_ms`. With more than two seats the part
// also has `hand_over` ("bot" or "dormant"): nobody claims the game, but each seat whose
// player has been away that long gets its own button, which hands it to a bot ("Hand Bob's
// seat to a bot") or plays on without it ("Play on without Bob"); the others play on.
// The server checks every rule again.
import { el, titledName } from "./dom.js";

export class AbandonBox {
  constructor(container, { onAbort, onClaim }) {
    this.container = container;
    this.onAbort = onAbort;
    this.onClaim = onClaim;
    this.timer = null;
    this.key = "";
  }

  /** A new state (or presence news) arrived; `viewer` is this page's seat or null. */
  update(state, viewer) {
    this.state = state;
    this.viewer = viewer;
    this.receivedAt = performance.now();
    clearInterval(this.timer);
    this.timer = null;
    this.render();
    if (this.waiting()) this.timer = setInterval(() => this.render(), 1000);
  }

  info() {
    const { state, viewer } = this;
    if (!this.container || viewer === null || !state || state.over) return null;
    return state.abandon || null;
  }

  /** A seat's name as the page shows it (its holder's name, else its label). */
  name(seat) {
    const info = this.state?.seats?.[seat];
    return titledName(info?.name, info?.title) || info?.label || `Seat ${seat + 1}`;
  }

  /** More than two seats: the others' seats whose players are away, each with the ms
   * until it may be claimed (0: now). */
  awaySeats() {
    const info = this.info();
    if (!info || info.abortable || !info.away || !info.hand_over) return [];
    const passed = performance.now() - this.receivedAt;
    return info.away
      .map((ms, seat) => ({ seat, ms }))
      .filter(({ seat, ms }) => seat !== this.viewer && ms !== null && ms !== undefined)
      .map(({ seat, ms }) => ({ seat, wait: Math.max(0, info.claim_after_ms - (ms + passed)) }));
  }

  /** How long until a claim is allowed (ms), or null if nobody is away (two seats). */
  claimIn() {
    const info = this.info();
    if (!info || info.abortable || !info.away || info.hand_over) return null;
    const passed = performance.now() - this.receivedAt;
    const others = info.away.filter((_, i) => i !== this.viewer);
    if (!others.length || others.some((ms) => ms === null || ms === undefined)) return null;
    const least = Math.min(...others) + passed;
    return Math.max(0, info.claim_after_ms - least);
  }

  waiting() {
    if (this.info()?.hand_over) return this.awaySeats().some(({ wait }) => wait > 0);
    const wait = this.claimIn();
    return wait !== null && wait > 0;
  }

  render() {
    const info = this.info();
    if (info && !info.abortable && info.hand_over) {
      this.renderSeats(info.hand_over === "bot");
      return;
    }
    const wait = this.claimIn();
    const key = !info ? "none" : info.abortable ? "abort" : wait === null ? "none" : wait > 0 ? "wait" : "claim";
    if (!this.container) return;
    if (key === "wait") {
      const text = this.container.querySelector("[data-claim-wait]");
      const words = `Your opponent left. You may claim the game in ${Math.ceil(wait / 1000)} s.`;
      if (this.key === "wait" && text) {
        text.textContent = words;
        return;
      }
    } else if (key === this.key) {
      return;
    } else if (this.key === "wait" && key === "claim") {
      clearInterval(this.timer);
      this.timer = null;
    }
    this.key = key;
    this.container.replaceChildren();
    this.container.hidden = key === "none";
    if (key === "abort") {
      const button = el("button", "btn", "Abort the game");
      button.type = "button";
      button.dataset.action = "abort";
      button.addEventListener("click", () => this.onAbort());
      this.container.append(el("p", "hint", "Nobody's rating changes if the game is aborted before every player has moved."), button);
    } else if (key === "wait") {
      const text = el("p", "");
      text.dataset.claimWait = "";
      text.textContent = `Your opponent left. You may claim the game in ${Math.ceil(wait / 1000)} s.`;
      this.container.append(text);
    } else if (key === "claim") {
      const win = el("button", "btn primary", "Claim the win");
      win.type = "button";
      win.dataset.action = "claim-win";
      win.addEventListener("click", () => this.onClaim("win"));
      const draw = el("button", "btn", "Call it a draw");
      draw.type = "button";
      draw.dataset.action = "claim-draw";
      draw.addEventListener("click", () => this.onClaim("draw"));
      this.container.append(el("p", "", "Your opponent left the game."), win, " ", draw);
    }
  }

  /** More than two seats: a line for each seat whose player is away, with a button once
   * it may be claimed. */
  renderSeats(bot) {
    if (!this.container) return;
    const seats = this.awaySeats();
    const words = (seat, wait) =>
      `${this.name(seat)} left. You may ${bot ? "hand their seat to a bot" : "play on without them"} in ${Math.ceil(wait / 1000)} s.`;
    const key = seats.length ? `seats:${seats.map(({ seat, wait }) => `${seat}${wait > 0 ? "w" : "c"}`).join(",")}` : "none";
    if (key === this.key) {
      for (const { seat, wait } of seats) {
        const text = this.container.querySelector(`[data-claim-wait="${seat}"]`);
        if (text && wait > 0) text.textContent = words(seat, wait);
      }
      return;
    }
    this.key = key;
    this.container.replaceChildren();
    this.container.hidden = key === "none";
    for (const { seat, wait } of seats) {
      if (wait > 0) {
        const text = el("p", "", words(seat, wait));
        text.dataset.claimWait = String(seat);
        this.container.append(text);
        continue;
      }
      const name = this.name(seat);
      const button = el("button", "btn", bot ? `Hand ${name}'s seat to a bot` : `Play on without ${name}`);
      button.type = "button";
      button.dataset.action = "claim-seat";
      button.dataset.seat = String(seat);
      button.addEventListener("click", () => this.onClaim(null, seat));
      this.container.append(el("p", "", `${name} left the game.`), button);
    }
    if (!this.waiting()) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
