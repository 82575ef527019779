"""Hard's search of issue #31: round look-ahead, plans and characters by simulated rounds.

Deterministic across processes, a function of the seat's view alone, its work counted in
determinizations and shortlist places (never in seconds); Easy and Medium untouched.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import pytest

from express import Game, format_position
from express.bot import Bot, bot_seed, choose
from express.determinize import determinize
from express.levels import HARD, HARD1, LEVELS
from express.notation import parse_position
from express.tournament import check_pairing
from tests.express.support import REPO, run_cli


def _hard_game_views(seats: int, seed: int, decisions: int) -> list[tuple[str, int]]:
    """The views met in a game played by Hard1 (fast), one per decision, with the seat."""
    game = Game.new(seats, seed)
    views = []
    while not game.over and len(views) < decisions:
        seat = game.to_move()[0]
        views.append((game.view(seat), seat))
        token = choose(views[-1][0], "hard1", 1, seat)
        if game.position.phase == "p":
            game.commit(seat, token)
        else:
            game.play(token)
    return views


def _by_phase(views: list[tuple[str, int]]) -> dict[str, tuple[str, int]]:
    """A late view of each phase (pick, plan, turn): the round look-ahead's positions."""
    found: dict[str, tuple[str, int]] = {}
    for view, seat in views:
        found[parse_position(view).phase] = (view, seat)
    return found


def test_hard1_is_a_tournament_player_not_a_level_and_hard_uses_the_new_search() -> None:
    assert LEVELS == ("easy", "medium", "hard")
    assert check_pairing("hard-hard1") == "hard-hard1"
    out = run_cli(["bot", "--level", "hard1", "--seed", "1", "--seat", "2"], b"")
    assert out.returncode == 2 and "bad level" in json.loads(out.stdout)["error"]
    assert HARD.round_ahead and HARD.plan_dets and HARD.pick_dets
    assert not (HARD1.round_ahead or HARD1.plan_dets or HARD1.pick_dets)


_CHILD = """
import json, sys
from express.bot import choose
cases = json.load(sys.stdin)
print(json.dumps([choose(v, "hard", 7, s) for v, s in cases]))
"""


def test_hard_is_deterministic_across_processes_and_hash_seeds() -> None:
    """A pick, a plan and a mid-round turn of a 3-seat game, under four hash seeds."""
    cases = list(_by_phase(_hard_game_views(3, 31, 40)).values())
    assert len(cases) >= 3
    outs = set()
    for hash_seed in ("0", "1", "4242", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", _CHILD], cwd=REPO, env=env,
                             input=json.dumps(cases).encode(), capture_output=True,
                             timeout=300)
        assert out.returncode == 0, out.stderr
        outs.add(out.stdout)
    assert len(outs) == 1
    assert json.loads(outs.pop()) == [choose(v, "hard", 7, s) for v, s in cases]


@pytest.mark.parametrize("phase", ["c", "p", "a"])
def test_hard_decides_from_the_view_alone(phase: str) -> None:
    """Two different full positions behind one view give the decision the view gives."""
    rng = random.Random(5)
    view, seat = _by_phase(_hard_game_views(2, 77, 30))[phase]
    a = determinize(view, random.Random(rng.getrandbits(64)))
    b = determinize(view, random.Random(rng.getrandbits(64)))
    assert format_position(a) != format_position(b)
    assert format_position(a, seat) == format_position(b, seat) == view
    assert choose(format_position(a, seat), "hard", 3, seat) == \
        choose(format_position(b, seat), "hard", 3, seat) == choose(view, "hard", 3, seat)


def test_hard_spends_counts_not_seconds(monkeypatch) -> None:
    """The plan search simulates exactly plan_top × plan_dets rounds, and a clock that
    jumps by an hour at every reading changes no decision."""
    views = _by_phase(_hard_game_views(2, 12, 30))
    kept = {ph: choose(v, "hard", 2, s) for ph, (v, s) in views.items()}

    rounds = []
    original = Bot.play_round

    def counted(self, r):  # type: ignore[no-untyped-def]
        rounds.append(1)
        return original(self, r)

    monkeypatch.setattr(Bot, "play_round", counted)
    view, seat = views["p"]
    rng = random.Random(bot_seed(2, "hard", seat, view))
    assert Bot(HARD, parse_position(view), seat, rng).decide() == kept["p"]
    assert len(rounds) == HARD.plan_top * HARD.plan_dets

    clock = iter(range(0, 10**9, 3600))
    for name in ("time", "monotonic", "perf_counter", "process_time"):
        monkeypatch.setattr(time, name, lambda: float(next(clock)))
    assert {ph: choose(v, "hard", 2, s) for ph, (v, s) in views.items()} == kept


def test_halving_looks_longest_at_the_best_and_drops_the_weak_early(monkeypatch) -> None:
    """Bot.halve: stages of equal sample counts, the better half going on; the candidate
    left is the best by its sum over every sample, and weak ones stop after one stage."""
    import dataclasses

    level = dataclasses.replace(HARD, halving=True)
    view, seat = _by_phase(_hard_game_views(2, 12, 30))["a"]
    b = Bot(level, parse_position(view), seat, random.Random(1))
    worth = [0.1, 0.9, 0.5, 0.7, 0.3, 0.8, 0.2, 0.6, 0.4, 0.0]  # by candidate
    looked: list[int] = []

    def fake(self, top, which, samples):  # type: ignore[no-untyped-def]
        looked.extend(j for j in which for _ in samples)
        return [worth[j] * len(samples) if j in which else 0.0 for j in range(len(top))]

    monkeypatch.setattr(Bot, "look_totals", fake)
    top = [f"t{j}" for j in range(10)]
    samples = [b.view] * 64
    assert b.halve(top, samples) == 1
    # 4 stages of 16 samples: 10, 5, 3 and 2 candidates
    assert len(looked) == 16 * (10 + 5 + 3) + 16 * 2
    assert looked.count(1) == 64 and looked.count(0) == 16 and looked.count(9) == 16


def test_hard_with_halving_is_a_function_of_the_view() -> None:
    import dataclasses

    from express.legal_decisions import legal_turns

    level = dataclasses.replace(HARD, name="hhalf", halving=True)
    view, seat = _by_phase(_hard_game_views(2, 77, 30))["a"]
    first = Bot(level, parse_position(view), seat,
                random.Random(bot_seed(3, "hhalf", seat, view))).decide()
    again = Bot(level, parse_position(view), seat,
                random.Random(bot_seed(3, "hhalf", seat, view))).decide()
    assert first == again and first in legal_turns(determinize(view, random.Random(1)),
                                                   blind=True)


def test_a_turn_looks_ahead_at_most_turn_sims_rounds(monkeypatch) -> None:
    """Many candidates get fewer determinizations (the worst case of the decision time):
    the rounds simulated for a turn are the candidates × ``turn_dets``, never more than
    ``turn_sims`` unless 8 a candidate already are."""
    views = [(v, s) for v, s in _hard_game_views(2, 12, 60)
             if parse_position(v).phase == "a"]
    rounds: list[int] = []
    asked: list[int] = []
    play_round, turn_dets = Bot.play_round, Bot.turn_dets

    def counted(self, r):  # type: ignore[no-untyped-def]
        rounds.append(1)
        return play_round(self, r)

    def noted(self, candidates):  # type: ignore[no-untyped-def]
        asked.append(candidates)
        return turn_dets(self, candidates)

    monkeypatch.setattr(Bot, "play_round", counted)
    monkeypatch.setattr(Bot, "turn_dets", noted)
    looked = 0
    import dataclasses

    level = dataclasses.replace(HARD, turn_work=0)  # that cap: the next test
    for view, seat in views:
        rounds.clear()
        asked.clear()
        b = Bot(level, parse_position(view), seat,
                random.Random(bot_seed(1, "hard", seat, view)))
        b.decide()
        if asked:
            looked += 1
            cands = asked[0]
            assert len(rounds) == cands * turn_dets(b, cands)
            assert len(rounds) <= max(HARD.turn_sims, 8 * cands)
    assert looked >= 5
    b = Bot(HARD, parse_position(views[0][0]), views[0][1], random.Random(1))
    assert turn_dets(b, 5) == HARD.dets and turn_dets(b, 40) == HARD.turn_sims // 40
    assert turn_dets(b, 200) == 8


def _rounds_and_decision(monkeypatch, view: str, seat: int):  # type: ignore[no-untyped-def]
    """A function of a level: the simulated rounds (``Bot.play_round`` calls) its decision
    on ``view`` took, and the decision."""
    rounds: list[int] = []
    play_round = Bot.play_round

    def counted(self, r):  # type: ignore[no-untyped-def]
        rounds.append(1)
        return play_round(self, r)

    monkeypatch.setattr(Bot, "play_round", counted)

    def decided(level) -> tuple[int, str]:  # type: ignore[no-untyped-def]
        rounds.clear()
        b = Bot(level, parse_position(view), seat,
                random.Random(bot_seed(1, "hard", seat, view)))
        token = b.decide()
        return len(rounds), token

    return decided


@pytest.mark.parametrize("phase, seats, cap, samples", [
    ("a", 2, "turn_work", HARD.dets),  # a turn's look-ahead
    ("p", 3, "plan_work", HARD.plan_dets),  # a plan's simulated rounds
])
def test_a_search_stops_sampling_once_its_work_passes_its_cap(monkeypatch, phase, seats,
                                                              cap, samples) -> None:
    """A count of candidate turns scored, not a clock: with a tiny cap a turn's look-ahead
    (``turn_work``) or a plan's simulated rounds (``plan_work``) stop after 8 samples,
    every candidate or shortlisted plan having seen the same ones; with none they see all
    of them. An ordinary decision is far under Hard's caps: the same decision, the same
    work as without them."""
    import dataclasses

    view, seat = _by_phase(_hard_game_views(seats, 12, 40))[phase]
    decided = _rounds_and_decision(monkeypatch, view, seat)
    full, token = decided(dataclasses.replace(HARD, **{cap: 0}))
    capped, _ = decided(dataclasses.replace(HARD, **{cap: 1}))
    assert full > capped > 0
    assert capped * samples == full * 8  # 8 samples of 48, for every candidate
    assert decided(HARD) == (full, token)
