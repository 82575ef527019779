// Small DOM helpers shared by the live shell, every game view and the replay pages.
// Nothing here knows a game.

/** A new element with a class name (may be "") and, if given, its text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// The JSON a template put in a json_script element (decoded twice if it was a
// pre-encoded JSON string), or null if the page has no such element.
export function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  let value = JSON.parse(node.textContent);
  if (typeof value === "string") value = JSON.parse(value);
  return value;
}

export const reducedMotion = () =>
  window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));

/** The WebSocket URL for a server path ("/ws/…") on this page's host and scheme. */
export function wsUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}
