// The live game page's entry module (templates/games/game.html): start the shell on #game.
// The shell loads the view module the server named in data-view-module.
import { startLiveGame } from "./shell.js";

const root = document.getElementById("game");
if (root) startLiveGame(root).catch((error) => console.error(error));
