"""The search behind the bots' decisions: values, samples, one-ply and look-ahead.

:class:`Search` holds one decision's level, view, seat and seeded PRNG, and the ways it
weighs turns: the seat's value against the strongest other seat
(:mod:`express.evaluation`), full positions sampled from the view, the candidate turns
(none whose legality hangs on hidden parts), the one-ply choice, the look-ahead to the end
of the seat's turns or of the round, and sums over common samples stopped by a count of
work. :class:`express.bot.Bot` builds each phase's decision on it.

Speed never changes a decision. Within one decision the bot remembers seat values
(:meth:`Search.worth`) and the one-ply choices of the look-ahead and the plan search
(:meth:`Search.turn_key`), each under everything it reads; a one-ply loop skips a candidate
that does to the holdings what an earlier one did (:func:`outcome_key`: its equal value
could not win); turns it keeps are replayed with
:func:`express.unchecked.play_unchecked`.
The docstrings say why each is exact; the tests switch them off and compare.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from express.determinize import determinize, hidden_contracts
from express.evaluation import seat_value, time_left
from express.legal_decisions import legal, legal_turns
from express.levels import Level
from express.memo import Memo
from express.position import Position
from express.rules import CARD_CLASS, CARDS
from express.unchecked import play_unchecked


class Search:
    """How one seat at one level weighs turns within one decision, from a parsed view
    (:class:`express.bot.Bot` makes the decision on it)."""

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

    # --- turns -----------------------------------------------------------------------

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


def _opponent_turn(bot: Search, r: Position) -> None:
    """Another seat's turn in a look-ahead: the one-ply policy with its own plain value.

    The turn chosen is remembered under :meth:`Search.turn_key` (why that is safe: there).
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
