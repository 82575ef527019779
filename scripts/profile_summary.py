"""Summarise a py-spy raw profile (`py-spy record -f raw`): samples per function, inclusive
(each function counted once a sample however deep it recurs) and self, with the samples of
threads waiting (a leaf in psycopg's `Connection.wait`, select, poll, epoll or a threading
wait) left out. docs/api.md, "Where a decision's CPU goes", made its tables with it.

    .venv/bin/python scripts/profile_summary.py FILE [--top 60] [--grep api/]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

WAITING = ("Connection.wait (", "select (", "poll (", "epoll", "wait (threading.py")
LINE = re.compile(r":\d+\)")


def summary(text: str) -> tuple[Counter[str], Counter[str], int, int]:
    """Inclusive and self samples per function, the busy samples and the waiting ones."""
    inclusive: Counter[str] = Counter()
    itself: Counter[str] = Counter()
    busy = waiting = 0
    for row in text.splitlines():
        stack, _, count = row.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [LINE.sub(")", frame) for frame in stack.split(";")]
        if any(mark in frames[-1] for mark in WAITING):
            waiting += int(count)
            continue
        busy += int(count)
        for frame in set(frames):
            inclusive[frame] += int(count)
        itself[frames[-1]] += int(count)
    return inclusive, itself, busy, waiting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=60)
    parser.add_argument("--grep", default="", help="only functions whose line has this")
    args = parser.parse_args()
    inclusive, itself, busy, waiting = summary(args.file.read_text())
    print(f"busy samples {busy} (waiting left out: {waiting})")
    for title, counts in (("inclusive", inclusive), ("self", itself)):
        print(f"--- {title}")
        shown = [(name, n) for name, n in counts.most_common() if args.grep in name]
        for name, n in shown[:args.top]:
            print(f"{n:6d} {100 * n / max(busy, 1):5.1f}%  {name}")


if __name__ == "__main__":
    main()
