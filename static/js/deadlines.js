// Deadlines on server-rendered lists (the "Your turn" page, the home page): each
// <time data-deadline datetime="…"> is shown as a date in the member's own time zone (the
// browser's) and, in its [data-countdown] sibling, the time left, counted down each minute.
// The server's text (UTC) stays when this does not run.
import { formatClock, formatDeadline } from "./live/clock.js";

const MINUTE = 60_000;

function render(times) {
  const now = Date.now();
  for (const time of times) {
    const when = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(when.getTime())) continue;
    time.textContent = formatDeadline(when);
    const countdown = time.parentElement?.querySelector("[data-countdown]");
    if (countdown) {
      const left = when.getTime() - now;
      countdown.textContent = left > 0 ? `(${formatClock(left, "correspondence")} left)` : "(time is up)";
    }
  }
}

export function startDeadlines(root = document) {
  const times = [...root.querySelectorAll("time[data-deadline]")];
  if (!times.length) return;
  render(times);
  setInterval(() => render(times), MINUTE);
}
