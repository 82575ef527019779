"""Puzzle generator: shift-like puzzles, each proven valid by the exact solver.

API::

    generate(size=6, turns=2, goal="unload", needs_card=False, seed=1, count=1)
        -> list[Generated]   # Generated(record, solution, interest, attempts)
    week(monday="2026-11-30", seed=1) -> list[Generated]  # Monday..Sunday

A candidate is a random shift in progress (random drops and unloads by both players
until the bay is 40-60% full, both Cores and Empty Cans, settled), made a puzzle start
(Blue to move, Orange without cards, shapes or points), with a random preset hand, a
MagLock sometimes and Blue's completed shapes as its shelf. A goal of the asked kind is
chosen for it, and the solver keeps it only if ``fewest == turns`` (never fewer) and, with
``needs_card``, the puzzle is unsolvable with an empty hand. Among the valid candidates
of a batch the most interesting is kept (see :func:`interest` and docs/puzzles.md).
Everything is seeded by ``random.Random``: the same arguments give the same puzzles.
"""

from __future__ import annotations

import datetime
import functools
import random
from dataclasses import dataclass

from engine.errors import EngineError
from engine.notation import Goal, format_position, format_record, parse_record
from engine.position import BLUE, CURRENT_RULES, NO_LOCK, SHAPE_VALUES, Position
from engine.solver import Solution, _Search, solve

GOALS = ("unload", "score", "appcons")


@dataclass(frozen=True)
class Generated:
    """One generated puzzle: its record text, the solver's proof, and its interest score."""

    record: str
    solution: Solution
    interest: int
    attempts: int


# --- shift-like positions ----------------------------------------------------------------


def random_shift(rng: random.Random, n: int, rules: str = CURRENT_RULES) -> Position:
    """A two-player shift in progress: both players build toward AppCons and unload.

    Each drop is, two times in three, into a column whose landing cell touches the
    mover's own cores (else any column); an AppCon on offer is unloaded four times in
    five. Play stops when the bay is 40-60% full; shifts without Blue cores, Orange cores
    and Empty Cans are drawn again, so every start looks like play has happened.
    """
    while True:
        p = Position(n, rules)
        s = p.g.stride
        target = int(n * n * rng.uniform(0.4, 0.6))
        while p.occupied.bit_count() < target:
            drops = p.drops()
            if not drops:
                break
            mine = p.cores[p.side]
            near = [x for x in drops
                    if (lambda b: (b << 1 | b >> 1 | b << s | b >> s) & mine)(
                        1 << (x * s + p.heights[x]))]
            pool = near if near and rng.random() < 2 / 3 else drops
            p.apply_action(rng.choice(pool))
            found = p.appcons(p.side)
            if found and rng.random() < 0.8:
                p.apply_unload(rng.choice(found).mask)
            p.turns += 1
            p.side ^= 1
        if p.cores[BLUE] and p.cores[1] and p.empty:
            return p


def puzzle_start(rng: random.Random, shift: Position, cards: int | None = None) -> Position:
    """Make a shift a puzzle Start (rules.md 22-23): Blue to move, a preset hand."""
    p = shift.copy()
    p.side = BLUE
    p.cards = [rng.randrange(32) if cards is None else cards, 0]
    p.gold = [p.gold[BLUE], 0]
    p.steel = [p.steel[BLUE], 0]
    p.points = [p.points[BLUE], 0]
    p.lock = NO_LOCK
    if rng.random() < 0.25:
        p.lock = rng.randrange(2 * p.n)
    if rng.random() < 0.3:  # sometimes a shelf of a shape or two more
        for _ in range(rng.randint(1, 2)):
            p.steel[BLUE] |= 1 << rng.randrange(7)
        p.steel[BLUE] &= ~p.gold[BLUE]
    p._appcons = [None, None]
    return p


def _record(p: Position, goal: Goal, turns: int, extra: dict[str, str] | None = None) -> str:
    headers = {"Event": "Weekly Puzzle", "Size": str(p.n), "Rules": p.rules,
               "Start": format_position(p), "Goal": str(goal), "Turns": str(turns)}
    headers.update(extra or {})
    return format_record(headers, [])


# --- goals ---------------------------------------------------------------------------------


def _goal_candidates(rng: random.Random, kind: str, turns: int) -> list[Goal]:
    if kind == "unload":
        shapes = list(range(7))
        rng.shuffle(shapes)
        return [Goal("unload", shape=s) for s in shapes]
    if kind == "appcons":
        return [Goal("appcons", amount=k) for k in range(min(turns, 3), 0, -1)]
    top = 8 * turns
    amounts = list(range(top, 2, -1))
    return [Goal("score", amount=k) for k in amounts]


def _fewest(start: Position, goal: Goal, turns: int, cards: bool) -> tuple[int | None, int]:
    s = _Search(start, goal, cards)
    line = s.fewest(turns)
    return (None if line is None else len(line)), s.nodes


def interest(start: Position, goal: Goal, sol: Solution) -> int:
    """How far the solution is from the first thing one tries (docs/puzzles.md).

    +3 if the greedy line fails (each turn: unload the best AppCon on offer toward the goal,
    else drop where it makes the most Blue neighbours); +2 if an AppCon can be unloaded at
    the start but the goal cannot be met by unloading it (the obvious unload is a trap);
    +2 if the solution plays a card; +1 if the shelf removes a Gold bonus the goal needs
    (score goals).
    """
    score = 0
    if not _greedy_solves(start, goal, sol.fewest or 0):
        score += 3
    first = start.copy()
    first.solo = True
    offered = first.appcons(BLUE)
    if offered and sol.line and "+" not in sol.line[0]:
        score += 2
    if sol.line and any(t[0] in "SLPDR" for t in sol.line):  # card tokens are upper case
        score += 2
    shelf = start.gold[BLUE] | start.steel[BLUE]
    if goal.kind == "score" and shelf:
        score += 1
    return score


def _greedy_solves(start: Position, goal: Goal, turns: int) -> bool:
    from engine.game import Game

    game = Game(start, goal, turns)
    for _ in range(turns):
        if game.over:
            break
        p = game.position
        best: tuple[int, str] | None = None
        for action in p.drops():
            q = p.copy()
            q.apply_action(action)
            found = q.appcons(BLUE)
            useful = [a for a in found
                      if goal.kind != "unload" or a.shape == goal.shape]
            if useful:
                a = max(useful, key=lambda a: SHAPE_VALUES[a.shape])
                value = 100 + SHAPE_VALUES[a.shape]
                token = f"{'abcdefgh'[action]}+{q.g.names(a.mask)}"
            else:
                bit = q.cores[BLUE] & ~p.cores[BLUE]
                s = q.g.stride
                value = ((bit << 1 | bit >> 1 | bit << s | bit >> s) & p.cores[BLUE]).bit_count()
                token = "abcdefgh"[action]
            if best is None or value > best[0]:
                best = (value, token)
        if best is None:
            return False
        game.play(best[1])
    return game.solved


# --- generating -------------------------------------------------------------------------


def _candidate(rng: random.Random, n: int, turns: int, kind: str, needs_card: bool,
               rules: str) -> tuple[Position, Goal] | None:
    shift = random_shift(rng, n, rules)
    hand = None
    if needs_card:
        hand = 0
        while not hand:
            hand = rng.randrange(32) if rng.random() < 0.3 else 1 << rng.randrange(5)
    start = puzzle_start(rng, shift, hand)
    probe = start.copy()
    probe.solo = True
    if probe.is_over():
        return None
    for goal in _goal_candidates(rng, kind, turns):
        if needs_card:
            bare, _ = _fewest(start, goal, turns, cards=False)
            if bare is not None:
                continue
        fewest, _ = _fewest(start, goal, turns, cards=True)
        if fewest == turns:
            return start, goal
        if kind == "score" and fewest is not None:
            continue  # a higher amount was tried first; a lower one is easier still
    return None


def generate(size: int, turns: int, goal: str, needs_card: bool = False, seed: int = 1,
             count: int = 1, rules: str = CURRENT_RULES, batch: int = 3,
             max_attempts: int = 2000) -> list[Generated]:
    """``count`` valid puzzles; each is the most interesting of ``batch`` valid candidates."""
    if size not in (5, 6, 7, 8):
        raise EngineError(f"bay size must be 5 to 8, not {size}")
    if not 1 <= turns <= 4:
        raise EngineError(f"turns must be 1 to 4, not {turns}")
    if goal not in GOALS:
        raise EngineError(f"unknown goal kind {goal!r} (expected unload, score or appcons)")
    rng = random.Random(f"{seed}:{size}:{turns}:{goal}:{needs_card}:{rules}")
    out: list[Generated] = []
    attempts = 0
    while len(out) < count:
        found: list[Generated] = []
        while len(found) < batch:
            attempts += 1
            if attempts > max_attempts:
                raise EngineError(f"no valid puzzle found in {max_attempts} attempts")
            cand = _candidate(rng, size, turns, goal, needs_card, rules)
            if cand is None:
                continue
            start, g = cand
            text = _record(start, g, turns)
            sol = solve(text)
            assert sol.valid and (sol.needs_card or not needs_card), text
            found.append(Generated(text, sol, interest(start, g, sol), attempts))
        best = max(found, key=lambda x: x.interest)  # first of the best: stable
        out.append(best)
    return out


def annotated(gen: Generated, extra: dict[str, str] | None = None) -> str:
    """The record with the proof's figures as headers (the solver ignores them)."""
    rec = parse_record(gen.record)
    headers = dict(rec.headers)
    headers.update(extra or {})
    sol = gen.solution
    headers["Fewest"] = str(sol.fewest)
    headers["NeedsCard"] = "yes" if sol.needs_card else "no"
    headers["Interest"] = str(gen.interest)
    headers["ProofNodes"] = str(sol.nodes)
    headers["ProofSeconds"] = f"{sol.seconds:.3f}"
    return format_record(headers, []) + "# solution: " + " ".join(sol.line or []) + "\n"


def generate_records(size: int, turns: int, goal: str, needs_card: bool = False,
                     seed: int = 1, count: int = 1) -> list[str]:
    return [annotated(g) for g in generate(size, turns, goal, needs_card, seed, count)]


# --- the week --------------------------------------------------------------------------

#: Monday..Sunday: (size, turn limits to choose from, needs a card).
SCHEDULE = (
    (5, (1, 2), False), (5, (1, 2), False),
    (6, (2, 3), False), (6, (2, 3), False),
    (7, (3,), False),
    (8, (3, 4), True), (8, (3, 4), True),
)
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def week(monday: str, seed: int = 1) -> list[tuple[str, Generated]]:
    """The seven puzzles of the week starting on ``monday`` (YYYY-MM-DD), with their dates.

    A week depends on its Monday and seed alone, so the last few are kept: generating one
    costs 1-2 s of CPU, and a site process asked for the same week again (the Weekly
    Puzzles filled for a new database, a second seed tried) gets it at once. The puzzles
    are frozen; each call gets its own list."""
    return list(_week(monday, seed))


@functools.lru_cache(maxsize=8)
def _week(monday: str, seed: int) -> tuple[tuple[str, Generated], ...]:
    try:
        day0 = datetime.date.fromisoformat(monday)
    except ValueError:
        raise EngineError(f"bad date {monday!r}: expected YYYY-MM-DD") from None
    if day0.weekday() != 0:
        raise EngineError(f"{monday} is a {DAYS[day0.weekday()]}, not a Monday")
    rng = random.Random(f"week:{monday}:{seed}")
    kinds = list(GOALS) * 3
    rng.shuffle(kinds)
    out = []
    for i, (size, limits, card) in enumerate(SCHEDULE):
        turns = rng.choice(limits)
        kind = kinds[i]
        if i and kind == kinds[i - 1]:  # vary the goals from day to day
            kind = GOALS[(GOALS.index(kind) + 1) % 3]
            kinds[i] = kind
        gen = generate(size, turns, kind, card, seed=rng.randrange(1 << 30), batch=2)[0]
        out.append(((day0 + datetime.timedelta(days=i)).isoformat(), gen))
    return tuple(out)


def week_records(monday: str, seed: int = 1) -> list[str]:
    out = []
    for i, (date, gen) in enumerate(week(monday, seed)):
        out.append(annotated(gen, {"Date": date, "Day": DAYS[i]}))
    return out

