// What another app shows beside a live game's seats, for any game (the shell drives it;
// docs/live-protocol.md, `extras`): the state's `extras` = {marks: [{seat, label, title}],
// actions: [{seat, key, label, hint, url}]}, public, sent by the server with only the
// actions legal now. A mark goes beside its seat's clock (or, without one, in the box
// [data-extras] as "name: label"); the viewer's own seat's actions are buttons in that box,
// each POSTed to its `url` with the page's CSRF token. The page decides nothing: the new
// state (the game's socket brings it to every page) drops the button and adds the mark;
// a refusal's words go to the shell's message line. An arena game's berserk is the first
// user (docs/tournaments-arena.md).
import { el } from "./dom.js";

export class SeatExtras {
  constructor(root, container, { csrfToken, onMessage }) {
    this.root = root;
    this.container = container;
    this.csrfToken = csrfToken;
    this.onMessage = onMessage;
    this.key = "";
    this.busy = false;
  }

  /** A new state was drawn (its clocks already built); `viewer` is this page's seat or null. */
  update(state, viewer) {
    const extras = state.extras || { marks: [], actions: [] };
    const seats = state.seats || [];
    const actions = viewer === null || state.over
      ? [] : (extras.actions || []).filter((action) => action.seat === viewer);
    const unplaced = this.placeMarks(extras.marks || [], seats);
    const key = JSON.stringify([actions, unplaced]);
    if (key === this.key || !this.container) return;
    this.key = key;
    this.busy = false;
    this.container.replaceChildren();
    for (const mark of unplaced) {
      const seat = seats[mark.seat] || {};
      const line = el("p", "seat-mark-line");
      line.append(`${seat.name || seat.label || ""}: `, this.markNode(mark));
      this.container.append(line);
    }
    actions.forEach((action, index) => this.container.append(this.actionNode(action, index)));
    this.container.hidden = !this.container.childElementCount;
  }

  /** A mark: an icon and its label (on a phone's player bar the label is for screen
   * readers alone, game.css), its title the longer words. */
  markNode(mark) {
    const node = el("span", "seat-mark");
    const icon = el("span", "seat-mark-icon", "⚡");
    icon.setAttribute("aria-hidden", "true");
    node.append(icon, el("span", "seat-mark-label", mark.label));
    node.dataset.mark = mark.label.toLowerCase();
    if (mark.title) node.title = mark.title;
    return node;
  }

  /** Each mark into its seat's clock; the marks of seats without a clock are returned. */
  placeMarks(marks, seats) {
    for (const old of this.root.querySelectorAll(".clock .seat-mark")) old.remove();
    const unplaced = [];
    for (const mark of marks) {
      const clock = this.root.querySelector(`.clock[data-seat="${mark.seat}"]`);
      if (!clock) {
        unplaced.push(mark);
        continue;
      }
      const seat = seats[mark.seat] || {};
      const node = this.markNode(mark);
      node.append(el("span", "visually-hidden", ` (${seat.name || seat.label || ""})`));
      clock.prepend(node);
    }
    return unplaced;
  }

  actionNode(action, index) {
    const box = el("div", "seat-action");
    const hint = el("p", "hint", action.hint || "");
    hint.id = `seat-action-hint-${index}`;
    const button = el("button", "btn primary", action.label);
    button.type = "button";
    button.dataset.action = `extra-${action.key}`;
    button.setAttribute("aria-describedby", hint.id);
    button.addEventListener("click", () => this.send(action, button));
    box.append(button, hint);
    return box;
  }

  async send(action, button) {
    if (this.busy) return;
    this.busy = true;
    button.disabled = true;
    let answer = null;
    try {
      const response = await fetch(action.url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRFToken": this.csrfToken, Accept: "application/json" },
      });
      answer = await response.json().catch(() => null);
      if (!response.ok) {
        this.onMessage(answer?.message || `The server refused that (${response.status}).`, true);
      }
    } catch {
      this.onMessage("Could not reach the server; try again.", true);
    }
    if (!answer?.ok) {
      this.busy = false;
      button.disabled = false;
    }
  }
}
