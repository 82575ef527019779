"""Text as people see it: the one normalisation of what members type that others read
(usernames, accounts/usernames.py; chat messages, chat/services.py). Issue #28, point 7 and
issue #42, point 6.

`visible(text)`:

- **NFKC**: compatibility forms become the plain characters they stand for (fullwidth
  `ａｌｉｃｅ` and mathematical `𝐚𝐥𝐢𝐜𝐞` are `alice`, `ﬁ` is `fi`, `²` is `2`), and a letter
  followed by its combining accent is composed into the accented letter (`e` + U+0301 is
  `é`): accented letters are kept, in one code point each.
- **Invisible format characters are dropped** (Unicode category Cf: zero-width space
  U+200B, word joiner U+2060, the byte-order mark U+FEFF, the soft hyphen U+00AD, the
  direction marks and overrides U+200E/F, U+202A–E, U+2066–9, ...), and the Hangul fillers
  (letters that draw nothing). They let `ali\u200bce` pass for `alice` and reverse what
  follows. Kept where a script or an emoji needs them: the zero-width joiner between two
  pictographs (`👩‍💻`), the zero-width non-joiner between two letters of a script that uses
  it (Persian, the Indic scripts: not Latin, Greek or Cyrillic), and the tag characters
  after a pictograph (the flags of England, Scotland and Wales).
- **At most `MAX_MARKS` combining marks on one character** (categories Mn and Me, after
  NFKC has composed what composes): written languages stack at most three (Hebrew's points
  and cantillation, Thai's vowel and tone, an emoji's variation selector and keycap);
  "Zalgo" text stacks dozens so that it runs over the lines around it. The marks past the
  third are dropped. Spacing marks (Mc, the Indic vowel signs) are letters' parts and are
  never counted.
"""

from __future__ import annotations

import unicodedata

ZWJ, ZWNJ = "\u200d", "\u200c"
MAX_MARKS = 3
HANGUL_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")
TAGS = range(0xE0020, 0xE0080)  # the emoji tag sequences' letters and their CANCEL TAG
NON_JOINING_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")  # no use for U+200C between letters


def _pictograph(char: str) -> bool:
    return unicodedata.category(char) == "So" or char == "\ufe0f" or \
        "\U0001f3fb" <= char <= "\U0001f3ff"  # VS16 and the skin tones end a pictograph


def _joining_letter(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM" and ord(char) > 0x7F and \
        not unicodedata.name(char, "").startswith(NON_JOINING_SCRIPTS)


def _kept_format(text: str, i: int) -> bool:
    """Whether the format character at `text[i]` does something there."""
    char = text[i]
    before = text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if char == ZWJ:
        return bool(before and after) and _pictograph(before) and _pictograph(after)
    if char == ZWNJ:
        return bool(before and after) and _joining_letter(before) and _joining_letter(after)
    if ord(char) in TAGS:
        return bool(before) and (_pictograph(before) or ord(before) in TAGS)
    return False


def visible(text: str) -> str:
    """`text` in NFKC without invisible characters or stacks of marks (module docstring)."""
    text = unicodedata.normalize("NFKC", text)
    kept: list[str] = []
    marks = 0
    for i, char in enumerate(text):
        category = unicodedata.category(char)
        if category == "Cf" and not _kept_format(text, i) or char in HANGUL_FILLERS:
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(char)
    return "".join(kept)
