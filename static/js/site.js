// Site-wide behaviour, as a plain ES module (no build step).
import { startCopyButtons } from "./copy.js";
import { startDeadlines } from "./deadlines.js";
import { startBell } from "./notifications.js";
import { startThemeSwitch } from "./theme.js";

startThemeSwitch();
startCopyButtons();
startDeadlines();
startBell();
