// How to play Cargo Express: draws each example board with the game page's own track
// (./board.js) from the state the kind built for it (json_script beside each board), and
// the final scoring under a finished game's board.
import { readJson } from "../live/dom.js";
import { Track } from "./board.js";
import { centreNode, renderScores } from "./panels.js";

for (const node of document.querySelectorAll("[data-howto-track]")) {
  const state = readJson(node.dataset.howtoTrack);
  if (!state) continue;
  new Track(node).render(state, { centre: centreNode(state) });
  const scores = document.querySelector(`[data-howto-scores="${node.dataset.howtoTrack}"]`);
  if (scores && state.result) renderScores(scores, state, { heading: "h3" });
}
