"""``python -m express tournament`` and ``balance``: bots against each other, and self-play.

**tournament**: each pairing ``A-B`` plays ``--games`` games with ``--players`` seats: one
seat is A, the others B. Games come in groups of ``players`` that share a setup seed, with
A on each seat in turn (seats rotated), so no level profits from a seat or a setup. Every
bot decision goes through :func:`express.bot.choose` with the seat's view text only (the
same boundary as ``python -m express bot``). ``random`` is a uniformly random legal
player: a uniform choice from ``legal`` (picks, turns, swaps) and a plan of three of the
nine cards drawn uniformly (any three are legal), the bench's policy.

It prints, per pairing, A's wins (A among the winners) with a 95% Wilson interval, and
per level the CPU seconds per decision (``time.process_time``: the one-core figure on a
shared machine), median and max.

**balance**: self-play of one level for the balance report (docs/express-balance.md):
rounds per game, how often round 30 ended it, wins by turn-order position of round 1 and
by seat, scores, actions, characters and contracts fulfilled.
"""

from __future__ import annotations

import gzip
import json
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from express.errors import ExpressError
from express.game import Game
from express.legal_decisions import legal
from express.rules import CARDS, CURRENT_RULES, RULES_VERSIONS

PLAYERS = ("random", "novice", "easy", "medium", "hard", "hard1", "mc")
# mc: the yardstick (express.yardstick); novice: the yardstick on a newcomer's budget
# (yardstick.NOVICE_PLAYOUTS); hard1: the Hard of issue #30, for comparison only
DEFAULT_PAIRINGS = ("easy-random", "medium-easy", "hard-medium")


@dataclass
class GameResult:
    """One finished game: who sat where, the result, and what happened."""

    pairing: str
    players: int
    index: int
    levels: tuple[str, ...]  # by seat
    a_seat: int  # the seat of A (0 in self-play)
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int
    capped: bool  # round 30 was played (the cap ended the game)
    first: int  # round 1's stationmaster
    actions: Counter[str] = field(default_factory=Counter)
    characters: Counter[str] = field(default_factory=Counter)
    fulfilled: int = 0
    cpu: dict[str, list[float]] = field(default_factory=dict)  # CPU s per decision
    #: The rules version played. Lines saved before x0.2 existed have none: they are x0.1.
    rules: str = "x0.1"

    @property
    def a_won(self) -> bool:
        return self.a_seat in self.winners

    def to_json(self) -> str:
        """One line of JSON (``--save``), read back by :meth:`from_json`."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        return json.dumps(d)

    @classmethod
    def from_json(cls, line: str) -> GameResult:
        d = json.loads(line)
        for k in ("levels", "winners", "scores"):
            d[k] = tuple(d[k])
        d["actions"] = Counter(d["actions"])
        d["characters"] = Counter(d["characters"])
        return cls(**d)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    phat = wins / n
    den = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / den
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def _turn_kinds(token: str) -> list[str]:
    """The action kinds of a turn token, for the counts (``lost``, ``^``, ``*``, ``f``...)."""
    card, _, steps = token.partition(":")
    if steps == "~":
        return ["lost"]
    parts = steps.split(".")
    kinds = []
    if parts[0] == "^":
        kinds.append("special attach ^")
        parts = parts[1:]
    path, rest = parts[0], parts[1:]
    if path.endswith("*"):
        kinds.append("driver step *")
    action = "none"
    for step in rest:
        if step[0] == "f":
            kinds.append("fulfil f")
        else:
            action = {"a": "attach a", "u": "upgrade u", "x": "exchange x", "d": "uncouple d",
                      "s": "sign s", "o": "reorder o", "e": "extra space e"}[step[0]]
    kinds.append(action)
    return kinds


def play_game(levels: tuple[str, ...], seed: int, pairing: str = "", index: int = 0,
              a_seat: int = 0, rules: str = CURRENT_RULES) -> GameResult:
    """Play one game with these levels by seat, in rules version ``rules``; bots see only
    their seat's view."""
    from express import yardstick
    from express.bot import choose

    n = len(levels)
    game = Game.new(n, seed, rules=rules)
    dice = random.Random(seed * 31 + 7)  # the random players' own dice
    cpu: dict[str, list[float]] = {lv: [] for lv in levels if lv != "random"}
    actions: Counter[str] = Counter()
    characters: Counter[str] = Counter()
    first = game.position.sm
    while not game.over:
        p = game.position
        seat = p.to_move()[0]
        who = levels[seat - 1]
        if who == "random":
            if p.phase == "p":
                token = "".join(dice.sample(CARDS, 3))
            else:
                options = legal(p)
                token = options[int(dice.random() * len(options))]
        else:
            start = time.process_time()
            if who == "mc":  # the yardstick (express.yardstick), from its view alone
                token = yardstick.choose(game.view(seat), seat, seed)
            elif who == "novice":
                token = yardstick.choose(game.view(seat), seat, seed,
                                         playouts=yardstick.NOVICE_PLAYOUTS)
            else:
                token = choose(game.view(seat), who, seed, seat)
            cpu[who].append(time.process_time() - start)
        if p.phase == "p":
            game.commit(seat, token)
            continue
        if p.phase == "a":
            actions.update(_turn_kinds(token))
        elif p.phase == "c":
            characters[token] += 1
        game.play(token)
    p = game.position
    result = p.result()
    fulfilled = sum(len(d) for d in p.done)
    return GameResult(pairing, n, index, levels, a_seat, result.winners, result.scores,
                      p.round, p.round == 30, first, actions, characters, fulfilled, cpu,
                      p.rules)


Task = tuple[str, int, int, int, str]  # (pairing or level, players, index, seed, rules)


def _pairing_task(task: Task) -> GameResult:
    pairing, players, index, seed, rules = task
    a, b = pairing.split("-")
    a_seat = index % players + 1
    levels = tuple(a if s == a_seat else b for s in range(1, players + 1))
    game_seed = (seed * 1_000_003 + index // players) % 2**64
    return play_game(levels, game_seed, pairing, index, a_seat, rules)


def _selfplay_task(task: Task) -> GameResult:
    level, players, index, seed, rules = task
    return play_game((level,) * players, (seed * 1_000_003 + index) % 2**64,
                     f"{level}-self", index, 0, rules)


def _run(fn, tasks: list[Task], jobs: int,  # type: ignore[no-untyped-def]
         progress: bool, save: str | None = None) -> list[GameResult]:
    """Play the tasks; with ``save``, append each result to that file as it comes."""
    results: list[GameResult] = []
    out = open(save, "a", encoding="utf-8") if save else None  # noqa: SIM115

    def done(r: GameResult) -> None:
        results.append(r)
        if progress:
            _progress(r)
        if out is not None:
            out.write(r.to_json() + "\n")
            out.flush()

    try:
        if jobs <= 1:
            for t in tasks:
                done(fn(t))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for r in pool.map(fn, tasks, chunksize=1):
                    done(r)
    finally:
        if out is not None:
            out.close()
    return results


def load(paths: Iterable[str]) -> list[GameResult]:
    """Results saved with ``--save`` (one JSON line per game); a path ending ``.gz`` is
    read through gzip (docs/data/express-balance-*.jsonl.gz)."""
    results = []
    for path in paths:
        try:
            opener = gzip.open if path.endswith(".gz") else open
            with opener(path, "rt", encoding="utf-8") as f:
                results += [GameResult.from_json(line) for line in f if line.strip()]
        except (OSError, ValueError, TypeError, KeyError) as e:
            raise ExpressError(f"cannot read saved results {path!r}: {e}") from None
    return results


def run(pairings: Iterable[str], players: int, games: int, seed: int = 1, jobs: int = 1,
        progress: bool = False, save: str | None = None,
        rules: str = CURRENT_RULES, first: int = 0) -> list[GameResult]:
    """Games ``first`` to ``games - 1`` of each pairing: a game's deal and seats depend on
    its index and the seed alone, so a stopped run saved with ``save`` goes on with
    ``first`` at the count it reached."""
    tasks = [(pr, players, i, seed, rules) for pr in pairings for i in range(first, games)]
    return _run(_pairing_task, tasks, jobs, progress, save)


def run_selfplay(level: str, players: int, games: int, seed: int = 1, jobs: int = 1,
                 progress: bool = False, save: str | None = None,
                 rules: str = CURRENT_RULES) -> list[GameResult]:
    tasks = [(level, players, i, seed, rules) for i in range(games)]
    return _run(_selfplay_task, tasks, jobs, progress, save)


def _progress(r: GameResult) -> None:
    print(f"# {r.pairing} {r.players} seats game {r.index}: levels {'/'.join(r.levels)}, "
          f"winners {list(r.winners)}, scores {list(r.scores)}, {r.rounds} rounds",
          flush=True)


def _cpu_table(results: list[GameResult]) -> list[str]:
    lines = ["| level | decisions | median CPU s | max CPU s |", "|---|---|---|---|"]
    for lv in PLAYERS[1:]:
        cs = [t for r in results for t in r.cpu.get(lv, [])]
        if cs:
            lines.append(f"| {lv} | {len(cs)} | {statistics.median(cs):.4f} | "
                         f"{max(cs):.3f} |")
    return lines


def report(results: list[GameResult]) -> str:
    lines = ["| pairing (A-B) | seats | games | A wins | A win rate | 95% CI (Wilson) "
             "| chance | shared wins |",
             "|---|---|---|---|---|---|---|---|"]
    keys: list[tuple[str, int]] = []
    for r in results:
        if (r.pairing, r.players) not in keys:
            keys.append((r.pairing, r.players))
    for pairing, n in keys:
        rs = [r for r in results if r.pairing == pairing and r.players == n]
        wins = sum(r.a_won for r in rs)
        shared = sum(r.a_won and len(r.winners) > 1 for r in rs)
        lo, hi = wilson(wins, len(rs))
        lines.append(f"| {pairing} | {n} | {len(rs)} | {wins} | {wins / len(rs):.1%} | "
                     f"{lo:.1%}–{hi:.1%} | {1 / n:.1%} | {shared} |")
    return "\n".join(lines + [""] + _cpu_table(results))


def _distribution(values: list[int]) -> str:
    c = Counter(values)
    return ", ".join(f"{k}: {c[k]}" for k in sorted(c))


def _margin(scores: tuple[int, ...]) -> int:
    top = sorted(scores)
    return top[-1] - top[-2]


def balance_report(results: list[GameResult]) -> str:
    """The self-play figures of docs/express-balance.md, for one seat count."""
    n = results[0].players
    g = len(results)
    rounds = [r.rounds for r in results]
    capped = sum(r.capped for r in results)
    versions = sorted({r.rules for r in results})
    lines = [f"games: {g}, seats: {n}, rules: {', '.join(versions)}",
             f"rounds per game: mean {statistics.mean(rounds):.2f}, median "
             f"{statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}",
             f"rounds distribution: {_distribution(rounds)}",
             f"games that reached round 30 (the cap): {capped} ({capped / g:.1%})"]
    lines.append("wins by turn-order position in round 1 (1 = first stationmaster), "
                 "shared wins counted for each winner:")
    for k in range(n):
        w = sum(any((s - r.first) % n == k for s in r.winners) for r in results)
        lo, hi = wilson(w, g)
        lines.append(f"  position {k + 1}: {w} ({w / g:.1%}, 95% CI {lo:.1%}–{hi:.1%})")
    lines.append("wins by turn-order position in the last round (1 = that round's "
                 "stationmaster, who picks first and plays first; no seat resigned in "
                 "self-play, so the card passed one seat a round):")
    for k in range(n):
        w = sum(any((s - r.first - (r.rounds - 1)) % n == k for s in r.winners)
                for r in results)
        lo, hi = wilson(w, g)
        lines.append(f"  position {k + 1}: {w} ({w / g:.1%}, 95% CI {lo:.1%}–{hi:.1%})")
    lines.append("wins by round-1 position, per game length:")
    for length in sorted({r.rounds for r in results}):
        rs = [r for r in results if r.rounds == length]
        wins = [sum(any((s - r.first) % n == k for s in r.winners) for r in rs)
                for k in range(n)]
        lines.append(f"  {length} rounds ({len(rs)} games): "
                     + ", ".join(f"{w} ({w / len(rs):.1%})" for w in wins))
    lines.append("wins by seat number:")
    for s in range(1, n + 1):
        w = sum(s in r.winners for r in results)
        lines.append(f"  seat {s}: {w} ({w / g:.1%})")
    scores = [x for r in results for x in r.scores]
    win_scores = [max(r.scores) for r in results]
    q = statistics.quantiles(scores, n=10)
    lines.append(f"scores (all seats): mean {statistics.mean(scores):.1f}, sd "
                 f"{statistics.pstdev(scores):.1f}, min {min(scores)}, deciles "
                 f"{', '.join(f'{x:.0f}' for x in q)}, max {max(scores)}")
    lines.append(f"winning score: mean {statistics.mean(win_scores):.1f}, median "
                 f"{statistics.median(win_scores)}; margin winner - second: mean "
                 f"{statistics.mean(_margin(r.scores) for r in results):.1f}")
    actions: Counter[str] = Counter()
    chars: Counter[str] = Counter()
    for r in results:
        actions.update(r.actions)
        chars.update(r.characters)
    turns = 3 * n * sum(rounds)
    lines.append(f"turns: {turns}; per action (share of turns):")
    for name, v in sorted(actions.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {name}: {v} ({v / turns:.1%})")
    picks = sum(chars.values())
    lines.append(f"character picks: {picks}")
    for name, v in sorted(chars.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {name}: {v} ({v / picks:.1%} of picks, in {v / sum(rounds):.1%} "
                     f"of rounds)")
    fulfilled = [r.fulfilled for r in results]
    lines.append(f"contracts fulfilled per game (all seats): mean {statistics.mean(fulfilled):.2f},"
                 f" distribution {_distribution(fulfilled)}")
    return "\n".join(lines + [""] + _cpu_table(results))


def check_pairing(text: str) -> str:
    parts = text.split("-")
    if len(parts) != 2 or any(x not in PLAYERS for x in parts):
        raise ExpressError(f"bad pairing {text!r}: write A-B with A, B in {', '.join(PLAYERS)}")
    return text


def check_rules(text: str) -> str:
    if text not in RULES_VERSIONS:
        raise ExpressError(f"bad --rules {text!r}: x0.2 or x0.1")
    return text
