"""Cargo Connect's bays drawn for a page from their rows of text (`engine.describe.rows`,
a position's rows top first: "." open, "B"/"O" a Blue/Orange core, "x" an Empty Can): the
cells' names, kinds and labels, the marked cells and the MagLocked corridor, for
templates/games/_mini_bay.html. Used by How to play, the home page's demo bay and the
attempt reviews' boards; it reads no engine."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

KINDS = {".": "open", "B": "blue", "O": "orange", "x": "empty"}
KIND_LABELS = {"open": "open", "blue": "Blue core", "orange": "Orange core", "empty": "Empty Can"}


def board(bay_rows: list[str], marked: Collection[str] = frozenset(), lock: str | None = None,
          label: str = "") -> dict[str, Any]:
    """A bay for the template: rows of cells (kind, name, marked, locked), top row first."""
    n = len(bay_rows)
    out = []
    for r, line in enumerate(bay_rows):
        row_digit = str(n - r)
        cells = []
        for c, char in enumerate(line):
            name = "abcdefgh"[c] + row_digit
            kind = KINDS[char]
            cells.append({
                "name": name,
                "kind": kind,
                "label": f"{name}: {KIND_LABELS[kind]}",
                "marked": name in marked,
                "locked": lock is not None and lock in (name[0], name[1]),
            })
        out.append(cells)
    return {"rows": out, "size": n, "label": label}
