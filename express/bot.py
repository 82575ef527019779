"""CargoBot for Cargo Express: the Easy, Medium and Hard levels, reading only a seat's view.

:func:`choose` is what ``python -m express bot`` calls: it gets exactly the text of
``view --seat K`` (a public position), a level, a seed and the seat, and returns one
decision token (a pick, a plan of three cards, a turn or a refit swap). It never sees the
full position: the hidden parts (bag order, contract deck, other seats' open contracts and
plans) are sampled with :func:`express.determinize.determinize`, so two full positions
that share the seat's view always get the same decision.

Determinism: the only randomness is a :class:`random.Random` seeded from a BLAKE2 hash of
(seed, level, seat, view), never ``hash()``; nothing iterates over a set. Budgets are in
determinizations, beam widths and candidate counts, never seconds.

The levels (figures in docs/express-balance.md):

- **Easy**: one-ply greedy over the turns, scored by a plain evaluation (points now, cars
  on the train, the engine), with seeded mistakes (a uniformly random candidate in 60% of
  its turns, so that a newcomer wins: docs/express-bots.md, "Easy: more mistakes");
  plans of three usable cards at random; random picks and swaps.
- **Medium**: one-ply over every turn with the full evaluation (set progress, contract
  progress, time left); plans by a greedy search over the usable cards (each card's best
  turn, simulated on one determinization with the other seats standing still); characters
  by that plan search under each character left (issue #31: Medium between Easy and Hard
  against the yardstick, docs/express-bots.md); swaps by mobility.
- **Hard** (issue #31): the Medium evaluation as a prior, then for the best few candidates
  a determinized look-ahead to the end of the round: many determinizations (the other
  seats' hidden plans drawn among the cards they can use), every seat played to the end of
  the action phase (the others by the one-ply policy, its own later cards greedily), the
  outcome scored against the strongest other seat. Plans: a beam search over all nine
  cards (an upgrade can make a higher card usable later in the round) gives a shortlist,
  each plan played through the round on the same determinizations; the best mean.
  Characters: that plan evaluation under each character. Budget (``HARD``): 48
  determinizations for a turn's 10 best outcomes and its best turn to each other end
  space, at most 500 simulated rounds a turn (``turn_sims``: fewer determinizations when
  there are many candidates, the worst case of the decision time); 48 for each of 6
  shortlisted plans, 24 for a character's 3. A turn's look-ahead stops early once it has
  scored 50,000 candidate turns, a plan's simulated rounds once they have scored 40,000
  (``turn_work``, ``plan_work``; counts, so a decision stays a function of the view): the
  rare decision that would otherwise take seconds. ``halving`` (sequential halving of the
  turn candidates) is there for tuning and off: in small matches against the yardstick
  it did no better (docs/express-bots.md). ``hard1`` is the Hard before issue #31 (a
  look-ahead to the end of its own turns, the beam's plan on one determinization), kept
  for the tournament command's comparisons; it is not a level.

Speed never changes a decision. Within one decision the bot remembers seat values
(:meth:`Bot.worth`) and the one-ply choices of the look-ahead and the plan search
(:meth:`Bot.turn_key`), each under everything it reads; a one-ply loop skips a candidate
that does to the holdings what an earlier one did (:func:`outcome_key`: its equal value
could not win); turns it keeps are replayed with :func:`express.moves.play_unchecked`.
The docstrings say why each is exact; the tests switch them off and compare.

Tokens whose legality depends on hidden parts are never chosen: a reorder (``o``) can
name cars refilled from the bag, and a fulfil after a sign names the card drawn. A sign
keeps ``s1`` (``s1`` and ``s2`` are the same blind draw; ``s0`` does nothing).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from express.determinize import determinize, hidden_contracts
from express.errors import ExpressError
from express.memo import Memo
from express.moves import legal, legal_turns, movements, play_unchecked
from express.notation import parse_position
from express.position import Position
from express.rules import CARD_CLASS, CARDS, CHARACTERS, COLOURS, CONTRACTS, SPACES

LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Level:
    """The budget of one level (counts, never seconds)."""

    name: str
    mistakes: float  # chance of a uniformly random candidate (Easy)
    full_eval: bool  # set and contract progress, time left
    dets: int  # determinizations for the look-ahead (0: none, one-ply only)
    top_k: int  # candidates given the look-ahead
    plan_beam: int  # beam width of the plan search (0: random usable plan)
    plan_all_cards: bool  # the plan search tries cards the engine cannot use yet
    pick_search: bool  # characters chosen by the plan search under each
    rel: float  # weight of the strongest opponent's value
    diverse: bool = False  # the look-ahead also weighs the best turn to each end space
    round_ahead: bool = False  # the look-ahead plays every seat to the end of the round
    likely_plans: bool = False  # others' hidden plan cards drawn among their usable cards
    plan_top: int = 0  # plans shortlisted by the beam, each simulated over plan_dets
    plan_dets: int = 0  # determinizations a shortlisted plan is simulated on (0: none)
    pick_dets: int = 0  # determinizations a character's plans are simulated on (0: none)
    halving: bool = False  # the look-ahead halves its candidates in stages (Bot.halve)
    turn_sims: int = 0  # at most this many look-ahead rounds a turn (0: dets × candidates)
    turn_work: int = 0  # a turn's look-ahead stops after the sample that passes this many
    # candidate turns scored (0: never), once it has 8 samples
    plan_work: int = 0  # the same for the simulated rounds of a plan decision's shortlist


EASY = Level("easy", mistakes=0.6, full_eval=False, dets=0, top_k=0, plan_beam=0,
             plan_all_cards=False, pick_search=False, rel=0.0)
MEDIUM = Level("medium", mistakes=0.0, full_eval=True, dets=0, top_k=0, plan_beam=1,
               plan_all_cards=False, pick_search=True, rel=0.0)
HARD = Level("hard", mistakes=0.0, full_eval=True, dets=48, top_k=10, plan_beam=6,
             plan_all_cards=True, pick_search=True, rel=0.6, diverse=True,
             round_ahead=True, likely_plans=True, plan_top=6, plan_dets=48, pick_dets=24,
             turn_sims=500, turn_work=50_000, plan_work=40_000)
#: The Hard of issue #30 (before #31's search), kept for comparison in the tournament
#: command only (``hard1``); it is not a level of the site (:data:`LEVELS`).
HARD1 = Level("hard1", mistakes=0.0, full_eval=True, dets=3, top_k=5, plan_beam=3,
              plan_all_cards=True, pick_search=True, rel=0.3, diverse=True)
BY_NAME = {lv.name: lv for lv in (EASY, MEDIUM, HARD, HARD1)}

# --- evaluation ---------------------------------------------------------------------------

TRAIN_W = 0.6  # a car on the train: likely points later
SET_W = 1.0  # progress towards the next set of five colours (k colours: SET_W * k² / 5)
ENGINE_V = (0.0, 4.0, 6.0, 7.0)  # cumulative worth of the upgrades, early in the game
CONTRACT_BASE = 0.35  # chance that a contract with no cars yet is fulfilled in time
MEAN_CONTRACT = sum(v for _, v in CONTRACTS.values()) / len(CONTRACTS)


def time_left(p: Position) -> float:
    """How much of the game is left, 1 at the start to about 0 in the last round."""
    if p.flag_l:
        return 0.1
    supply = len(p.bag) + p.complex_cars() - p.n
    tf = min(1.0, max(0.15, supply / 30))
    return min(tf, (30 - p.round) / 4 + 0.1)


def _cover(need: str, cars: str) -> int:
    """How many of the cars a contract needs are among ``cars`` (as multisets)."""
    got = 0
    for c in need:
        j = cars.find(c)
        if j >= 0:
            got += 1
            cars = cars[:j] + cars[j + 1:]
    return got


@lru_cache(maxsize=1 << 14)
def contract_potential(cid: str, yard: str, train: str, tf: float) -> float:
    """The expected gain still to come from an open contract (its value and the -2 back).

    Remembered (``lru_cache``): it depends on its four immutable arguments alone, and a
    seat's value asks it for every contract the view hides.
    """
    need, value = CONTRACTS[cid]
    in_yard = _cover(need, yard)
    in_all = _cover(need, yard + train)
    prog = (in_yard + 0.6 * (in_all - in_yard)) / len(need)
    base = CONTRACT_BASE * tf
    return (value + 2) * (base + (1 - base) * prog * prog) * 0.9


def seat_value(p: Position, seat: int, tf: float, full: bool,
               unknown: Sequence[str] = (), pool: Sequence[str] = ()) -> float:
    """The worth of a seat's holdings: points now plus what they promise.

    ``unknown`` lists open contracts whose identity the bot cannot know (just signed, or
    another seat's): their potential is the mean over ``pool``, the ids the view hides.
    """
    i = seat - 1
    yard = p.yard[i]
    done = p.done[i]
    scored = yard + "".join(c for _, c in done) if done else yard
    counts = [scored.count(c) for c in COLOURS]
    s = min(counts)
    v = float(len(scored) + 5 * s + sum(CONTRACTS[c][1] for c, _ in done)
              - 2 * len(p.open[i]))
    train = p.train[i]
    v += TRAIN_W * len(train) * (tf if full else 1.0)
    v += ENGINE_V[p.engine[i]] * (tf if full else 1.0)
    if not full:
        return v
    k = sum(1 for c in counts if c > s)
    v += SET_W * k * k / 5 * tf
    for cid in p.open[i]:
        if cid in unknown:
            if pool:
                v += sum(contract_potential(h, yard, train, tf) for h in pool) / len(pool)
            else:
                v += (MEAN_CONTRACT + 2) * CONTRACT_BASE * tf * 0.9
        else:
            v += contract_potential(cid, yard, train, tf)
    return v


class Bot:
    """One decision of one seat at one level, from a parsed view."""

    def __init__(self, level: Level, view: Position, seat: int, rng: random.Random) -> None:
        self.level = level
        self.view = view
        self.seat = seat
        self.rng = rng
        self.pool = hidden_contracts(view) if view.hidden is not None else []
        self.mine = set(view.open[seat - 1])
        self.worths: dict[tuple[object, ...], float] = {}
        self.best_own: dict[tuple[object, ...], tuple[str, float]] = {}  # greedy_turn
        self.best_other: dict[tuple[object, ...], str] = {}  # _opponent_turn
        self.scored = 0  # candidate turns scored by best_candidate (the work done)

    # --- values ---------------------------------------------------------------------

    def value(self, p: Position, relative: bool = True) -> float:
        """The seat's value in a (determinized) position, against the strongest other."""
        lv = self.level
        tf = time_left(p)
        seat = self.seat
        v = self.worth(p, seat, tf, lv.full_eval, own=True)
        if relative and lv.rel:
            others = [self.worth(p, s, tf, lv.full_eval, own=False)
                      for s in range(1, p.n + 1) if s != seat and not p.resigned[s - 1]]
            if others:
                v -= lv.rel * max(others)
        return v

    def worth(self, p: Position, seat: int, tf: float, full: bool, own: bool) -> float:
        """:func:`seat_value` of a seat, remembered for the rest of this decision.

        ``own``: the bot's seat, whose contracts not in ``self.mine`` are unknown and
        valued over ``self.pool``; otherwise every open contract is unknown and valued at
        the mean (another seat's, as the bot sees them). The value reads only the seat's
        yard, train, engine, fulfilled and open contracts, ``tf`` and ``full`` (``mine``
        and ``pool`` are fixed for the bot's life), so that key gives back the very float
        a new call would compute. The look-ahead and the plan search meet the same
        holdings again and again (the other seats mostly stand still).
        """
        i = seat - 1
        opened = p.open[i]
        key = (seat, own, full, tf, p.yard[i], p.train[i], p.engine[i], tuple(p.done[i]),
               tuple(opened))
        v = self.worths.get(key)
        if v is None:
            if own:
                unknown = [c for c in opened if c not in self.mine]
                v = seat_value(p, seat, tf, full, unknown, self.pool)
            else:
                v = seat_value(p, seat, tf, full, opened)
            self.worths[key] = v
        return v

    def sample(self) -> Position:
        """A full position the view allows; with ``likely_plans`` the other seats' hidden
        plan cards are drawn among the cards their engines can use (a seat that plans a
        card it cannot use loses that turn, which no bot of ours does on purpose)."""
        p = determinize(self.view, self.rng)
        h = self.view.hidden
        if self.level.likely_plans and h is not None:
            for i, count in enumerate(h.plans):
                if count:
                    p.plans[i] = self.likely_plan(p, i + 1, count)
        return p

    def likely_plan(self, p: Position, seat: int, count: int = 3) -> list[str]:
        """``count`` different cards the seat's engine can use, at random (all nine when
        too few are usable)."""
        usable = [c for c in CARDS if CARD_CLASS[c] <= p.engine[seat - 1]]
        return self.rng.sample(usable if len(usable) >= count else list(CARDS), count)

    # --- decisions ------------------------------------------------------------------

    def decide(self) -> str:
        ph = self.view.phase
        if ph == "c":
            return self.pick()
        if ph == "p":
            return self.plan()
        if ph == "a":
            return self.turn()
        return self.swap()

    def pick(self) -> str:
        held = self.view.held_characters()
        options = [c for c in CHARACTERS if c not in held]
        if not self.level.pick_search or len(options) == 1:
            return options[int(self.rng.random() * len(options))]
        if self.level.pick_dets:
            return self.pick_by_rounds(options)
        q = self.sample()
        best, best_v = options[0], -1e9
        for c in options:
            r = q.copy()
            r.chars[self.seat - 1] = c
            _, v = self.plan_search(r, beam=max(1, self.level.plan_beam - 1))
            if v > best_v:
                best, best_v = c, v
        return best

    def pick_by_rounds(self, options: list[str]) -> str:
        """The character whose best shortlisted plan does best over ``pick_dets`` simulated
        rounds: for each character a plan shortlist (the beam on one determinization),
        each plan's round simulated on the same determinizations for every character
        (common random numbers); the other seats' characters still to pick are drawn
        among those left."""
        lv = self.level
        samples = [self.round_start(self.sample()) for _ in range(lv.pick_dets)]
        best, best_v = options[0], -1e9
        for c in options:
            fills = [self.with_character(q, c) for q in samples]
            plans = self.plan_shortlist(fills[0], beam=lv.plan_beam, top=lv.plan_top // 2)
            v = max(self.plan_means(plans, fills))
            if v > best_v:
                best, best_v = c, v
        return best

    def with_character(self, q: Position, character: str) -> Position:
        """A copy of ``q`` with the seat holding ``character`` and every other seat still
        to pick holding one of those left, drawn at random."""
        r = q.copy()
        r.chars[self.seat - 1] = character
        left = [c for c in CHARACTERS if c not in r.chars]
        for i in range(r.n):
            if r.chars[i] is None and not r.resigned[i]:
                r.chars[i] = left.pop(int(self.rng.random() * len(left)))
        return r

    def round_start(self, q: Position) -> Position:
        """``q`` (a pick or planning position) with every other active seat's missing plan
        drawn as a likely one (:meth:`likely_plan`); the seat's own plan is left out."""
        for i in range(q.n):
            if i != self.seat - 1 and not q.resigned[i] and not q.plans[i]:
                q.plans[i] = self.likely_plan(q, i + 1)
        return q

    def plan(self) -> str:
        seat = self.seat
        usable = [c for c in CARDS if CARD_CLASS[c] <= self.view.engine[seat - 1]]
        if not self.level.plan_beam:
            return "".join(self.rng.sample(usable, 3))
        if self.level.plan_dets:
            return "".join(self.plan_by_rounds())
        cards, _ = self.plan_search(self.sample(), beam=self.level.plan_beam)
        return "".join(cards)

    def plan_by_rounds(self) -> tuple[str, ...]:
        """The beam's shortlist of plans, each simulated over the same ``plan_dets``
        determinizations of the round; the best mean (the first of equal means)."""
        lv = self.level
        samples = [self.round_start(self.sample()) for _ in range(lv.plan_dets)]
        plans = self.plan_shortlist(samples[0], beam=lv.plan_beam, top=lv.plan_top)
        means = self.plan_means(plans, samples, work=lv.plan_work)
        return plans[max(range(len(plans)), key=lambda j: (means[j], -j))]

    def plan_means(self, plans: list[tuple[str, ...]], samples: list[Position],
                   work: int = 0) -> list[float]:
        """For each plan, the mean value, relative to the strongest other seat, at the end
        of the round's action phase played from each sample with the seat's plan: the
        seat's turns greedily, the others by the one-ply policy. ``work``: as in
        :meth:`sampled_totals` (a 3-seat round whose turns each weigh a thousand or more
        candidates: 3.1 CPU-s for one plan decision, measured; docs/express-bots.md)."""
        def round_with(j: int, q: Position) -> float:
            r = q.copy()
            r.plans[self.seat - 1] = list(plans[j])
            r.phase, r.k = "a", 0
            return self.play_round(r)

        totals, seen = self.sampled_totals(len(plans), range(len(plans)), samples,
                                           round_with, work)
        return [t / max(1, seen) for t in totals]

    def plan_shortlist(self, q: Position, beam: int, top: int) -> list[tuple[str, ...]]:
        """The best ``top`` plans of the beam search on ``q`` (best first)."""
        return [seq for seq, _ in self.plan_beam_states(q, beam)[:max(1, top)]]

    def plan_search(self, q: Position, beam: int) -> tuple[tuple[str, ...], float]:
        """The beam search's best plan and its value."""
        return self.plan_beam_states(q, beam)[0]

    def plan_beam_states(self, q: Position, beam: int) -> list[tuple[tuple[str, ...], float]]:
        """A beam search over card sequences: each card's best turn, the others still;
        the final beam, best first."""
        seat = self.seat
        pool = CARDS if self.level.plan_all_cards else \
            [c for c in CARDS if CARD_CLASS[c] <= q.engine[seat - 1]]
        states: list[tuple[tuple[str, ...], Position, float]] = [((), q, 0.0)]
        for _ in range(3):
            nxt: list[tuple[tuple[str, ...], Position, float]] = []
            for seq, r, _v in states:
                for card in pool:
                    if card in seq:
                        continue
                    s = r.copy()
                    _solo_turn_setup(s, seat, card)
                    v = self.greedy_turn(s)
                    nxt.append((seq + (card,), s, v))
            nxt.sort(key=lambda t: -t[2])
            states = nxt[:beam]
        return [(seq, v) for seq, _, v in states]

    def candidates(self, p: Position) -> list[str]:
        """The legal turns worth weighing, none whose legality hangs on hidden parts
        (``legal_turns(p, blind=True)``: no reorder, no sign but ``s1``, no fulfil after
        a sign), in ``legal``'s order."""
        return legal_turns(p, blind=True) if p.phase == "a" else legal(p)

    def best_candidate(self, p: Position, score: Callable[[Position], float]
                       ) -> tuple[str, float]:
        """The first candidate turn of the highest `score` (of the position it leads to),
        with that score; a candidate that repeats an earlier one's outcome is skipped (it
        would score the same, and an equal score never beats the first)."""
        best_t, best_v = "", 0.0
        seen: set[Outcome] = set()
        for t in self.candidates(p):
            if _repeats(t, seen):
                continue
            q = p.copy()
            play_unchecked(q, t)
            v = score(q)
            self.scored += 1
            if not best_t or v > best_v:
                best_t, best_v = t, v
        return best_t, best_v

    def greedy_turn(self, p: Position, relative: bool = False) -> float:
        """Play the best one-ply turn of the seat to move in place; return its value.

        The best turn is the first of the highest value in candidate order (the one
        :meth:`one_ply`'s stable sort puts first). Without ``relative`` it is remembered
        under :meth:`turn_key` for the rest of the decision (when the seat to move is the
        bot's: :meth:`value` reads the bot's seat).
        """
        key = None if relative or p.turn_seat() != self.seat else self.turn_key(p)
        best = self.best_own.get(key) if key is not None else None
        if best is None:
            best = self.best_candidate(p, lambda q: self.value(q, relative))
            if key is not None:
                self.best_own[key] = best
        play_unchecked(p, best[0])
        return best[1]

    def turn_key(self, p: Position) -> tuple[object, ...]:
        """What a plain one-ply choice of the seat to move reads, for :attr:`best_own`
        (:meth:`greedy_turn` without ``relative``) and :attr:`best_other`
        (:func:`_opponent_turn`).

        The candidates (:meth:`candidates` drops every token whose legality hangs on the
        deck's order) read the mover's card, engine, space, character, train, yard and
        open contracts, the Driver's state, the board, the complexes' cars and whether
        the deck is empty. Playing one changes only the mover's holdings, by those and
        the deck's top contract (``s1`` keeps it); :func:`time_left`, before or after,
        reads the round, the flags, the bag's length and the complexes' cars (a refill
        takes from the bag, an empty bag sets the flags). The values compared read the
        mover's holdings and that time left only. Nothing else (the bag's order, the
        rest of the deck, the other seats' holdings and plans) reaches the choice, so
        equal keys choose the same turn with the same value. The look-ahead's candidates
        and the plan search's branches meet the same turns again and again. ``cars`` is
        listed in its dict order, the same for every position of one decision (all are
        copies of one parsed view).
        """
        i = p.turn_seat() - 1
        return (i, p.phase, p.resigned[i], p.plans[i][0] if p.plans[i] else None,
                p.engine[i], p.loc[i], p.chars[i], p.driver_used, p.board,
                tuple(p.cars.values()), p.train[i], p.yard[i], tuple(p.open[i]),
                tuple(p.done[i]), p.deck[0] if p.deck else None, len(p.bag), p.flag_e,
                p.flag_l, p.round)

    def one_ply(self, p: Position, relative: bool = False) -> list[tuple[str, float]]:
        """Each candidate turn with the value of the position it leads to, best first."""
        return [(t, v) for t, v, _ in self.one_ply_positions(p, relative)]

    def one_ply_positions(self, p: Position,
                          relative: bool = False) -> list[tuple[str, float, Position]]:
        scored = []
        for t in self.candidates(p):
            q = p.copy()
            play_unchecked(q, t)
            scored.append((t, self.value(q, relative), q))
        scored.sort(key=lambda tv: -tv[1])
        return scored

    def shortlist(self, ranked: list[tuple[str, float, Position]]) -> list[str]:
        """The candidates for the look-ahead: the best few of different outcomes for the
        seat, and (``diverse``) the best turn ending on each space."""
        i = self.seat - 1
        seen: set[tuple[object, ...]] = set()
        ends: set[int] = set()
        top: list[str] = []
        extra: list[str] = []
        for t, _v, q in ranked:
            key = (q.loc[i], q.train[i], q.yard[i], tuple(q.open[i]), q.engine[i],
                   len(q.done[i]), q.driver_used)
            if key in seen:
                continue
            seen.add(key)
            if len(top) < self.level.top_k:
                top.append(t)
                ends.add(q.loc[i])
            elif self.level.diverse and q.loc[i] not in ends:
                extra.append(t)
                ends.add(q.loc[i])
        return top + extra

    def turn(self) -> str:
        lv = self.level
        p = self.sample()
        ranked = self.one_ply_positions(p, relative=False)
        if len(ranked) == 1:
            return ranked[0][0]
        if lv.mistakes and self.rng.random() < lv.mistakes:
            return ranked[int(self.rng.random() * len(ranked))][0]
        if not lv.dets:
            return ranked[0][0]
        top = self.shortlist(ranked)
        # Drawn before any look-ahead: the look-ahead itself draws nothing, so this is
        # the order of drawing one sample per round of the loop.
        samples = [p] + [self.sample() for _ in range(self.turn_dets(len(top)) - 1)]
        if lv.halving:
            return top[self.halve(top, samples)]
        totals = self.look_totals(top, range(len(top)), samples, work=lv.turn_work)
        best = max(range(len(top)), key=lambda j: (totals[j], -j))
        return top[best]

    def turn_dets(self, candidates: int) -> int:
        """Determinizations for a turn's look-ahead: ``dets``, fewer when ``turn_sims``
        would be passed (many candidates: the worst case of the decision time), never
        under 8."""
        lv = self.level
        if not lv.turn_sims or lv.halving:
            return lv.dets
        return max(8, min(lv.dets, lv.turn_sims // candidates))

    def look_totals(self, top: list[str], which: Sequence[int],
                    samples: Sequence[Position], work: int = 0) -> list[float]:
        """For each candidate of ``top`` (those in ``which``; others 0), the sum of its
        look-ahead values over ``samples``; ``work``: as in :meth:`sampled_totals`."""
        def look(j: int, q: Position) -> float:
            r = q.copy()
            play_unchecked(r, top[j])
            return self.look_ahead(r)

        return self.sampled_totals(len(top), which, samples, look, work)[0]

    def sampled_totals(self, count: int, which: Sequence[int], samples: Sequence[Position],
                       value: Callable[[int, Position], float], work: int = 0
                       ) -> tuple[list[float], int]:
        """For each of ``count`` choices (those in ``which``; others 0), the sum of
        ``value(choice, sample)`` over ``samples``, sample by sample; and the samples seen.

        ``work``: stop after the first sample (from the 8th on) that takes the candidate
        turns scored past this count. Every choice has then seen the same samples, so the
        sums still compare; a count, not a clock, so the decision stays a function of the
        view. Where it matters: a Manager with a full yard and two open contracts has a
        thousand or more fulfil combinations a turn, and the look-ahead's own turns score
        them all at every simulated turn (4.2 s for one decision, measured).
        """
        totals = [0.0] * count
        start, seen = self.scored, 0
        for q in samples:
            for j in which:
                totals[j] += value(j, q)
            seen += 1
            if work and seen >= 8 and self.scored - start > work:
                break
        return totals, seen

    def halve(self, top: list[str], samples: list[Position]) -> int:
        """Sequential halving over the candidates: the samples cut into as many equal
        stages as halvings are needed, each stage's samples looked at for every
        candidate still in, the better half (by the sum over the same samples so far,
        ties to the earlier) going on. The last two see every sample; a weak candidate
        is dropped after a few. Returns the index in ``top`` of the one left."""
        stages = max(1, math.ceil(math.log2(len(top))))
        size = max(1, len(samples) // stages)
        alive = list(range(len(top)))
        totals = [0.0] * len(top)
        start = 0
        for stage in range(stages):
            end = len(samples) if stage == stages - 1 else min(len(samples), start + size)
            more = self.look_totals(top, alive, samples[start:end])
            for j in alive:
                totals[j] += more[j]
            start = end
            alive.sort(key=lambda j: (-totals[j], j))
            alive = alive[:(len(alive) + 1) // 2] if stage < stages - 1 else alive[:1]
            if len(alive) == 1:
                break
        return alive[0]

    def look_ahead(self, r: Position) -> float:
        """Play on to the end of the seat's own turns this round (``round_ahead``: of
        every seat's); the value there."""
        if self.level.round_ahead:
            return self.play_round(r)
        seat = self.seat
        while r.phase == "a" and r.plans[seat - 1]:
            mover = r.turn_seat()
            if mover == seat:
                self.greedy_turn(r)
            else:
                _opponent_turn(self, r)
        return self.value(r, relative=True)

    def play_round(self, r: Position) -> float:
        """Play the action phase to its end in place (the seat's turns greedily, the
        others by the one-ply policy); the seat's value there against the strongest."""
        seat = self.seat
        while r.phase == "a":
            if r.turn_seat() == seat:
                self.greedy_turn(r)
            else:
                _opponent_turn(self, r)
        return self.value(r, relative=True)

    def swap(self) -> str:
        q = self.view
        spaces = q.swap_spaces()
        if not self.level.full_eval:
            return f"R{spaces[int(self.rng.random() * len(spaces))]}"
        best, best_v = spaces[0], -1e9
        for s in spaces:
            r = q.copy()
            board = list(r.board)
            old = board.index("R")
            board[old], board[s] = board[s], "R"
            r.board = tuple(board)
            mine = _mobility(r, self.seat)
            others = [_mobility(r, t) for t in range(1, r.n + 1)
                      if t != self.seat and not r.resigned[t - 1]]
            v = mine - (max(others) if others else 0)
            if v > best_v:
                best, best_v = s, v
        return f"R{best}"


def _opponent_turn(bot: Bot, r: Position) -> None:
    """Another seat's turn in a look-ahead: the one-ply policy with its own plain value.

    The turn chosen is remembered under :meth:`Bot.turn_key` (why that is safe: there).
    """
    key = bot.turn_key(r)
    best_t = bot.best_other.get(key)
    if best_t is None:
        mover, tf = r.turn_seat(), time_left(r)
        best_t, _ = bot.best_candidate(r, lambda q: bot.worth(q, mover, tf, True, own=False))
        bot.best_other[key] = best_t
    play_unchecked(r, best_t)


Outcome = tuple[bool, tuple[str, ...]]


#: At most this many outcome keys are kept; the memo then starts over.
OUTCOME_CACHE = 20_000
_OUTCOMES: Memo[str, Outcome | None] = Memo(OUTCOME_CACHE)


def outcome_key(token: str) -> Outcome | None:
    """What a candidate turn does to the mover's holdings and the time left, when that
    does not hang on the path: None when it does (an attach or exchange at the end).

    Where the locomotive ends does not matter to the holdings, except when the action
    takes cars there (attach ``a``, exchange ``x``). So two legal turns of one position
    with the same special attach and the same steps after the path, leaving out extra
    spaces ``e`` (they only move the locomotive), do the same to the holdings and to
    what :func:`time_left` reads: the same fulfils, sign, upgrade or uncoupled train
    positions. The path, the end space and the Driver's ``*`` are read by no value.
    """
    parts = token.partition(":")[2].split(".")
    special = parts[0] == "^"
    rest = parts[2:] if special else parts[1:]
    if any(step[0] in "ax" for step in rest):
        return None
    return special, tuple(step for step in rest if step[0] != "e")


def _repeats(token: str, seen: set[Outcome]) -> bool:
    """Whether an earlier candidate (its outcome in ``seen``) does what this turn does to
    the holdings and the time left (:func:`outcome_key`); else note this one. Its value
    would be the same, and a later candidate never beats an earlier one of equal value
    (the first best is kept), so a repeat need not be played. The keys are kept by
    token: a key depends on the token's text alone."""
    key = _OUTCOMES[token] if token in _OUTCOMES else _OUTCOMES.keep(token, outcome_key(token))
    if key is None:
        return False
    if key in seen:
        return True
    seen.add(key)
    return False


def _solo_turn_setup(p: Position, seat: int, card: str) -> None:
    """Make it the seat's turn with this card next (the plan search's private game)."""
    p.phase = "a"
    p.k = (seat - p.sm) % p.n
    p.plans[seat - 1] = [card]


def _mobility(p: Position, seat: int) -> float:
    """How many useful spaces the seat can reach next round with its usable cards."""
    i = seat - 1
    if p.resigned[i]:
        return 0.0
    train = p.train[i]
    room = len(train) < p.capacity(seat)
    useful = set()
    for card in CARDS:
        if CARD_CLASS[card] > p.engine[i]:
            continue
        for end, _path, _d in movements(p, seat, card):
            piece = p.board[end]
            if piece[0] == "X" and ((room and p.cars[piece]) or
                                    (piece == f"X{seat}" and p.engine[i] < 3)):
                useful.add(end)
            elif piece[0] == "F" and train and train[-1] == piece[1]:
                useful.add(end)
    return float(len(useful)) + 0.01 * (p.loc[i] % SPACES)


def bot_seed(seed: int, level: str, seat: int, view: str) -> int:
    """The PRNG seed of a decision: BLAKE2 of (seed, level, seat, view), stable everywhere."""
    digest = hashlib.blake2b(f"{seed}|{level}|{seat}|{view}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def choose(view: str, level: str, seed: int, seat: int) -> str:
    """Seat ``seat``'s next decision at ``level``, from its public view alone."""
    lv = BY_NAME.get(level)
    if lv is None:
        raise ExpressError(f"bad level {level!r}: easy, medium or hard")
    p = parse_position(view)
    if p.phase == "o":
        raise ExpressError("the game is over: there is no decision to make")
    if seat not in p.to_move():
        raise ExpressError(f"seat {seat} has no decision to make now (to move: {p.to_move()})")
    if p.phase == "a" and p.resigned[seat - 1]:
        return "-:~"
    rng = random.Random(bot_seed(seed, level, seat, view))
    return Bot(lv, p, seat, rng).decide()
