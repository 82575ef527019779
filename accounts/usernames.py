"""Usernames that cannot pass for someone else's.

A username is stored in Unicode NFKC form (fullwidth `ａｌｉｃｅ` becomes `alice`) and is
unique without regard to case. Its *skeleton* is what it looks like: NFKC, case-folded,
then every character replaced by the ASCII letter or digit it can be mistaken for
(Cyrillic `а` for `a`, `１` for `1`), and digits by the letter they resemble (`0` → `o`,
`1` → `l`). The look-alike table is the Unicode confusables data as shipped by the
maintained `confusable-homoglyphs` package, not a table of our own. A new name whose
skeleton is an existing name's skeleton is refused.
"""

from __future__ import annotations

import string
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

PLAIN = set(string.ascii_lowercase + string.digits)


def normalise(username: str) -> str:
    """The form a username is stored in."""
    return unicodedata.normalize("NFKC", username).strip()


@cache
def _look_alike(char: str) -> str:
    """The plain ASCII letter or digit `char` can be mistaken for (itself if none)."""
    if char in PLAIN and not char.isdigit():
        return char
    lower: list[str] = []  # look-alikes that are lowercase letters as they stand first
    other: list[str] = []
    for entry in confusables_data.get(char, []) + confusables_data.get(char.upper(), []):
        alike = entry["c"].strip("\u200e\u200f")
        if len(alike) == 1 and alike.casefold() in PLAIN:
            (lower if alike in PLAIN else other).append(alike.casefold())
    for group in (lower, other):
        letters = sorted(c for c in group if not c.isdigit())
        if letters:
            return letters[0]
    if char in PLAIN:
        return char
    digits = sorted(lower + other)
    return digits[0] if digits else char


def skeleton(username: str) -> str:
    """What the name looks like, for comparing names (see the module's docstring)."""
    folded = normalise(username).casefold()
    return "".join(_look_alike(char) for char in unicodedata.normalize("NFKC", folded))


def look_alike_taken(username: str, existing: list[str]) -> str | None:
    """The first of `existing` that `username` could pass for, or None."""
    mine = skeleton(username)
    return next((name for name in existing if skeleton(name) == mine), None)
