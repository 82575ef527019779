// Site-wide behaviour, as a plain ES module (no build step).
import { startCopyButtons } from "./copy.js";
import { startBell } from "./notifications.js";
import { startThemeSwitch } from "./theme.js";

startThemeSwitch();
startCopyButtons();
startBell();
