"""What members type that others read, normalised once (common/text.py; issue #42,
point 6): chat messages as usernames, NFKC, without zero-width or direction characters or
stacks of combining marks, with accented letters and the scripts and emoji that need a
joiner or several marks kept."""

import pytest

from accounts.usernames import normalise
from chat.services import clean
from common.text import visible


@pytest.mark.parametrize("typed, seen", [
    ("ali\u200bce", "alice"),  # zero-width space
    ("ali\u200dce", "alice"),  # a joiner between letters joins nothing
    ("ali\u200cce", "alice"),  # nor a non-joiner between Latin letters
    ("\ufeffalice\u2060", "alice"),  # byte-order mark, word joiner
    ("al\u00adice", "alice"),  # soft hyphen
    ("alice\u202e", "alice"),  # a direction override
    ("\u200ealice\u200f", "alice"),  # direction marks
    ("ａｌｉｃｅ", "alice"),  # fullwidth
    ("\U0001d41a\U0001d425\U0001d422\U0001d41c\U0001d41e", "alice"),  # mathematical bold
    ("\u3164alice", "alice"),  # a Hangul filler draws nothing
])
def test_look_alike_text_becomes_what_it_looks_like(typed, seen):
    assert visible(typed) == seen
    assert clean(f"hi {typed}") == f"hi {seen}"


@pytest.mark.parametrize("text", [
    "café", "naïve", "Đặng Thị Ngọc", "Ελληνικά", "Русский", "ที่นี่",  # Thai: vowel + tone
    "नमस्ते", "क़्या",  # Devanagari: spacing vowel signs, nukta and virama
    "می\u200cخواهم",  # Persian needs its non-joiner
    "👩\u200d💻", "👨\u200d👩\u200d👧", "👍🏽", "1\ufe0f\u20e3",  # joined emoji, skin tone, keycap
    "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
    "שָׁלוֹם",  # Hebrew points
])
def test_legitimate_text_is_kept(text):
    assert visible(text) == text
    assert clean(text) == text


def test_accents_typed_as_combining_marks_are_composed():
    assert visible("cafe\u0301") == "café" and len(visible("cafe\u0301")) == 4
    assert clean("Nguye\u0302\u0303n") == "Nguyễn"


def test_stacks_of_marks_keep_three():
    zalgo = "h" + "\u0335\u0336\u0337\u0338\u0339\u033a\u033b" * 5 + "i"
    assert visible(zalgo) == "h\u0335\u0336\u0337i"
    assert clean(zalgo) == "h\u0335\u0336\u0337i"


def test_usernames_use_the_same_normalisation():
    assert normalise(" ali\u200bce ") == "alice"
    assert normalise("ａｌｉｃｅ") == "alice"
    assert normalise("José") == "José"
