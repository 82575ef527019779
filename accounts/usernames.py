"""Usernames that cannot pass for someone else's.

A username is stored in Unicode NFKC form (fullwidth `ａｌｉｃｅ` becomes `alice`), without
invisible characters or stacks of combining marks (`common.text.visible`, the same as
the chat's), and is unique without regard to case. Its *skeleton* is what it looks like:
NFKC, case-folded, then every character replaced by the ASCII letter or digit it can be
mistaken for (Cyrillic `а` for `a`, `１` for `1`), and digits by the letter they resemble
(`0` → `o`, `1` → `l`), mapped before case folding as well as after (a capital `I` looks like `l`);
letters that a sequence passes for are written as the sequence (`m` as `rn`, `w` as `vv`,
`d` as `cl`: `SEQUENCES`). The look-alike table is the Unicode confusables data as shipped
by the maintained `confusable-homoglyphs` package; only the sequences `vv` and `cl`, which
it lacks, are the site's own. A new name whose skeleton is an existing name's skeleton is
refused (issue #28, point 7).
"""

from __future__ import annotations

import string
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

from common.text import visible

PLAIN = set(string.ascii_lowercase + string.digits)


def normalise(username: str) -> str:
    """The form a username is stored in."""
    return visible(username).strip()


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


# Sequences of plain letters that pass for one letter, compared as the sequence. Unicode's
# confusables data has `m` → `rn` (its prototype); `w` → `vv` and `d` → `cl` are not in it
# (as confusable-homoglyphs 3.3.1 ships it) and are the site's own, for the same reason.
SEQUENCES = (("m", "rn"), ("w", "vv"), ("d", "cl"))


def _mapped(text: str) -> str:
    return "".join(_look_alike(char) for char in text)


def skeleton(username: str) -> str:
    """What the name looks like, for comparing names (see the module's docstring): each
    character is mapped to its look-alike *before* case folding (so a capital `I` is the
    `l` it looks like, not the `i` it folds to), then folded and mapped again, then every
    letter that a sequence passes for is written as that sequence (`m` as `rn`)."""
    text = _mapped(normalise(username))
    text = _mapped(unicodedata.normalize("NFKC", text.casefold()))
    for letter, sequence in SEQUENCES:
        text = text.replace(letter, sequence)
    return text


def look_alike_taken(username: str, existing: list[str]) -> str | None:
    """The first of `existing` that `username` could pass for, or None."""
    mine = skeleton(username)
    return next((name for name in existing if skeleton(name) == mine), None)
