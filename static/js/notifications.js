// The header's bell (notifications/, docs/notifications.md), as a plain ES module.
// The sockets a page already has open (the game's, the lobby's) pass on `notification`
// frames (`notificationFrame`) and say when they came back after a drop (`socketReopened`);
// the bell then shows the new count, says the news in a polite live region, and after a
// reconnect asks the server for the count (frames sent while the socket was down are not
// replayed: the list page is the catch-up).

const FRAME_EVENT = "cargo:notification";
const REOPENED_EVENT = "cargo:socket-reopened";

/** A frame from a socket: true (and handed to the bell) if it is a notification. */
export function notificationFrame(frame) {
  if (frame?.type !== "notification") return false;
  document.dispatchEvent(new CustomEvent(FRAME_EVENT, { detail: frame }));
  return true;
}

/** A socket that had been open opened again: the bell catches up. */
export function socketReopened() {
  document.dispatchEvent(new CustomEvent(REOPENED_EVENT));
}

export function startBell() {
  const bell = document.querySelector("[data-bell]");
  if (!bell) return;
  const count = bell.querySelector("[data-bell-count]");
  const news = bell.parentElement.querySelector("[data-bell-news]");
  let lastId = 0;
  const show = (unread) => {
    if (typeof unread !== "number") return;
    count.firstChild.textContent = String(unread);
    count.hidden = unread <= 0;
  };
  document.addEventListener(FRAME_EVENT, (event) => {
    const frame = event.detail;
    if (typeof frame.id !== "number" || frame.id <= lastId) return; // seen already
    lastId = frame.id;
    show(frame.unread);
    if (news) news.textContent = `New notification: ${frame.text}`;
  });
  document.addEventListener(REOPENED_EVENT, async () => {
    try {
      const response = await fetch(bell.dataset.statusUrl, { credentials: "same-origin" });
      if (!response.ok) return;
      const status = await response.json();
      show(status.unread);
      lastId = Math.max(lastId, status.last || 0);
    } catch {
      // offline: the next reconnect tries again
    }
  });
}
