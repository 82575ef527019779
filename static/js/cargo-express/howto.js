// How to play Cargo Express: draws each example board with the game page's own track
// (./board.js) from the state the kind built for it (json_script beside each board).
import { readJson } from "../live/dom.js";
import { Track } from "./board.js";
import { centreNode } from "./panels.js";

for (const node of document.querySelectorAll("[data-howto-track]")) {
  const state = readJson(node.dataset.howtoTrack);
  if (state) new Track(node).render(state, { centre: centreNode(state) });
}
