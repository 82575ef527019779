// Site-wide behaviour, as a plain ES module (no build step).
import { renderBay } from "./bay.js";
import { startCopyButtons } from "./copy.js";
import { startThemeSwitch } from "./theme.js";

// A still from a shift in progress: rows from the top, "B" Blue core, "O" Orange core,
// "x" an Empty Can (a core already unloaded), "." open space: the notation's letters.
const DEMO_SHIFT = [
  "......",
  "......",
  "..O...",
  ".BOB..",
  "xxOB.O",
  "xxBOBO",
];

for (const element of document.querySelectorAll("[data-bay]")) {
  renderBay(element, DEMO_SHIFT);
}

startThemeSwitch();
startCopyButtons();
