"""Properties over random games (hypothesis): invariants, replay, legal lists and checking."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from express import ExpressError, Game, format_position, parse_position
from express.legal_decisions import legal, legal_turns
from express.movement import movements, walk_path
from express.moves import play
from express.rules import CARD_STEPS, COLOURS
from express.unchecked import play_unchecked
from tests.express.support import random_game

SEEDS = st.integers(0, 2**32)

#: Action steps to try on top of every legal head, legal or not.
EXTRA = [".u", ".x", ".s0", ".s1", ".s2", ".a1", ".a12", ".a123", ".a2", ".a21", ".a3",
         ".d1", ".d2", ".d12", ".d3", ".d23", ".d4", ".d13", ".e<", ".e>", ".et", "",
         ".f01", ".f13", ".f16"]


def cars_ok(g: Game) -> bool:
    p = g.position
    every = p.shown_cars() + p.bag
    return len(every) == 45 and all(every.count(c) == 9 for c in COLOURS)


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_there_are_always_45_cars_9_of_each_colour(seed: int) -> None:
    rng = random.Random(seed)
    g = Game.new(rng.choice((2, 3, 4)), rng.getrandbits(64))
    while not g.over:
        assert cars_ok(g)
        p = g.position
        if p.phase == "p":
            g.commit(p.to_move()[0], "".join(rng.sample(["A1", "A2", "A3", "B3"], 3)))
        else:
            g.play(rng.choice(g.legal()))
    assert cars_ok(g)


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_replaying_the_record_gives_the_position_played(seed: int) -> None:
    rng = random.Random(seed)
    g = random_game(rng, resign=0.004, stop=0.002)
    again = Game.from_record(g.record())
    assert again.position == g.position
    assert again.summary() == g.summary()
    text = format_position(g.position)
    assert format_position(parse_position(text)) == text


@settings(max_examples=15, deadline=None)
@given(SEEDS)
def test_exactly_the_legal_tokens_are_accepted(seed: int) -> None:
    """Every legal token plays; tokens built from legal heads and other steps play only if
    legal; every written path, canonical or not, plays like its canonical form."""
    rng = random.Random(seed)
    g = random_game(rng, stop=0.01)
    for _ in range(12):
        p = g.position
        if p.phase != "a":
            break
        options = legal(p)
        if ":~" in options[0]:
            g.play(options[0])
            continue
        heads, tails = set(), set(EXTRA)
        for t in options:
            parts = t.split(".")
            cut = 2 if parts[0].endswith("^") else 1
            heads.add(".".join(parts[:cut]))
            tails.add("".join("." + x for x in parts[cut:]))
        candidates = [h + t for h in heads for t in tails]
        for c in rng.sample(candidates, min(150, len(candidates))):
            q = p.copy()
            try:
                play(q, c)
                accepted = True
            except ExpressError:
                accepted = False
            assert accepted == (c in options), c
        seat = p.turn_seat()
        card = p.plans[seat - 1][0]
        canon = {(end, d): path for end, path, d in movements(p, seat, card)}
        lengths = list(CARD_STEPS[card])
        if p.driver_ready(seat):
            lengths += [k + 1 for k in CARD_STEPS[card]]
        for k in lengths:
            for chars in itertools.product("<>t", repeat=k):
                path = "".join(chars)
                walked = walk_path(p, seat, path)
                if isinstance(walked, str):
                    continue
                driver = k not in CARD_STEPS[card]
                best = canon[(walked[0], driver)]
                token = f"{card}:{path}{'*' if driver else ''}"
                a, b = p.copy(), p.copy()
                play(a, token)
                play(b, f"{card}:{best}")
                assert a == b and best.rstrip("*") <= path
        g.play(rng.choice(options))


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_a_refused_decision_changes_nothing(seed: int) -> None:
    rng = random.Random(seed)
    g = random_game(rng, stop=0.01)
    if g.over:
        return
    for bad in ("Xx", "A1:~", "-:~", "R99", "A1A1A1", "resign9", "A1:>>>>>>>>"):
        if g.over:
            break
        before = format_position(g.position)
        try:
            g.play(bad, seat=1)
        except ExpressError:
            assert format_position(g.position) == before
        else:
            assert bad in ("A1:~", "-:~") or g.position.phase == "p"  # it happened to be legal


def _blind(token: str) -> bool:
    """A turn whose legality hangs on nothing a view hides: no reorder, no sign but s1,
    no fulfil after the sign."""
    if ".o" in token or ".s2" in token or ".s0" in token:
        return False
    j = token.find(".s")
    return j < 0 or ".f" not in token[j:]


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_play_unchecked_reaches_the_position_play_reaches(seed: int) -> None:
    """The bots' unchecked replay of a legal turn: every listed turn, whole random games
    (dormant seats and lost turns included), the same position as the checked play; and
    the bots' blind list is the full one without the turns that hang on hidden parts."""
    rng = random.Random(seed)
    g = random_game(rng, resign=0.004, stop=0.004)
    while not g.over:
        p = g.position
        if p.phase == "a":
            options = legal(p)
            for t in options:
                a, b = p.copy(), p.copy()
                play(a, t)
                play_unchecked(b, t)
                assert a == b, (format_position(p), t)
            assert legal_turns(p, blind=True) == [t for t in options if _blind(t)]
            g.play(rng.choice(options))
        elif p.phase == "p":
            seat = p.to_move()[0]
            g.commit(seat, "".join(rng.sample(["A1", "A2", "A3", "B3", "B4", "D"], 3)))
        else:
            g.play(rng.choice(g.legal()))
