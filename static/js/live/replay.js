// The replay page's entry module (templates/games/replay.html): load the kind's replay
// module the server named in data-replay-module and hand it the replay built for this
// viewer (`replay-data`). The module exports mountReplay(root, data) (docs/live-frontend.md).
import { readJson } from "./dom.js";

const root = document.getElementById("replay");
if (root) {
  import(root.dataset.replayModule)
    .then((module) => module.mountReplay(root, readJson("replay-data")))
    .catch((error) => console.error(error));
}
