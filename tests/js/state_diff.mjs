// The page's diff of a state (static/js/live/diff.js) against the server's
// (games/frames/diffs.py): every case's operations, made by the server from `old` and
// `new`, turn `old` into `new` and leave `old` as it was; operations that do not fit are
// refused; HeldState hands a frame its whole state, or null for a diff from another state.
// Run by tests/test_state_diff_js.py with node, against copies of diff.js and the cases.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const { applyDiff, DiffError, HeldState } = await import("./diff.js");
const cases = JSON.parse(readFileSync(new URL("./cases.json", import.meta.url), "utf8"));

for (const { old, new: next, ops } of cases) {
  const before = JSON.stringify(old);
  assert.deepStrictEqual(applyDiff(old, ops), next);
  assert.equal(JSON.stringify(old), before, "the held state is left as it was");
}

const state = { a: [1, { b: null }], c: { d: "x" } };
for (const bad of [
  [[["a", 3], 1]], // past the end and the item after it
  [[["c", 0], 1]], // a list index on an object
  [[["a", "0"], 1]], // an object key on a list
  [[["z", "y"], 1]], // no such key on the path
  [[["c", "e"]]], // no such key to remove
  [[[]]], // the whole state removed
  [["a", 1]], // not a path
  "nope",
]) {
  assert.throws(() => applyDiff(state, bad), DiffError, JSON.stringify(bad));
}

assert.deepStrictEqual(applyDiff(state, [[["a", 2], 3], [["a", 3], 4]]).a, [1, { b: null }, 3, 4]);
assert.deepStrictEqual(state.a, [1, { b: null }], "appending copies the list");

const held = new HeldState();
assert.equal(held.take({ type: "turn", ply: 0, base: 1, diff: [] }), null, "no state held yet");
const first = { type: "state", state: { rev: 3, ply: 2, areas: [{ x: 1 }] } };
assert.equal(held.take(first), first);
assert.equal(held.applied, 0);
const frame = held.take({ type: "turn", ply: 2, base: 3, diff: [[["rev"], 4], [["areas", 0, "x"], 2]] });
assert.deepStrictEqual(frame, { type: "turn", ply: 2, state: { rev: 4, ply: 2, areas: [{ x: 2 }] } });
assert.deepStrictEqual(first.state.areas, [{ x: 1 }]);
assert.equal(held.applied, 1);
assert.equal(held.take({ type: "turn", ply: 3, base: 3, diff: [] }), null, "a diff from rev 3 while 4 is held");
assert.equal(held.state, null, "nothing held until a whole state comes");
const whole = { type: "turn", ply: 3, state: { rev: 5 } };
assert.equal(held.take(whole), whole);
assert.equal(held.take({ type: "turn", ply: 4, base: 5, diff: [[["a"]]] }), null, "an operation that does not fit");
assert.deepStrictEqual(held.take({ type: "pong" }), { type: "pong" });
console.log("ok");
