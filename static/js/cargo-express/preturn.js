// Preparing your next turn while you wait for it (a pre-turn, docs/express-site.md): the
// server lists in `state.legal.next` the step sequences you may queue for your next card as
// if it were revealed now ({key, card, turns: ["<<.a12", ">>.s", …], moves}); you build one
// a step at a time from that list, queue it (with End turn when it is whole), replace or
// cancel it. At the reveal the server plays it, or drops what became illegal. Nothing here
// decides a rule: the next steps offered are those of the listed sequences that begin with
// the steps chosen so far.
import { el } from "../live/dom.js";
import { cardWords, pathWords, stepsPhrase, stepWords } from "./words.js";

// Words first, the notation after them as a small hint (issue #42, point 14).
function withNotation(node, steps) {
  const hint = el("span", "xp-notation");
  hint.append(el("span", "visually-hidden", "notation "), el("code", "", steps.join(".")));
  node.append(" ", hint);
  return node;
}

function button(text, onClick, data = {}, cls = "btn") {
  const b = el("button", cls, text);
  b.type = "button";
  for (const [k, v] of Object.entries(data)) b.dataset[k] = v;
  b.addEventListener("click", onClick);
  return b;
}

export class PreTurn {
  constructor(root, { onQueue }) {
    this.root = root;
    this.onQueue = onQueue;
    this.key = null;
    this.draft = [];
    this.queued = null; // {key, steps} as the server last said
    this.note = "";
  }

  /** The server's word on this seat's queue: a snapshot's `queued`, or a `queued` frame. */
  told(frame) {
    if (frame === undefined) return;
    if (frame === null || !frame.steps?.length) {
      this.queued = null;
      if (frame?.played || frame?.dropped?.length) {
        const played = frame.played?.length ? `Played from your queue: ${stepsPhrase(frame.played, false)}.` : "Nothing of your queue was played.";
        this.note = frame.dropped?.length ? `${played} Dropped: ${stepsPhrase(frame.dropped, false)} (${frame.reason})` : played;
      } else if (frame) this.note = "Queued turn cancelled.";
    } else {
      this.queued = { key: frame.key, steps: frame.steps };
      this.draft = [];
      this.note = `Queued for your next turn: ${stepsPhrase(frame.steps, false)}.`;
    }
  }

  /** Draw for `state`; `show`: the seat waits (not deciding now) and the game goes on. */
  update(state, show) {
    this.state = state;
    const next = show ? state.legal?.next : null;
    const box = this.root;
    if (!box) return;
    box.replaceChildren();
    box.hidden = !next && !this.note;
    if (!next) {
      if (this.note) box.append(this.status());
      return;
    }
    if (next.key !== this.key) {
      this.key = next.key;
      this.draft = [];
    }
    box.append(el("h2", "", `Your next turn: card ${cardWords(next.card)}`));
    const queued = this.queued?.key === next.key ? this.queued : null;
    if (queued) {
      const line = withNotation(el("p", "xp-hint", `Queued: ${stepsPhrase(queued.steps, false)}. It is played when your card is revealed, if still legal.`), queued.steps);
      line.dataset.queued = queued.steps.join(".");
      const actions = el("div", "xp-actions");
      actions.append(button("Cancel queued turn", () => this.send(next.key, []), { cancelQueue: "" }));
      box.append(line, actions);
    } else {
      box.append(el("p", "xp-hint", "Prepare it now: its steps are sent the moment your card is revealed, if they are still legal then. A step that shows something new (a refill, contracts drawn) ends the queue."));
    }
    this.drawDraft(state, next);
    box.append(this.status());
  }

  status() {
    const p = el("p", "xp-hint", this.note);
    p.setAttribute("role", "status");
    p.dataset.preturnStatus = "";
    return p;
  }

  drawDraft(state, next) {
    const sofar = this.draft.join(".");
    const turns = next.turns || [];
    const steps = new Set();
    for (const turn of turns) {
      if (!this.draft.length) steps.add(turn.split(".")[0]);
      else if (turn.startsWith(`${sofar}.`)) steps.add(turn.slice(sofar.length + 1).split(".")[0]);
    }
    const whole = this.draft.length > 0 && this.draft.at(-1) !== "s" && turns.includes(sofar);
    const box = this.root;
    const lead = this.queued?.key === next.key ? "To replace it, your steps" : "Your steps";
    const line = el("p", "xp-stack-line", `${lead}: ${this.draft.length ? stepsPhrase(this.draft, false) : "none yet"}`);
    box.append(this.draft.length ? withNotation(line, this.draft) : line);
    if (steps.size) {
      const list = el("div", "xp-choices");
      list.setAttribute("role", "group");
      list.setAttribute("aria-label", "Next step of your queued turn");
      for (const step of [...steps].sort()) {
        list.append(withNotation(button(this.words(state, next, step), () => this.add(step), { queueStep: step }), [step]));
      }
      box.append(list);
    }
    const actions = el("div", "xp-actions");
    if (whole) actions.append(button("Queue, then end the turn", () => this.send(next.key, [...this.draft, "end"]), { queueEnd: "" }, "btn primary"));
    if (this.draft.length) {
      actions.append(button(whole ? "Queue, and finish by hand" : "Queue these steps", () => this.send(next.key, this.draft), { queueSend: "" }, whole ? "btn" : "btn primary"));
      actions.append(button("Undo step", () => { this.draft.pop(); this.redraw(state); }, { queueUndo: "" }));
    }
    if (actions.childNodes.length) box.append(actions);
  }

  words(state, next, step) {
    const move = (next.moves || []).find((m) => m.path === step);
    if (move) return `Move to space ${move.end}: ${pathWords(move.path)}`;
    let m = step.match(/^a(\d+)$/);
    if (m) return `Attach the cars at spots ${[...m[1]].join(", ")}`;
    m = step.match(/^f(\d+)$/);
    if (m) return `Fulfil contract ${m[1]}`;
    return stepWords(state, step);
  }

  add(step) {
    this.draft.push(step);
    this.redraw(this.state);
  }

  redraw(state) {
    this.update(state, true);
    this.root.querySelector("[data-queue-step], [data-queue-end], [data-queue-send]")?.focus();
  }

  send(key, steps) {
    this.note = steps.length ? "Sending your queued turn…" : "Cancelling your queued turn…";
    this.root.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    this.onQueue(key, steps);
  }
}
