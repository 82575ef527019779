// What the review pages share (a game's review, docs/review.md, and a Weekly Puzzle
// attempt's, docs/puzzles-site.md): the replay viewer (replay.js) mounted on #review-replay
// from the page's `replay-data` JSON, and the marked turns' "Show on the board" buttons, the
// graph's dots and `#turn-<ply>` in the URL, each moving the replay to the position before
// that turn. The list of marked turns itself is server-rendered
// (templates/games/_marked_turns.html).
import { readJson } from "../live/dom.js";
import { mountReplay } from "./replay.js";

export function mountReview(root) {
  const viewer = root.querySelector("#review-replay");
  if (!viewer || !document.getElementById("replay-data")) return null;
  const replay = mountReplay(viewer, readJson("replay-data"));
  for (const node of root.querySelectorAll("[data-goto]")) {
    node.hidden = false;
    node.addEventListener("click", (event) => {
      event.preventDefault();
      replay.go(Number(node.dataset.goto));
      viewer.scrollIntoView({ behavior: "smooth", block: "start" });
    });
  }
  const hash = /^#turn-(\d+)$/.exec(window.location.hash);
  if (hash) replay.go(Number(hash[1]));
  return replay;
}
