// Cargo Express in words: the names of colours, characters, pieces, cards and steps, and a
// sentence for each engine event (express/events.py). The view, the replay and the How to
// play page share them; nothing here decides a rule, it only names what the state says.

export const COLOURS = { r: "red", b: "blue", g: "green", n: "brown", w: "white" };

export const CHARACTERS = {
  Lo: "Logistician",
  En: "Engineer",
  Me: "Mechanic",
  Dr: "Driver",
  Ma: "Manager",
};

// What each character does, in short (rulebook §7, rules.md rules 42, 46, 32, 35, 52).
export const CHARACTER_HELP = {
  Lo: "attach any cars of the complex, in any order",
  En: "uncouple cars of the factory's colour from anywhere in the train",
  Me: "may pass through the refit piece",
  Dr: "once a round, one extra space in the movement",
  Ma: "one car of any colour may stand in when fulfilling",
};

const TUNNEL_MARKS = { T1: "I", T2: "II" };

/** "red, blue" for "rb"; "no cars" for "". */
export const carsWords = (cars) =>
  cars ? [...cars].map((c) => COLOURS[c] || c).join(", ") : "no cars";

/** The kind's own part of each seat (engine, train, yard…): `state.areas`, by seat. */
export function seatParts(state) {
  return state.areas || [];
}

/** "Seat 2" or "bob (Seat 2)"; a BOT account's "BOT bob (Seat 2)" (its `title`). */
export function seatName(state, i) {
  if (i === null || i === undefined) return "";
  const seat = state.seats?.[i];
  const label = seat?.label || `Seat ${i + 1}`;
  const name = seat?.title && seat?.name ? `${seat.title} ${seat.name}` : seat?.name;
  return name ? `${name} (${label})` : label;
}

export const seatLabel = (state, i) => state.seats?.[i]?.label || `Seat ${i + 1}`;

/** A list in words: "A", "A and B", "A, B and C". */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function cardWords(card) {
  if (!card) return "";
  if (card === "D") return "D (1 or 2 spaces)";
  if (!/^[ABC][1-6]$/.test(card)) return card;
  return `${card} (class ${card[0]}, ${card.slice(1)} ${card.slice(1) === "1" ? "space" : "spaces"})`;
}

export function spaceOf(state, n) {
  return (state.spaces || []).find((s) => s.space === n) || { space: n, kind: "" };
}

/** A piece in words: "factory, blue", "complex X3 of Seat 3, cars white, white, brown". */
export function pieceWords(state, space) {
  switch (space.kind) {
    case "factory":
      return `factory, ${COLOURS[space.colour] || space.colour}`;
    case "complex": {
      const owner = space.owner === null || space.owner === undefined
        ? "of no seat" : `of ${seatLabel(state, space.owner)}`;
      return `complex ${space.piece} ${owner}, cars: ${carsWords(space.cars)}`;
    }
    case "tunnel":
      return `tunnel ${TUNNEL_MARKS[space.piece] || space.piece}, joined to space ${space.twin}`;
    case "refit":
      return "the refit piece (no locomotive may enter)";
    default:
      return space.piece || "";
  }
}

export const tunnelMark = (piece) => TUNNEL_MARKS[piece] || piece;

/** The locomotives standing on space `n`: seat indexes. */
export function locomotivesOn(state, n, positions) {
  const out = [];
  seatParts(state).forEach((part, i) => {
    const at = positions?.[i] ?? part.space;
    if (at === n) out.push(i);
  });
  return out;
}

export function spaceWords(state, n, positions) {
  const space = spaceOf(state, n);
  let text = `Space ${n}: ${pieceWords(state, space)}.`;
  const locos = locomotivesOn(state, n, positions);
  if (locos.length) {
    text += ` ${listWords(locos.map((i) => `${seatLabel(state, i)}'s locomotive`))}.`;
  }
  return text;
}

const spaces = (n) => `${n} ${n === 1 ? "space" : "spaces"}`;
const DIRECTION = { ">": "clockwise", "<": "anticlockwise", t: "through the tunnel" };

// A path in words (notation.md, "Turns": one character a step, `>` clockwise, `<`
// anticlockwise, `t` through the tunnel, then `*` when the Driver's extra space is one of
// them): ">>" is "2 spaces clockwise"; "<t>" "1 space anticlockwise, through the tunnel,
// then 1 space clockwise"; "<<*" "2 spaces anticlockwise, one of them the Driver's extra
// space".
export function pathWords(path) {
  const driver = path.endsWith("*");
  const steps = driver ? path.slice(0, -1) : path;
  const runs = [];
  for (const c of steps) {
    const lastRun = runs[runs.length - 1];
    if (lastRun && lastRun.c === c) lastRun.n += 1;
    else runs.push({ c, n: 1 });
  }
  const parts = runs.map(({ c, n }) => ({
    ">": `${spaces(n)} clockwise`,
    "<": `${spaces(n)} anticlockwise`,
    t: n === 1 ? "through the tunnel" : `through the tunnel ${n} times`,
  }[c] || `${c} ×${n}`));
  let text = parts.length > 1 ? `${parts.slice(0, -1).join(", ")}, then ${parts[parts.length - 1]}` : parts[0] || "no move";
  if (driver) text += steps.length > 1 ? ", one of them the Driver's extra space" : ", the Driver's extra space";
  return text;
}

/** A step in words from its token alone, for lists of steps (a turn "so far", a queued
 * turn): the past ("moved 2 spaces clockwise") or, with `past` false, the plan ("move 2
 * spaces clockwise"). The state may have changed since, so no cars are named. */
export function stepPhrase(step, past = true) {
  const say = (done, todo) => (past ? done : todo);
  if (step === "^") return say("attached the first car before moving", "attach the first car before moving");
  if (step === "u") return say("upgraded the engine", "upgrade the engine");
  if (step === "x") return say("exchanged the rear car", "exchange the rear car");
  if (step === "s") return say("signed a contract (two drawn)", "sign a contract (two drawn)");
  if (step === "s0") return say("put the card back", "put the card back");
  if (step === "end") return say("ended the turn", "end the turn");
  let m = step.match(/^s([12])$/);
  if (m) return say(`kept card ${m[1]}`, `keep card ${m[1]}`);
  if (/^[<>t]+\*?$/.test(step)) return `${say("moved", "move")} ${pathWords(step)}`;
  m = step.match(/^a(\d+)$/);
  if (m) return `${say("attached", "attach")} the ${m[1].length > 1 ? "cars at spots" : "car at spot"} ${[...m[1]].join(", ")}`;
  m = step.match(/^d(\d+)$/);
  if (m) return `${say("uncoupled", "uncouple")} train ${m[1].length > 1 ? "positions" : "position"} ${[...m[1]].join(", ")}`;
  m = step.match(/^o(\d+)=(\w+)$/);
  if (m) return `${say("reordered", "reorder")} the complex on space ${m[1]} to ${carsWords(m[2])}`;
  m = step.match(/^e(.)$/);
  if (m) return `${say("took", "take")} the extra space ${DIRECTION[m[1]] || m[1]}`;
  m = step.match(/^f(\d+)/);
  if (m) return `${say("fulfilled", "fulfil")} contract ${m[1]}`;
  return step;
}

/** Steps as one phrase: "move 2 spaces clockwise, then attach the car at spot 1". */
export function stepsPhrase(steps, past = true) {
  const said = (steps || []).map((step) => stepPhrase(step, past));
  return said.length > 1 ? `${said.slice(0, -1).join(", ")}, then ${said[said.length - 1]}` : said[0] || "";
}

/** "So far you moved 2 spaces clockwise, then attached the car at spot 1." */
export function soFarWords(steps) {
  return steps?.length ? `So far you ${stepsPhrase(steps)}.` : "";
}

function contractCars(state, id) {
  return state.contracts?.[id]?.cars || "";
}

export function contractWords(state, id) {
  const c = state.contracts?.[id];
  if (!c) return `contract ${id}`;
  return `contract ${id} (${carsWords(c.cars)}; ${c.value} points)`;
}

/** A step token in words, for a button (`state` gives the complexes' cars and contracts). */
export function stepWords(state, step) {
  const mine = seatParts(state)[state.viewer] || {};
  const here = spaceOf(state, mine.space);
  if (step === "^") return "Special attach: take the first car here before moving";
  if (step === "u") return "Upgrade the engine";
  if (step === "x") return "Exchange your rear car for the complex's first car";
  if (step === "s") return "Sign a contract (draw two, keep one)";
  if (step === "end") return "End turn";
  if (step === "s0") return "Put the single card back";
  if (/^s[12]$/.test(step)) {
    const id = state.drawn?.[Number(step[1]) - 1];
    return id ? `Keep ${contractWords(state, id)}` : `Keep card ${step[1]}`;
  }
  let m = step.match(/^a(\d+)$/);
  if (m) {
    const cars = [...m[1]].map((spot) => COLOURS[here.cars?.[Number(spot) - 1]] || `spot ${spot}`);
    return `Attach ${cars.join(", ")} (spots ${[...m[1]].join(", ")})`;
  }
  m = step.match(/^d(\d+)$/);
  if (m) {
    const cars = [...m[1]].map((p) => COLOURS[mine.train?.[Number(p) - 1]] || `car ${p}`);
    return `Uncouple ${cars.join(", ")} (train ${m[1].length > 1 ? "positions" : "position"} ${[...m[1]].join(", ")})`;
  }
  m = step.match(/^o(\d+)=(\w+)$/);
  if (m) return `Reorder the complex on space ${m[1]} to ${carsWords(m[2])}`;
  m = step.match(/^e(.)$/);
  if (m) return `Extra space ${DIRECTION[m[1]] || m[1]}`;
  m = step.match(/^f(\d+)(?:=(\w+))?$/);
  if (m) {
    const using = m[2] ? ` with ${carsWords(m[2])}` : "";
    return `Fulfil ${contractWords(state, m[1])}${using}`;
  }
  return step;
}

export const contractCarsOf = contractCars;

const LOST = {
  dormant: "its seat is dormant",
  unusable: "the card is above its engine",
  "no-path": "no path was open",
};

/** One sentence for an event, or "" for one not worth saying. */
export function eventWords(state, event) {
  const who = seatName(state, event.seat);
  switch (event.kind) {
    case "picked":
      return `${who} takes the ${CHARACTERS[event.character] || event.character}.`;
    case "plan-committed":
      return event.replaced ? `${who} changes its stack.` : `${who} is ready.`;
    case "plan-chosen":
      return `You committed ${event.cards.join(", ")}.`;
    case "plan-hashes":
      return "Planning is closed: a fingerprint of each stack is published, to be checked against the stacks once the game is over.";
    case "phase":
      return phaseSentence(event);
    case "revealed":
      return `${who} reveals ${cardWords(event.card)}${event.usable ? "" : ", which it cannot use"}.`;
    case "turn-lost":
      return `${who} loses the turn: ${LOST[event.reason] || event.reason}.`;
    case "attached":
      return `${who} attaches ${carsWords(event.cars)} from space ${event.space}${event.special ? " before moving" : ""}.`;
    case "refilled":
      return `Space ${event.space} is refilled with ${carsWords(event.cars)} (${event.bag} left in the bag).`;
    case "bag-empty":
      return "The bag is empty.";
    case "last-round":
      return `Round ${event.round} is the last round.`;
    case "moved":
      return `${who} moves from space ${event.start} to space ${event.end}${event.driver ? " with the Driver's extra space" : ""}.`;
    case "upgraded":
      return `${who} upgrades to engine ${event.engine}.`;
    case "exchanged":
      return `${who} exchanges ${carsWords(event.given)} for ${carsWords(event.taken)} on space ${event.space}.`;
    case "uncoupled":
      return `${who} uncouples ${carsWords(event.cars)} into the yard.`;
    case "signed":
      return event.choice ? `${who} signs a contract (${event.deck} left in the deck).`
        : `${who} puts the single card back.`;
    case "contracts-drawn":
      return event.kept ? `You drew ${event.drawn.join(" and ")} and kept ${event.kept}.`
        : `You drew ${event.drawn.join(" and ")} and kept none.`;
    case "contracts-offered":
      return event.drawn || event.cards ? `You drew ${(event.drawn || event.cards).join(" and ")}: keep one.` : "";
    case "fulfilled":
      return `${who} fulfils contract ${event.contract} with ${carsWords(event.cars)} for ${event.value} points.`;
    case "reordered":
      return `${who} reorders space ${event.space} to ${carsWords(event.after)}.`;
    case "extra-step":
      return `${who} moves one extra space, to space ${event.end}.`;
    case "turn-ended":
      return "";
    case "round-ended":
      return `Round ${event.round} ends; ${seatName(state, event.stationmaster)} is the stationmaster.`;
    case "swapped":
      return `${who} swaps the refit piece from space ${event.refit_from} with ${event.piece} on space ${event.refit_to}.`;
    case "resigned":
      return `${who} leaves the game.`;
    case "seat-handed":
      return `${who} ${event.why || "left"}: ${event.name} plays the seat from now${event.round ? ` (round ${event.round})` : ""}.`;
    case "over":
      return "The game is over.";
    default:
      return "";
  }
}

function phaseSentence(event) {
  const p = event.phase || "";
  if (p.startsWith("c")) return `Round ${event.round}: pick the characters.`;
  if (p === "p") return `Round ${event.round}: planning. Every seat builds a stack of three.`;
  if (p.startsWith("a")) return `Round ${event.round}: the stacks are revealed one card at a time.`;
  if (p === "r") return "The new stationmaster moves the refit piece.";
  if (p === "o") return "";
  return "";
}

export const PHASE_WORDS = {
  pick: "Picking characters",
  plan: "Planning",
  turn: "Action phase",
  swap: "Refit swap",
  over: "Game over",
};

/** Who the table waits for, in words ("Waiting for Seat 2, Seat 3"). */
export function waitingWords(state) {
  const acting = state.acting || [];
  if (state.over || !acting.length) return "";
  const names = acting.map((i) => (i === state.viewer ? "you" : seatName(state, i)));
  return `Waiting for ${listWords(names)}`;
}

/** The outcome in words: "alice (Seat 1) wins with 23 points." */
export function outcomeWords(state) {
  const result = state.result;
  if (!result) return "The game is over.";
  // The site's places when it has them (a seat whose holder left is placed last).
  const firsts = (state.seats || []).filter((seat) => seat.place === 1).map((seat) => seat.seat);
  const winners = firsts.length ? firsts : result.winners || [];
  if (!winners.length) return "The game is over.";
  const score = result.scores?.[winners[0]];
  const names = listWords(winners.map((i) => seatName(state, i)));
  const verb = winners.length > 1 ? "share first place" : "wins";
  return `${names} ${verb} with ${score} points.`;
}

/** A seat played by a bot since its holder left (`seat.left`, from the server), in words:
 * "played by ExpressBot Medium since round 4 (bob timed out twice in a row)"; "" if no
 * one left it; "left in round 6 (timed out twice in a row)" when the game ended with it. */
export function playedByWords(seat) {
  const left = seat?.left;
  if (!left) return "";
  const when = left.round ? ` round ${left.round}` : "";
  const why = `${seat.name ? `${seat.name} ` : ""}${left.why || "left"}`;
  if (left.name) return `played by ${left.name} since${when || " then"} (${why})`;
  return `left${when ? ` in${when}` : ""} (${left.why || "left"})`;
}

const signedChange = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10");

/** A seat's rating as the state gives it (never computed here): "1200", with "?" when
 * provisional; null when the seat shows none (a guest, a bot, a casual game's end). */
export function ratingText(seat) {
  if (!seat || seat.rating === null || seat.rating === undefined) return null;
  return `${seat.rating}${seat.rating_provisional ? "?" : ""}`;
}

/** The rating's change in this game once it is over ("+75", "−75"), or null. */
export function changeText(state, seat) {
  if (!state.over || seat?.rating_change === null || seat?.rating_change === undefined) return null;
  return signedChange(seat.rating_change);
}
