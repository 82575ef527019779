"""A variant of Cargo Express Hard against Hard: for tuning its budget and weights.

    nice -n 19 .venv/bin/python -m express.hard_variant hrel6 rel=0.6 -- 20 2 2

registers a copy of ``express.levels.HARD`` with the given fields changed under the name
(letters and digits, no ``-``), then plays ``GAMES SEED SEATS [OPPONENT [RULES]]`` of the
pairing NAME-OPPONENT (default ``hard``; ``mc`` is the yardstick) under RULES (default
x0.1) in this one process (seats rotated, as ``python -m express tournament``), printing
each game and the tournament report, and saving the games to
``/tmp/express-variant-NAME-OPPONENT-SEATS-RULES.jsonl`` (``python -m express tournament
--load``). The variant is not a level: it exists only in this process.
"""

from __future__ import annotations

import dataclasses
import sys

from express import levels, tournament


def variant(name: str, changes: list[str]) -> levels.Level:
    """A copy of HARD named ``name`` with ``field=value`` changes (bools as 0/1)."""
    fields: dict[str, object] = {}
    for change in changes:
        key, value = change.split("=")
        current = getattr(levels.HARD, key)
        fields[key] = value == "1" if isinstance(current, bool) else type(current)(float(value))
    return dataclasses.replace(levels.HARD, name=name, **fields)  # type: ignore[arg-type]


def main(argv: list[str]) -> None:
    if "--" not in argv[1:] or not 4 <= len(argv) - argv.index("--") <= 6:
        raise SystemExit("usage: python -m express.hard_variant NAME FIELD=VALUE ... -- "
                         "GAMES SEED SEATS [OPPONENT [RULES]]")
    name, rest = argv[0], argv[1:]
    cut = rest.index("--")
    games, seed, seats = (int(x) for x in rest[cut + 1:cut + 4])
    opponent, rules = (rest[cut + 4:] + ["hard", "x0.1"][len(rest) - cut - 4:])[:2]
    level = variant(name, rest[:cut])
    levels.BY_NAME[name] = level
    tournament.PLAYERS = (*tournament.PLAYERS, name)  # type: ignore[assignment]  # here only
    print("#", level, flush=True)
    results = tournament.run([f"{name}-{opponent}"], seats, games, seed, 1, progress=True,
                             save=f"/tmp/express-variant-{name}-{opponent}-{seats}-{rules}"
                                  ".jsonl", rules=rules)
    print(tournament.report(results))


if __name__ == "__main__":
    main(sys.argv[1:])
