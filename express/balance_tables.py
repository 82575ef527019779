"""Side-by-side Markdown tables of two rules versions' Hard self-play, for
docs/express-balance.md: ``python3 -m express.balance_tables A.jsonl.gz B.jsonl.gz``.

Every figure is the same count ``python -m express balance --load FILE`` prints (the
report's own functions and definitions), laid out by version and seat count.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter

from express.tournament import GameResult, load, wilson

CHARS = ("En", "Dr", "Ma", "Lo", "Me")
ACTIONS = ("uncouple d", "attach a", "sign s", "upgrade u", "none", "extra space e",
           "exchange x", "reorder o", "lost", "special attach ^", "driver step *", "fulfil f")


def groups(paths: list[str]) -> dict[tuple[str, int], list[GameResult]]:
    out: dict[tuple[str, int], list[GameResult]] = {}
    for r in load(paths):
        out.setdefault((r.rules, r.players), []).append(r)
    return dict(sorted(out.items()))


def pct(w: int, g: int) -> str:
    lo, hi = wilson(w, g)
    return f"{w} ({w / g:.1%}, CI {lo:.1%}–{hi:.1%})"


def main(paths: list[str]) -> None:
    gs = groups(paths)
    keys = list(gs)
    print("| version, seats | games | mean rounds | median | min–max | round 30 reached |")
    print("|---|---|---|---|---|---|")
    for (v, n), rs in gs.items():
        rounds = [r.rounds for r in rs]
        capped = sum(r.capped for r in rs)
        print(f"| {v}, {n} | {len(rs)} | {statistics.mean(rounds):.2f} | "
              f"{statistics.median(rounds)} | {min(rounds)}–{max(rounds)} | "
              f"{capped} ({capped / len(rs):.1%}) |")
    print()
    print("Rounds distribution:")
    for (v, n), rs in gs.items():
        c = Counter(r.rounds for r in rs)
        print(f"- {v}, {n} seats: " + ", ".join(f"{k}: {c[k]}" for k in sorted(c)))
    for title, shift in (("round 1", False), ("the last round", True)):
        print()
        print(f"Wins by turn-order position in {title} (shared wins count for each winner):")
        print()
        print("| version, seats | position 1 | position 2 | position 3 | position 4 |")
        print("|---|---|---|---|---|")
        for (v, n), rs in gs.items():
            cells = []
            for k in range(n):
                w = sum(any((s - r.first - (r.rounds - 1 if shift else 0)) % n == k
                            for s in r.winners) for r in rs)
                cells.append(pct(w, len(rs)))
            print(f"| {v}, {n} | " + " | ".join(cells + [""] * (4 - n)) + " |")
    print()
    print("Wins by round-1 position per game length (lengths with at least 20 games):")
    for (v, n), rs in gs.items():
        for length in sorted({r.rounds for r in rs}):
            sub = [r for r in rs if r.rounds == length]
            if len(sub) < 20:
                continue
            wins = [sum(any((s - r.first) % n == k for s in r.winners) for r in sub)
                    for k in range(n)]
            print(f"- {v}, {n} seats, {length} rounds ({len(sub)} games): "
                  + ", ".join(f"{w} ({w / len(sub):.1%})" for w in wins))
    print()
    print("Characters: share of picks (in % of rounds)")
    print()
    print("| character | " + " | ".join(f"{v}, {n}" for v, n in keys) + " |")
    print("|---|" + "---|" * len(keys))
    for ch in CHARS:
        cells = []
        for rs in gs.values():
            picks = sum(sum(r.characters.values()) for r in rs)
            played = sum(r.rounds for r in rs)
            taken = sum(r.characters[ch] for r in rs)
            cells.append(f"{taken / picks:.1%} ({taken / played:.1%})")
        print(f"| {ch} | " + " | ".join(cells) + " |")
    print()
    print("Actions: share of turns")
    print()
    print("| action | " + " | ".join(f"{v}, {n}" for v, n in keys) + " |")
    print("|---|" + "---|" * len(keys))
    totals = [3 * n * sum(r.rounds for r in rs) for (v, n), rs in gs.items()]
    print("| turns | " + " | ".join(f"{t:,}" for t in totals) + " |")
    for a in ACTIONS:
        cells = []
        for rs, t in zip(gs.values(), totals, strict=True):
            done = sum(r.actions[a] for r in rs)
            cells.append(f"{done / t:.1%}")
        print(f"| {a} | " + " | ".join(cells) + " |")
    print()
    print("| scores | " + " | ".join(f"{v}, {n}" for v, n in keys) + " |")
    print("|---|" + "---|" * len(keys))
    rows: dict[str, list[str]] = {"mean (all seats)": [], "winner's mean": [], "mean margin": [],
            "contracts fulfilled / game": [], "Hard CPU s/decision median": [],
            "Hard CPU s/decision max": []}
    for rs in gs.values():
        sc = [x for r in rs for x in r.scores]
        rows["mean (all seats)"].append(f"{statistics.mean(sc):.1f}")
        rows["winner's mean"].append(f"{statistics.mean(max(r.scores) for r in rs):.1f}")
        rows["mean margin"].append(
            f"{statistics.mean(sorted(r.scores)[-1] - sorted(r.scores)[-2] for r in rs):.1f}")
        rows["contracts fulfilled / game"].append(f"{statistics.mean(r.fulfilled for r in rs):.2f}")
        cpu = [t for r in rs for t in r.cpu.get("hard", [])]
        rows["Hard CPU s/decision median"].append(f"{statistics.median(cpu):.4f}")
        rows["Hard CPU s/decision max"].append(f"{max(cpu):.3f}")
    for name, cells in rows.items():
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
