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

// A member's title before their name ("BOT" for a BOT account: `title` in the states'
// holders and the lobby's seats, games/titles.py), as the pages write it
// (accounts/templatetags/titles.py: the same class and words).
const TITLE_WORDS = { BOT: "A BOT account: a program that plays through the API" };

/** The name with its title before it, in plain text ("BOT marta"); the name alone if none. */
export function titledName(name, title) {
  return title && name ? `${title} ${name}` : name || "";
}

/** The title's mark, an element to put before a name (with a space after it), or null. */
export function titleMark(title) {
  if (!title) return null;
  const mark = el("span", "player-title", title);
  mark.title = TITLE_WORDS[title] || title;
  return mark;
}
