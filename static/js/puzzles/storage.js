// This browser's Weekly Puzzles storage (localStorage): a guest's progress per puzzle
// ({puzzle, date, attempts, solved_in, proof, shown}; `proof` is the server's signed word
// that the puzzle was solved), and the turns of the attempt in progress on each puzzle.
// Members' progress lives on the server; only their attempt in progress is kept here.
const GUEST_KEY = "cargo.puzzles.guest.v1";
const attemptKey = (puzzle, member) => `cargo.puzzles.attempt.${member ? "m" : "g"}.${puzzle}`;

function read(key, fallback) {
  try {
    const value = JSON.parse(window.localStorage.getItem(key) ?? "null");
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: progress lasts as long as the page
  }
}

export function guestProgress() {
  const data = read(GUEST_KEY, {});
  return typeof data === "object" && data ? data : {};
}

export function guestEntry(puzzle) {
  return guestProgress()[puzzle] || null;
}

export function updateGuest(puzzle, date, change) {
  const all = guestProgress();
  const entry = all[puzzle] || { puzzle: Number(puzzle), date, attempts: 0, solved_in: null, proof: null, shown: false };
  change(entry);
  all[puzzle] = entry;
  write(GUEST_KEY, all);
  return entry;
}

export function clearGuest() {
  window.localStorage.removeItem(GUEST_KEY);
}

export function guestEntries() {
  return Object.values(guestProgress()).filter((e) => e && Number.isInteger(e.puzzle));
}

export function loadAttempt(puzzle, member) {
  const tokens = read(attemptKey(puzzle, member), []);
  return Array.isArray(tokens) ? tokens.filter((t) => typeof t === "string") : [];
}

export function saveAttempt(puzzle, member, tokens) {
  if (tokens.length) write(attemptKey(puzzle, member), tokens);
  else window.localStorage.removeItem(attemptKey(puzzle, member));
}

/** POST a JSON body with the CSRF header; resolves to {ok, status, data}. */
export async function postJson(url, body, csrf) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    let data = {};
    try {
      data = await response.json();
    } catch {
      data = { error: `the server answered ${response.status}` };
    }
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: { error: "no connection to the server: try again" } };
  }
}
