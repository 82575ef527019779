// Checking a finished Cargo Express game in the browser (issue #42, point 12; web.md 2 and
// 5), with Web Crypto's SHA-256 and nothing else. Exactly as the server computes them
// (express/table.py: seed_hash, plan_salt, plan_hash; How to play Cargo
// Express, "Fair play", says the same in words):
//   seed hash   = sha256("cargo-express:" + game id + ":" + seed), published at the start,
//                 the seed itself only once the game is over;
//   salt        = the first 32 hex digits of sha256("cargo-express-plan-salt:" + seed + ":"
//                 + round + ":" + seat), seats numbered from 1;
//   fingerprint = sha256(seat + ":" + round + ":" + stack + ":" + salt), the stack as
//                 committed, top first ("A2A1A3"), published when planning closes.
// Every digest is of the text's UTF-8 bytes, written as 64 lowercase hex digits.
import { el } from "../live/dom.js";

const encoder = new TextEncoder();
const HOWTO = "/how-to-play/cargo-express#fair";

/** Can this browser check here? Web Crypto's digest needs a secure page (https, localhost). */
export const canCheck = () => Boolean(globalThis.crypto?.subtle?.digest);

export async function sha256Hex(text) {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export const seedText = (gameId, seed) => `cargo-express:${gameId}:${seed}`;

export async function planSalt(seed, round, seat1) {
  return (await sha256Hex(`cargo-express-plan-salt:${seed}:${round}:${seat1}`)).slice(0, 32);
}

export async function planFingerprint(seed, round, seat1, stack) {
  return sha256Hex(`${seat1}:${round}:${stack}:${await planSalt(seed, round, seat1)}`);
}

const seedChecks = new Map(); // "<game>:<seed>:<hash>" → Promise<boolean>, once per page

function howtoLink(text) {
  const a = el("a", "", text);
  a.href = HOWTO;
  return a;
}

/** Under the seed and its hash (`container`, redrawn by panels.js's renderSeed at each
 * draw): once the game is over and its seed public, whether the seed's hash is the one
 * published at the start, computed here. Nothing while the seed is secret. */
export function showSeedCheck(container, gameId, state) {
  if (!container || !gameId || !state?.seed || !state.seed_hash) return;
  const line = el("p", "xp-seed-check");
  line.dataset.seedCheck = "";
  line.setAttribute("role", "status");
  container.append(line);
  if (!canCheck()) {
    line.dataset.seedCheck = "unavailable";
    line.append("This browser cannot check the seed here (its Web Crypto needs a secure "
      + "connection): ", howtoLink("check it yourself"), ".");
    return;
  }
  const key = `${gameId}:${state.seed}:${state.seed_hash}`;
  if (!seedChecks.has(key)) {
    seedChecks.set(key, sha256Hex(seedText(gameId, state.seed)).then((hex) => hex === state.seed_hash));
  }
  line.textContent = "Checking the seed against its hash…";
  seedChecks.get(key).then((ok) => {
    line.dataset.seedCheck = ok ? "verified" : "mismatch";
    line.classList.toggle("is-verified", ok);
    line.classList.toggle("is-mismatch", !ok);
    line.replaceChildren(
      el("strong", "", ok ? "✓ Verified" : "✗ Does not match"),
      ok ? `: checked in your browser, SHA-256 of "${seedText(gameId, state.seed)}" is the seed hash published when the game began. `
        : `: SHA-256 of "${seedText(gameId, state.seed)}" is not the seed hash published when the game began. `,
      howtoLink("How the check works"), ".");
  }).catch(() => {
    line.dataset.seedCheck = "unavailable";
    line.replaceChildren("The seed could not be checked here: ", howtoLink("check it yourself"), ".");
  });
}

const PLAN = /^(?:A[123]|B[34]|C[456]|D){3}$/;

/** The stacks' fingerprints of a whole replay that shows everything (`data.everything`,
 * the game over, its seed in the last state): each round's published fingerprints
 * (`plan-hashes` events) against the stacks the seats committed (the last plan of each
 * seat before planning closed). → {checked, wrong: [{round, seat}]} */
export async function checkFingerprints(data) {
  const { states, turns } = data;
  const seed = states[states.length - 1]?.seed;
  if (!seed) return null;
  const plans = new Map(); // "<round>:<seat>" → the stack as committed
  let checked = 0;
  const wrong = [];
  for (let k = 0; k < turns.length; k += 1) {
    const turn = turns[k];
    const before = states[k] || {};
    if (before.phase === "plan" && PLAN.test(turn.token || "")) {
      plans.set(`${before.round}:${turn.seat}`, turn.token);
    }
    for (const event of turn.events || []) {
      if (event.kind !== "plan-hashes") continue;
      for (const [seat, published] of (event.hashes || []).entries()) {
        if (!published) continue;
        const stack = plans.get(`${event.round}:${seat}`);
        checked += 1;
        const computed = stack ? await planFingerprint(seed, event.round, seat + 1, stack) : null;
        if (computed !== published) wrong.push({ round: event.round, seat });
      }
    }
  }
  return { checked, wrong };
}

/** The replay's line under the seed: the fingerprints checked in the browser. */
export function showFingerprints(container, data, seatLabel) {
  if (!container || !data?.everything || !canCheck()) return;
  const line = el("p", "xp-seed-check");
  line.dataset.fingerprints = "";
  line.setAttribute("role", "status");
  line.textContent = "Checking the stacks' fingerprints…";
  container.after(line);
  checkFingerprints(data).then((result) => {
    if (!result) {
      line.remove();
      return;
    }
    const { checked, wrong } = result;
    line.dataset.fingerprints = wrong.length ? "mismatch" : "verified";
    line.classList.toggle("is-verified", !wrong.length);
    line.classList.toggle("is-mismatch", Boolean(wrong.length));
    const said = wrong.length
      ? `: ${wrong.length} of ${checked} stacks' fingerprints do not match (${wrong.map((w) => `round ${w.round}, ${seatLabel(w.seat)}`).join("; ")}). `
      : `: all ${checked} stacks' fingerprints match the stacks played, checked in your browser from the seed. `;
    line.replaceChildren(el("strong", "", wrong.length ? "✗ Does not match" : "✓ Verified"), said,
      howtoLink("How the check works"), ".");
  }).catch(() => line.remove());
}
