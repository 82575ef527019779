// Cargo Express's words (static/js/cargo-express/words.js): a sentence for every event kind
// express/events.py has, the steps' button words, who the table waits for, the outcome.
// Run by tests/test_express_words_js.py with node, against a copy of words.js.
import assert from "node:assert/strict";

const w = await import("./words.js");

const state = {
  viewer: 0,
  seats: [
    { label: "Seat 1", name: "alice" },
    { label: "Seat 2", name: "bob" },
    { label: "Seat 3", name: null },
  ],
  areas: [
    { seat: 0, space: 4, train: "gr" },
    { seat: 1, space: 10, train: "" },
    { seat: 2, space: 1, train: "" },
  ],
  spaces: [
    { space: 1, piece: "X3", kind: "complex", cars: "wwn", owner: 2 },
    { space: 2, piece: "T1", kind: "tunnel", twin: 7 },
    { space: 4, piece: "X1", kind: "complex", cars: "rbg", owner: 0 },
    { space: 8, piece: "R", kind: "refit" },
    { space: 9, piece: "Fn", kind: "factory", colour: "n" },
  ],
  contracts: { "06": { cars: "rbg", value: 5 }, 10: { cars: "rbw", value: 5 } },
  drawn: ["10", "06"],
  acting: [1, 2],
};

const events = {
  picked: { character: "Lo" },
  "plan-committed": {},
  "plan-chosen": { cards: ["A2", "A1", "A3"] },
  phase: { round: 2, phase: "p" },
  revealed: { card: "B3", usable: false },
  "turn-lost": { reason: "unusable" },
  attached: { space: 4, spots: [1], cars: "r", special: true },
  refilled: { space: 4, cars: "n", bag: 30 },
  "bag-empty": {},
  "last-round": { round: 9 },
  moved: { path: ">>", spaces: [5, 6], start: 4, end: 6, driver: false },
  upgraded: { engine: "B" },
  exchanged: { space: 1, given: "g", taken: "w" },
  uncoupled: { positions: [2], cars: "r" },
  signed: { choice: 1, deck: 12 },
  "contracts-drawn": { drawn: ["10", "06"], kept: "10", returned: "06" },
  fulfilled: { contract: "06", cars: "rbg", value: 5 },
  reordered: { space: 1, before: "wwn", after: "nww" },
  "extra-step": { step: ">", start: 6, end: 7 },
  "round-ended": { round: 1, stationmaster: 1 },
  swapped: { refit_from: 8, refit_to: 9, piece: "Fn" },
  resigned: {},
  over: { result: {} },
};
for (const [kind, fields] of Object.entries(events)) {
  const text = w.eventWords(state, { kind, seat: 0, ...fields });
  assert.ok(text.length > 5, `no words for ${kind}`);
  assert.ok(!text.includes("undefined"), `${kind}: ${text}`);
}
assert.equal(w.eventWords(state, { kind: "turn-ended", seat: 0, token: "A2:>>" }), "");
assert.equal(w.eventWords(state, { kind: "moved", seat: 1, path: ">>", spaces: [11, 12], start: 10, end: 12, driver: false }),
  "bob (Seat 2) moves from space 10 to space 12.");
assert.equal(w.eventWords(state, { kind: "signed", seat: 2, choice: 2, deck: 3 }),
  "Seat 3 signs a contract (3 left in the deck).");

assert.equal(w.stepWords(state, "a12"), "Attach red, blue (spots 1, 2)");
assert.equal(w.stepWords(state, "d2"), "Uncouple red (train position 2)");
assert.equal(w.stepWords(state, "o1=nww"), "Reorder the complex on space 1 to brown, white, white");
assert.equal(w.stepWords(state, "s1"), "Keep contract 10 (red, blue, white; 5 points)");
assert.equal(w.stepWords(state, "f06"), "Fulfil contract 06 (red, blue, green; 5 points)");
assert.equal(w.stepWords(state, "f06=rbn"), "Fulfil contract 06 (red, blue, green; 5 points) with red, blue, brown");
assert.equal(w.stepWords(state, "e<"), "Extra space anticlockwise");

assert.equal(w.waitingWords(state), "Waiting for bob (Seat 2) and Seat 3");
assert.equal(w.waitingWords({ ...state, acting: [0, 2] }), "Waiting for you and Seat 3");
assert.equal(w.spaceWords(state, 4), "Space 4: complex X1 of Seat 1, cars: red, blue, green. Seat 1's locomotive.");
assert.equal(w.spaceWords(state, 2), "Space 2: tunnel I, joined to space 7.");
assert.equal(w.outcomeWords({ ...state, result: { winners: [1], scores: [3, 17, 2] } }), "bob (Seat 2) wins with 17 points.");
assert.equal(w.outcomeWords({ ...state, result: { winners: [0, 1], scores: [17, 17, 2] } }),
  "alice (Seat 1) and bob (Seat 2) share first place with 17 points.");
// Paths and steps in words (issue #42, point 14): words first, the notation a hint only.
assert.equal(w.pathWords(">>"), "2 spaces clockwise");
assert.equal(w.pathWords("<"), "1 space anticlockwise");
assert.equal(w.pathWords("<t>"), "1 space anticlockwise, through the tunnel, then 1 space clockwise");
assert.equal(w.pathWords("<<*"), "2 spaces anticlockwise, one of them the Driver's extra space");
assert.equal(w.pathWords(">*"), "1 space clockwise, the Driver's extra space");
assert.equal(w.pathWords("tt"), "through the tunnel 2 times");
assert.equal(w.stepPhrase("^"), "attached the first car before moving");
assert.equal(w.stepPhrase("a12", false), "attach the cars at spots 1, 2");
assert.equal(w.stepPhrase("d3"), "uncoupled train position 3");
assert.equal(w.stepPhrase("et", false), "take the extra space through the tunnel");
assert.equal(w.stepPhrase("f06=rbn"), "fulfilled contract 06");
assert.equal(w.soFarWords(["^", "<<", "s"]),
  "So far you attached the first car before moving, moved 2 spaces anticlockwise, then signed a contract (two drawn).");
assert.equal(w.soFarWords([]), "");
assert.equal(w.stepsPhrase([">>", "end"], false), "move 2 spaces clockwise, then end the turn");
// Issue #42: a seat handed to a bot, the ratings as the state gives them, the site's places.
assert.equal(w.eventWords(state, { kind: "seat-handed", seat: 1, why: "timed out twice in a row",
  name: "ExpressBot Medium", round: 4 }),
"bob (Seat 2) timed out twice in a row: ExpressBot Medium plays the seat from now (round 4).");
const handed = { name: "bob", left: { round: 4, why: "timed out twice in a row", name: "ExpressBot Medium", bot: "medium" } };
assert.equal(w.playedByWords(handed), "played by ExpressBot Medium since round 4 (bob timed out twice in a row)");
assert.equal(w.playedByWords({ name: "carol", left: { round: 6, why: "resigned", name: null } }), "left in round 6 (resigned)");
assert.equal(w.playedByWords({ name: "alice", left: null }), "");
assert.equal(w.ratingText({ rating: 1200, rating_provisional: true }), "1200?");
assert.equal(w.ratingText({ rating: 1530, rating_provisional: false }), "1530");
assert.equal(w.ratingText({ rating: null }), null);
assert.equal(w.changeText({ over: true }, { rating_change: -75 }), "\u221275");
assert.equal(w.changeText({ over: true }, { rating_change: 75 }), "+75");
assert.equal(w.changeText({ over: false }, { rating_change: 75 }), null);
const placed = { ...state, seats: state.seats.map((seat, i) => ({ ...seat, seat: i, place: [2, 1, 3][i] })) };
assert.equal(w.outcomeWords({ ...placed, result: { winners: [0], scores: [17, 12, 2] } }),
  "bob (Seat 2) wins with 12 points.");
console.log("ok");
