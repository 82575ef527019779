// Abort and claim on a live game page, for any game (the shell drives it; docs/clocks.md).
// The state's `abandon` = {abortable, away: [ms | null per seat] | null, claim_after_ms}
// says whether the game may still be aborted (before every seat has moved) and, in a live
// game, how long each seat's player has been away (sockets closed). The box offers
// "Abort the game" while abortable, and "Claim the win" / "Call it a draw" once every
// opponent has been away for `claim_after_ms`; the server checks every rule again.
import { el } from "./dom.js";

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

  /** How long until a claim is allowed (ms), or null if nobody is away. */
  claimIn() {
    const info = this.info();
    if (!info || info.abortable || !info.away) return null;
    const passed = performance.now() - this.receivedAt;
    const others = info.away.filter((_, i) => i !== this.viewer);
    if (!others.length || others.some((ms) => ms === null || ms === undefined)) return null;
    const least = Math.min(...others) + passed;
    return Math.max(0, info.claim_after_ms - least);
  }

  waiting() {
    const wait = this.claimIn();
    return wait !== null && wait > 0;
  }

  render() {
    const info = this.info();
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
}
