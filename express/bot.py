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
  its turns, so that a newcomer wins: docs/logs/express-bots.md, "Easy: more mistakes");
  plans of three usable cards at random; random picks and swaps.
- **Medium**: one-ply over every turn with the full evaluation (set progress, contract
  progress, time left); plans by a greedy search over the usable cards (each card's best
  turn, simulated on one determinization with the other seats standing still); characters
  by that plan search under each character left (issue #31: Medium between Easy and Hard
  against the yardstick, docs/logs/express-bots.md); swaps by mobility.
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
  it did no better (docs/logs/express-bots.md). ``hard1`` is the Hard before issue #31 (a
  look-ahead to the end of its own turns, the beam's plan on one determinization), kept
  for the tournament command's comparisons; it is not a level.

The search the levels share (values, samples, one-ply, look-ahead, and why its memos
never change a decision) is :mod:`express.search`; the evaluation is
:mod:`express.evaluation`, the budgets :mod:`express.levels`.

Tokens whose legality depends on hidden parts are never chosen: a reorder (``o``) can
name cars refilled from the bag, and a fulfil after a sign names the card drawn. A sign
keeps ``s1`` (``s1`` and ``s2`` are the same blind draw; ``s0`` does nothing).
"""

from __future__ import annotations

import hashlib
import random

from express.errors import ExpressError
from express.evaluation import mobility
from express.levels import BY_NAME
from express.notation import parse_position
from express.position import Position
from express.rules import CARD_CLASS, CARDS, CHARACTERS
from express.search import Search


class Bot(Search):
    """One decision of one seat at one level, from a parsed view: a pick, a plan, a turn or
    a refit swap, made with the search it inherits."""

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
        candidates: 3.1 CPU-s for one plan decision, measured; docs/logs/express-bots.md)."""
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
            mine = mobility(r, self.seat)
            others = [mobility(r, t) for t in range(1, r.n + 1)
                      if t != self.seat and not r.resigned[t - 1]]
            v = mine - (max(others) if others else 0)
            if v > best_v:
                best, best_v = s, v
        return f"R{best}"


def _solo_turn_setup(p: Position, seat: int, card: str) -> None:
    """Make it the seat's turn with this card next (the plan search's private game)."""
    p.phase = "a"
    p.k = (seat - p.sm) % p.n
    p.plans[seat - 1] = [card]


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
