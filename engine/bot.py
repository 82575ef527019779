"""CargoBot: the computer opponent of the Daily Challenge and of casual games.

API
---
``choose_turn(position, level, seed) -> str``
    The bot's whole turn for the side to move in ``position`` (a :class:`Position`), as a
    turn token of notation.md: the Phase 1 token, then ``+`` and the four unloaded cells
    (sorted) if it unloads. ``level`` is one of ``BOT_LEVELS``; ``seed`` any int (the Daily
    Challenge passes the day's seed). The position is not changed. Raises
    :class:`EngineError` if the shift is over, the level is unknown or the position is a
    puzzle run (CargoBot plays shifts).
``choose(position, level, seed) -> BotTurn``
    The same turn as a small dataclass: ``token``, ``action`` and ``unload`` (the engine's
    integers, for :meth:`Position.play`) and ``nodes`` (turns the search played).
``BOT_LEVELS = ("easy", "medium", "hard")``
``BOT_VERSION``
    Changes whenever the turn any level chooses in any position changes. The Daily
    Challenge voids ranked games in progress when it changes; ``tests/engine/
    test_bot_pinned.py`` pins turns so that an accidental change fails the suite.

Determinism: the turn depends only on the position, the level and the seed. Search budgets
are counted in turns played (nodes), never in seconds; the only randomness is a
``random.Random`` seeded from a BLAKE2 hash of (seed, level, position in notation); values
are integers; candidate lists are built and sorted in a fixed order (ties broken by the
action's integer and the unload mask), never by set or dict order or ``hash()``.

Levels
------
- ``easy``: looks one turn ahead with a simple, greedy view (unload whenever it can, play
  a card only when it wins an AppCon back at once), and now and then picks a lesser turn:
  a drop that only looks reasonable. A beginner beats it after a few games.
- ``medium``: one turn ahead with the full evaluation (:mod:`engine.bot_eval`): Final
  Audit, chits, AppCons and completing drops of both sides, cards in hand.
- ``hard``: alpha-beta search five turns deep (its turn, the reply, its next turn, ...)
  with the full evaluation at the leaves, iterative deepening and a transposition table
  under a budget of 24000 turns played. Card plays are pruned to those that matter: every
  one at the root is scored (the best six are searched besides the relevant ones), deeper
  only those that break an opposing AppCon, complete one of its own, or lock a column
  where the opponent's drop would complete one.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from engine.bot_eval import WIN, Weights, evaluate, gain, terminal_value
from engine.errors import EngineError
from engine.geometry import appcons_through, bits
from engine.notation import format_position, turn_token
from engine.position import (
    DAMAGE,
    LOCK,
    NO_CELL,
    PASS,
    PURGE,
    REROUTE,
    ROTATE_LEFT,
    ROTATE_RIGHT,
    Position,
)

# A whole turn scored one turn ahead: (score, action, unload mask, the position after it).
Scored = tuple[int, int, int, Position]

BOT_LEVELS = ("easy", "medium", "hard")
BOT_VERSION = "1"


@dataclass(frozen=True)
class BotTurn:
    """A whole turn chosen by CargoBot."""

    token: str
    action: int
    unload: int
    nodes: int


@dataclass(frozen=True)
class _Level:
    weights: Weights
    depth: int
    budget: int  # nodes (turns played) for the whole search
    root_cards: int  # card turns kept at the root besides the relevant ones
    blunder: int  # per mille: chance of picking a lesser turn (easy)
    cards_rarely: bool  # plays a card only for an immediate gain (easy)


_LEVELS = {
    "easy": _Level(Weights(threat=0, double_threat=0, second=0, touch=20, unsafe_appcon=300,
                           safe_appcon=300, rust=0, cards=(0, 0, 0, 0, 0), mover_take=0),
                   depth=1, budget=0, root_cards=0, blunder=500, cards_rarely=True),
    "medium": _Level(Weights(), depth=1, budget=0, root_cards=0, blunder=0,
                     cards_rarely=False),
    "hard": _Level(Weights(), depth=5, budget=24000, root_cards=6, blunder=0,
                   cards_rarely=False),
}


_TIE = 5  # centipoints: turns this close to the best are equally good (seeded choice)
_EXACT, _LOWER, _UPPER = 0, 1, 2


class _OutOfBudget(Exception):
    pass


# --- the API -------------------------------------------------------------------------------


def choose_turn(position: Position, level: str, seed: int) -> str:
    """The bot's whole turn token for the side to move (see the module docstring)."""
    return choose(position, level, seed).token


def choose(position: Position, level: str, seed: int) -> BotTurn:
    """The bot's whole turn for the side to move, with the integers behind the token."""
    if level not in _LEVELS:
        raise EngineError(f"unknown bot level {level!r}: use one of {', '.join(BOT_LEVELS)}")
    if position.solo:
        raise EngineError("CargoBot plays shifts, not puzzle runs")
    if position.is_over():
        raise EngineError("the shift is over: there is no turn to choose")
    rng = random.Random(_seed_for(position, level, seed))
    search = _Search(position.copy(), _LEVELS[level], rng)
    action, unload = search.choose()
    return BotTurn(turn_token(action, unload, position), action, unload, search.nodes)


@dataclass(frozen=True)
class TurnScore:
    """A turn's searched value beside the best turn's (for the game review, engine/review.py).

    Values are centipoints from the side to move's point of view, as the search sees them
    (``WIN`` plus the final margin for a won shift); both come from the same, deepest
    iteration that finished within the budget.
    """

    best_action: int
    best_unload: int
    best: int
    played: int
    depth: int
    nodes: int
    #: every finished iteration, shallowest first: (depth, best value, best action,
    #: best unload, played value); the fields above are the last one's
    iterations: tuple[tuple[int, int, int, int, int], ...] = ()


def score_turn(position: Position, action: int, unload: int, *, depth: int,
               budget: int) -> TurnScore:
    """Hard's search of one position with a given depth and node budget: the value of the
    turn (action, unload), which must be legal, and of the best turn it finds.

    It does not change how CargoBot plays (no seeded choice: the best turn is the first
    by value, then action integer, then unload mask), so it is the same on every machine.
    """
    if position.solo:
        raise EngineError("a review scores shifts, not puzzle runs")
    if position.is_over():
        raise EngineError("the shift is over: there is no turn to score")
    hard = _LEVELS["hard"]
    level = _Level(hard.weights, depth=max(1, depth), budget=budget,
                   root_cards=hard.root_cards, blunder=0, cards_rarely=False)
    search = _Search(position.copy(), level, random.Random(0))
    return search.score(action, unload)


def _seed_for(p: Position, level: str, seed: int) -> int:
    text = f"{seed}|{level}|{format_position(p)}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


# --- turns ---------------------------------------------------------------------------------


def _finish(p: Position) -> Position:
    p.turns += 1
    if not p.solo:
        p.side ^= 1
    return p


def _unload_options(p: Position, side: int, limit: int) -> list[tuple[int, int]]:
    """(gain, mask) of up to ``limit`` unloads, best gain first, then notation order."""
    found = p.appcons(side)
    if not found:
        return []
    opts = sorted(((gain(p, side, a.shape), a.rank, a.mask) for a in found),
                  key=lambda t: (-t[0], t[1]))
    return [(g, m) for g, m in ((t[0], t[2]) for t in opts[:limit])]


def _turns(p: Position, action: int, unloads: int = 3) -> list[tuple[int, int, Position]]:
    """The whole turns starting with a Phase 1 action: (action, unload mask, position after).

    With something to unload: the best few unloads, then not unloading.
    """
    side = p.side
    after = p.copy()
    after.apply_action(action)
    out = []
    for _, mask in _unload_options(after, side, unloads):
        q = after.copy()
        q.apply_unload(mask)
        out.append((action, mask, _finish(q)))
    out.append((action, 0, _finish(after)))
    return out


def relevant_cards(p: Position) -> set[int]:
    """Card plays worth searching: they break an opposing AppCon, complete one of ours, or
    block (lock) a column where the opponent's drop would complete one."""
    me = p.side
    op = me ^ 1
    hand = p.cards[me]
    out: set[int] = set()
    if not hand:
        return out
    g = p.g
    theirs = p.cores[op]
    mine = p.cores[me]
    target = 0
    for a in p.appcons(op):
        target |= a.mask
    if target:
        if hand & 1:
            out.update((ROTATE_LEFT, ROTATE_RIGHT))
        if hand & 4:
            out.update(PURGE + k for k, m in enumerate(g.corridor_masks) if m & target)
        if hand & 8:
            if p.rules == "0.88":
                cells = bits(target)
                out.update(DAMAGE | c << 8 | NO_CELL for c in cells)
                out.update(DAMAGE | a << 8 | b for i, a in enumerate(cells) for b in cells[i + 1:])
            else:
                out.update(DAMAGE | a << 8 | b for a, b in p.damage_pairs()
                           if (1 << a | 1 << b) & target)
        if hand & 16:
            out.update(REROUTE + c for c in bits(target))
    if hand & 16 and theirs:
        s = g.stride
        near = (mine << 1 | mine >> 1 | mine << s | mine >> s) & theirs
        for c in bits(near):
            if appcons_through(g, mine | 1 << c, c):
                out.add(REROUTE + c)
    if hand & 2:
        s = g.stride
        for x in p.drops():
            cell = x * s + p.heights[x]
            bit = 1 << cell
            if (bit << 1 | bit >> 1 | bit << s | bit >> s) & theirs and \
                    appcons_through(g, theirs | bit, cell):
                out.add(LOCK + x)
                out.add(LOCK + p.n + p.heights[x])
    return out


# --- the search ------------------------------------------------------------------------


class _Search:
    def __init__(self, p: Position, level: _Level, rng: random.Random) -> None:
        self.p = p
        self.level = level
        self.w = level.weights
        self.rng = rng
        self.nodes = 0
        # Transpositions (drops commute): key -> (depth, value, bound). Only looked up by
        # key, never iterated, so it cannot make the choice depend on dict order.
        self.table: dict[tuple[int, ...], tuple[int, int, int]] = {}

    def choose(self) -> tuple[int, int]:
        p = self.p
        me = p.side
        lvl = self.level
        actions = p.actions()
        # Every whole turn, scored one turn ahead.
        scored: list[Scored] = []
        for action in actions:
            for a, mask, q in _turns(p, action):
                self.nodes += 1
                scored.append((self._static(q, me), a, mask, q))
        scored.sort(key=lambda t: (-t[0], t[1], t[2]))
        if lvl.cards_rarely:
            scored = self._beginner_filter(scored)
        if lvl.blunder and len(scored) > 1 and self.rng.randrange(1000) < lvl.blunder:
            return self._blunder(scored)
        if lvl.depth <= 1:
            return self._pick(scored)
        return self._deep(scored)

    def score(self, action: int, unload: int) -> TurnScore:
        """The value of one given turn and of the best turn (see :func:`score_turn`)."""
        p = self.p
        me = p.side
        played = p.copy()
        played.apply_action(action)
        if unload:
            played.apply_unload(unload)
        _finish(played)
        scored: list[Scored] = []
        for a in p.actions():
            for b, mask, q in _turns(p, a):
                self.nodes += 1
                scored.append((self._static(q, me), b, mask, q))
        scored.sort(key=lambda t: (-t[0], t[1], t[2]))
        keep = relevant_cards(p)
        root = [t for t in scored if t[1] < ROTATE_LEFT or t[1] == PASS or t[1] in keep]
        others = [t for t in scored if not (t[1] < ROTATE_LEFT or t[1] == PASS or t[1] in keep)]
        root += others[:self.level.root_cards]
        root.sort(key=lambda t: (-t[0], t[1], t[2]))
        if not any(t[1] == action and t[2] == unload for t in root):
            root.append((self._static(played, me), action, unload, played))
            root.sort(key=lambda t: (-t[0], t[1], t[2]))
        best = root[0]
        result = (best[0], best[1], best[2], self._static(played, me), 1)
        done = [result]
        order = root
        for depth in range(2, self.level.depth + 1):
            try:
                results = []
                alpha = -WIN * 4
                value = None
                for t in order:
                    v = -self._negamax(t[3], depth - 1, -WIN * 4, -alpha)
                    results.append((v, t[1], t[2], t[3]))
                    if v > alpha:
                        alpha = v
                        if t[1] == action and t[2] == unload:
                            value = v  # the best so far: searched with an open window
                    elif t[1] == action and t[2] == unload:
                        value = None  # only a bound: searched exactly below
                if value is None:
                    value = -self._negamax(played, depth - 1, -WIN * 4, WIN * 4)
            except _OutOfBudget:
                break
            results.sort(key=lambda r: (-r[0], r[1], r[2]))
            order = results
            result = (results[0][0], results[0][1], results[0][2], value, depth)
            done.append(result)
        iterations = []
        for v_best, a_best, m_best, v_played, d in done:
            if v_played > v_best:
                v_best, a_best, m_best = v_played, action, unload
            iterations.append((d, v_best, a_best, m_best, v_played))
        d, v_best, a_best, m_best, v_played = iterations[-1]
        return TurnScore(a_best, m_best, v_best, v_played, d, self.nodes, tuple(iterations))

    def _static(self, q: Position, me: int) -> int:
        return evaluate(q, me, self.w)

    # --- easy -------------------------------------------------------------------------

    def _beginner_filter(self, scored: list[Scored]) -> list[Scored]:
        """A beginner unloads whenever it can and plays a card only to unload at once."""
        unloading = [t for t in scored if t[2]]
        if unloading:
            return unloading
        drops = [t for t in scored if t[1] < ROTATE_LEFT or t[1] == PASS]
        return drops or scored

    def _blunder(self, scored: list[Scored]) -> tuple[int, int]:
        """A lesser but believable turn: one of the few next best."""
        pool = scored[1:6]
        pick = pool[self.rng.randrange(len(pool))]
        return pick[1], pick[2]

    # --- medium -------------------------------------------------------------------------

    def _pick(self, scored: list[Scored]) -> tuple[int, int]:
        """The best turn; among turns within a hair of it, one chosen by the seeded PRNG."""
        best = scored[0][0]
        if best >= WIN // 2:
            return scored[0][1], scored[0][2]
        near = [t for t in scored if t[0] >= best - _TIE]
        pick = near[self.rng.randrange(len(near))]
        return pick[1], pick[2]

    # --- hard ---------------------------------------------------------------------------

    def _deep(self, scored: list[Scored]) -> tuple[int, int]:
        p = self.p
        lvl = self.level
        keep = relevant_cards(p)
        cards_taken = 0
        root = []
        for t in scored:
            a = t[1]
            if a < ROTATE_LEFT or a == PASS or a in keep:
                root.append(t)
            elif cards_taken < lvl.root_cards:
                cards_taken += 1
                root.append(t)
        if not root:  # only card plays, none of them obviously relevant: keep the best few
            root = scored[:max(lvl.root_cards, 8)]
        best_move = (root[0][1], root[0][2])
        order = root
        for depth in range(2, lvl.depth + 1):
            try:
                results = []
                alpha = -WIN * 4
                for t in order:
                    # Moves within _TIE of the best are searched exactly (for _pick).
                    v = -self._negamax(t[3], depth - 1, -WIN * 4, -(alpha - _TIE - 1))
                    results.append((v, t[1], t[2], t[3]))
                    if v > alpha:
                        alpha = v
            except _OutOfBudget:
                break
            results.sort(key=lambda r: (-r[0], r[1], r[2]))
            order = results
            best_move = self._pick(results)
        return best_move

    def _negamax(self, p: Position, depth: int, alpha: int, beta: int) -> int:
        me = p.side
        if p.is_over():
            return terminal_value(p, me)
        if depth == 0:
            return evaluate(p, me, self.w, over=False)
        key = p.key()
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, value, bound = entry
            if bound == _EXACT or (bound == _LOWER and value >= beta) or \
                    (bound == _UPPER and value <= alpha):
                return value
        alpha0 = alpha
        keep = relevant_cards(p)
        actions = [a for a in p.actions() if a < ROTATE_LEFT or a == PASS or a in keep]
        if not actions:
            actions = p.actions()
        children = []
        for action in actions:
            children.extend(_turns(p, action, 2))
        self.nodes += len(children)
        if self.nodes > self.level.budget:
            raise _OutOfBudget
        if depth >= 2:
            keyed = sorted(((-evaluate(q, me, self.w), a, m, q) for a, m, q in children),
                           key=lambda t: (t[0], t[1], t[2]))
            ordered = [t[3] for t in keyed]
        else:
            ordered = [q for _, _, q in children]
        best = -WIN * 4
        for q in ordered:
            v = -self._negamax(q, depth - 1, -beta, -alpha)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        bound = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self.table[key] = (depth, best, bound)
        return best
