// The review page (docs/review.md): the replay viewer and jumping to a marked turn (shared
// with a puzzle attempt's review: review-marks.js),
// the progress while CargoBot reviews, and the analysis board, where the viewer tries turns
// from any position; the server checks and scores every trial turn (nothing is decided
// here, nothing is stored).
import { el } from "../live/dom.js";
import { Bay } from "./board.js";
import { TurnControls } from "./controls.js";
import { signedPoints } from "./numbers.js";
import { sideName } from "./panels.js";
import { mountReview } from "./review-marks.js";

const POLL_MS = 1000; // the review's progress: a turn takes a fraction of a second
const points = signedPoints; // "−2.3", with a minus sign (numbers.js)

function pollProgress(root) {
  const bar = root.querySelector("[data-progress]");
  const text = root.querySelector("[data-progress-text]");
  const tick = async () => {
    try {
      const response = await fetch(root.dataset.statusUrl, { headers: { Accept: "application/json" } });
      const body = await response.json();
      if (bar) { bar.max = body.total; bar.value = body.done; }
      if (text) {
        const words = `${body.done} of ${body.total} turns reviewed`;
        text.textContent = body.status === "queued" ? `Starting: ${words}` : words;
      }
      if (body.status === "done" || body.status === "failed") {
        window.location.reload();
        return;
      }
    } catch (error) {
      console.error(error);
    }
    setTimeout(tick, POLL_MS);
  };
  setTimeout(tick, 300); // the first answer at once, then every second
}

/** The Review button answers at once: the request only queues the review (a worker, or a
 * thread of the embedded default, runs it), and the page it lands on shows the progress. */
function startButton(root) {
  const form = root.querySelector("[data-start-review-form]");
  if (!form) return;
  form.addEventListener("submit", () => {
    const button = form.querySelector("[data-start-review]");
    // Disabled after the submit has been taken (a disabled button would not be sent).
    setTimeout(() => { if (button) button.disabled = true; }, 0);
    const note = form.querySelector("[data-start-review-note]");
    if (note) note.textContent = "Starting the review…";
  });
}

class AnalysisBoard {
  constructor(panel, url) {
    this.panel = panel;
    this.url = url;
    const $ = (s) => panel.querySelector(s);
    this.$ = $;
    this.bay = null;
    this.controls = null;
    this.ply = 0;
    this.line = [];
    this.suggestion = null;
    $("[data-analysis-close]").addEventListener("click", () => { panel.hidden = true; });
    $("[data-analysis-undo]").addEventListener("click", () => this.load(this.line.slice(0, -1)));
    $("[data-analysis-suggested]").addEventListener("click", () => {
      if (this.suggestion) this.load([...this.line, this.suggestion.token]);
    });
  }

  open(ply) {
    this.ply = ply;
    this.panel.hidden = false;
    this.load([]);
    this.panel.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }

  async load(line) {
    const $ = this.$;
    $("[data-analysis-verdict]").textContent = "CargoBot is thinking…";
    const query = new URLSearchParams({ ply: String(this.ply), line: line.join(" ") });
    let body;
    try {
      const response = await fetch(`${this.url}?${query}`, { headers: { Accept: "application/json" } });
      body = await response.json();
      if (!response.ok) {
        $("[data-analysis-verdict]").textContent = body.message || "The engine refused that turn.";
        return;
      }
    } catch (error) {
      $("[data-analysis-verdict]").textContent = "The analysis board could not reach the server.";
      return;
    }
    this.line = line;
    this.show(body);
  }

  show(body) {
    const $ = this.$;
    const state = body.state;
    if (!this.bay) {
      this.bay = new Bay($("[data-analysis-bay]"), state.size);
      this.controls = new TurnControls($("[data-analysis-controls]"), this.bay, {
        onSend: (token) => this.load([...this.line, token]),
        onMessage: (text) => { $("[data-analysis-verdict]").textContent = text; },
      });
    }
    this.bay.render(state.rows, state.lock);
    $("[data-analysis-line]").textContent = this.line.length
      ? `From turn ${this.ply}: ${this.line.join(" ")}` : `From turn ${this.ply} of the game`;
    const last = body.last;
    if (last) {
      const verdict = last.loss === 0
        ? `${last.token}: as good as CargoBot's best (${last.best}), final margin ${points(last.played_value)} for ${sideName(last.side)}.`
        : `${last.token}: ${points(last.played_value)} for ${sideName(last.side)}; CargoBot's ${last.best} gives ${points(last.best_value)}`
          + (last.grade ? ` (${last.grade}).` : ".");
      $("[data-analysis-verdict]").replaceChildren(el("span", "", verdict),
        ...(last.reason ? [el("br"), el("span", "", last.reason)] : []));
    } else {
      $("[data-analysis-verdict]").textContent = "Play a turn for the side to move.";
    }
    this.suggestion = body.suggestion;
    $("[data-analysis-suggested]").disabled = !body.suggestion;
    $("[data-analysis-undo]").disabled = this.line.length === 0;
    $("[data-analysis-suggestion]").textContent = body.suggestion
      ? `CargoBot suggests ${body.suggestion.token} for ${sideName(body.suggestion.side)} (${body.suggestion.words.toLowerCase()}), final margin ${points(body.suggestion.value)}.`
      : "The shift is over.";
    this.controls.update(state, state.to_move, !state.over);
  }
}

function start() {
  const root = document.getElementById("review");
  if (!root) return;
  const status = root.dataset.status;
  if (status === "queued" || status === "running") pollProgress(root);
  startButton(root);
  const replay = mountReview(root);
  if (!replay) return;
  const analyse = root.querySelector("[data-analyse]");
  const board = new AnalysisBoard(root.querySelector("[data-analysis]"), root.dataset.analysisUrl);
  analyse.hidden = false;
  analyse.addEventListener("click", () => board.open(replay.at));
}

start();
