// Test-only: mounts Cargo Express's view on express-harness.html with a state handed in by
// the browser test (window.mountExpress(state)), recording every token the view sends.
import { createView } from "../cargo-express/view.js";

window.sentTokens = [];
window.mountExpress = (state) => {
  const root = document.getElementById("game");
  const view = createView(root, state, { sendTurn: (token) => window.sentTokens.push(token) });
  view.draw(state);
  const acting = state.viewer !== null && (state.acting || []).includes(state.viewer) && !state.over;
  view.setInteractive(acting);
  window.expressView = view;
  return true;
};
window.harnessReady = true;
