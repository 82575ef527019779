"""The bots: legal decisions, deterministic everywhere, and read only the seat's view."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys

import pytest

from express import ExpressError, Game, format_position
from express.bot import bot_seed, choose
from express.decisions import parse_plan
from express.determinize import determinize
from express.levels import BY_NAME, HARD, LEVELS
from express.rules import RULES_VERSIONS
from tests.express.support import REPO, random_game, record

#: Hard with every feature of its search (look-ahead rounds, plan and pick simulations,
#: the memos) at about a tenth of its counts: what the tests of whole Hard games check is
#: legality and determinism, which do not depend on the budget; Hard's strength at its real
#: budget is the tournaments' (docs/express-bots.md, `python -m express tournament`).
SMALL_HARD = dataclasses.replace(
    HARD, dets=8, top_k=4, plan_beam=3, plan_top=3, plan_dets=8, pick_dets=6,
    turn_sims=64, turn_work=4000, plan_work=3000)


@pytest.fixture
def small_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """`choose(..., "hard", ...)` searches at SMALL_HARD's budget for this test."""
    monkeypatch.setitem(BY_NAME, "hard", SMALL_HARD)


def _positions(count: int, seed: int) -> list[Game]:
    """Games stopped at random points (every phase, 2–4 seats, some resigned seats)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        g = random_game(rng, stop=rng.choice((0.01, 0.03, 0.1)), resign=0.004)
        if not g.over:
            out.append(g)
    return out


def _check_legal(game: Game, seat: int, token: str) -> None:
    p = game.position
    if p.phase == "p":
        assert len(parse_plan(token).cards) == 3
        game.commit(seat, token)  # refuses anything but three different cards of the nine
    else:
        assert token in game.legal(), (format_position(p), token)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_every_decision_is_legal_over_many_random_positions(level: str) -> None:
    for i, game in enumerate(_positions(80, 5 + len(level))):
        seat = game.to_move()[0]
        token = choose(game.view(seat), level, i, seat)
        _check_legal(game, seat, token)


def test_hard_decisions_are_legal_over_random_positions() -> None:
    for i, game in enumerate(_positions(30, 41)):
        seat = game.to_move()[-1]
        token = choose(game.view(seat), "hard", i, seat)
        _check_legal(game, seat, token)


@pytest.mark.parametrize("rules", RULES_VERSIONS)
@pytest.mark.parametrize("level", LEVELS)
def test_bots_play_whole_games_legally(level: str, rules: str, small_hard: None) -> None:
    """Every seat a bot, 3 seats, to the end (each decision checked by Game against the
    game's own rules version). Hard at SMALL_HARD's budget (its strength is the
    tournaments')."""
    game = Game.new(3, 77 + len(level), rules=rules)
    while not game.over:
        seat = game.to_move()[0]
        token = choose(game.view(seat), level, 3, seat)
        phase = game.position.phase
        _check_legal(game, seat, token)  # commits a plan
        if phase != "p":
            game.play(token)
    assert game.result() is not None
    assert game.position.rules == rules and f'[Rules "{rules}"]' in game.record()


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_view_gives_the_same_decision_whatever_the_hidden_parts(level: str) -> None:
    """Two different full positions that share seat K's view: one decision."""
    rng = random.Random(9)
    checked = 0
    for game in _positions(30, 91):
        p = game.position
        seat = game.to_move()[0]
        view = game.view(seat)
        a = determinize(view, random.Random(rng.getrandbits(64)))
        b = determinize(view, random.Random(rng.getrandbits(64)))
        # Both are full positions the view allows, not the same one.
        assert format_position(a, seat) == format_position(b, seat) == view
        if a == b:
            continue
        assert format_position(a) != format_position(b)
        da = choose(format_position(a, seat), level, 4, seat)
        db = choose(format_position(b, seat), level, 4, seat)
        assert da == db == choose(format_position(p, seat), level, 4, seat)
        checked += 1
        if level == "hard" and checked >= 8:
            break
    assert checked >= 8


def test_the_seed_and_the_level_feed_a_stable_hash() -> None:
    assert bot_seed(1, "easy", 2, "x") == bot_seed(1, "easy", 2, "x")
    assert len({bot_seed(1, "easy", 2, "x"), bot_seed(2, "easy", 2, "x"),
                bot_seed(1, "hard", 2, "x"), bot_seed(1, "easy", 3, "x"),
                bot_seed(1, "easy", 2, "y")}) == 5


def _mid_game_record(stop_after: int, seed: int = 12) -> str:
    """A record of a bot game cut after some decisions (a turn, a plan or a pick next)."""
    game = Game.new(3, seed)
    for _ in range(stop_after):
        seat = game.to_move()[0]
        token = choose(game.view(seat), "easy", 1, seat)
        if game.position.phase == "p":
            game.commit(seat, token)
        else:
            game.play(token)
    return game.record()


@pytest.mark.parametrize("stop_after", [0, 3, 5, 9])
def test_the_bot_command_is_deterministic_across_processes_and_hash_seeds(
        stop_after: int, tmp_path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(_mid_game_record(stop_after), encoding="utf-8")
    game = Game.from_record(path.read_text(encoding="utf-8"))
    seat = game.to_move()[0]
    for level in LEVELS:
        outs = set()
        for hash_seed in ("0", "1", "4242", "random"):
            env = {**os.environ, "PYTHONHASHSEED": hash_seed}
            out = subprocess.run([sys.executable, "-m", "express", "bot", "--level", level,
                                  "--seed", "5", "--seat", str(seat), str(path)],
                                 cwd=REPO, env=env, capture_output=True, timeout=120)
            assert out.returncode == 0, out.stdout
            outs.add(out.stdout)
        assert len(outs) == 1
        token = json.loads(outs.pop())["decision"]
        assert token == choose(game.view(seat), level, 5, seat)
        _check_legal(Game.from_record(path.read_text(encoding="utf-8")), seat, token)


def test_a_dormant_seats_turn_is_the_lost_turn() -> None:
    game = Game.new(3, 5)
    for _ in range(50):
        seat = game.to_move()[0]
        if game.position.phase == "a":
            break
        token = choose(game.view(seat), "easy", 1, seat)
        (game.commit if game.position.phase == "p" else lambda s, t: game.play(t))(seat, token)
    game.resign(game.position.turn_seat() % 3 + 1)
    while game.position.phase == "a":
        seat = game.to_move()[0]
        token = choose(game.view(seat), "medium", 1, seat)
        assert token in game.legal()
        if game.position.resigned[seat - 1]:
            assert token == "-:~"
            break
        game.play(token)


def test_bad_levels_and_seats_are_engine_errors() -> None:
    game = Game.new(3, 5)
    seat = game.to_move()[0]
    with pytest.raises(ExpressError, match="bad level"):
        choose(game.view(seat), "expert", 1, seat)
    with pytest.raises(ExpressError, match="no decision"):
        choose(game.view(seat), "easy", 1, seat % 3 + 1)


def _cli(args: list[str], text: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "express", *args], cwd=REPO,
                          input=text.encode(), capture_output=True, timeout=120)


@pytest.mark.parametrize("args", [
    ["bot", "--level", "expert", "--seed", "1", "--seat", "2"],
    ["bot", "--level", "easy", "--seed", "1", "--seat", "1"],  # seat 2 picks first
    ["bot", "--level", "easy", "--seed", "1", "--seat", "4"],
    ["bot", "--level", "easy", "--seed", "1", "--seat", "0"],
    ["bot", "--level", "easy", "--seed", "-1", "--seat", "2"],
    ["bot", "--level", "easy", "--seat", "2"],
])
def test_bot_command_errors_exit_2_with_json(args: list[str]) -> None:
    out = _cli(args, record(""))
    assert out.returncode == 2
    body = json.loads(out.stdout)
    assert set(body) == {"error", "at"} and body["at"] is None and not out.stderr


def test_the_bot_command_refuses_a_finished_game() -> None:
    out = _cli(["bot", "--level", "easy", "--seed", "1", "--seat", "1"],
               record("1. Lo Dr En | resign1 resign3"))
    assert out.returncode == 2 and "no decision" in json.loads(out.stdout)["error"]


def test_hard_remembers_nothing_that_changes_a_decision(monkeypatch, small_hard) -> None:
    """The per-decision memos (turn choices, seat values) and the candidates skipped as
    repeats are speed only: with them switched off, Hard makes the same decisions (in a
    Hard game, where the look-ahead meets the positions the memos are for), and the memos
    were used. Hard at SMALL_HARD's budget: the same search, fewer rounds of it."""
    from express import bot, evaluation, search

    game = Game.new(3, 2026)
    views = []
    kept = []
    keys = 0
    turn_key = bot.Bot.turn_key

    def counted(self, p):  # type: ignore[no-untyped-def]
        nonlocal keys
        keys += 1
        return turn_key(self, p)

    monkeypatch.setattr(bot.Bot, "turn_key", counted)
    while game.position.round <= 2:
        seat = game.to_move()[0]
        views.append((game.view(seat), seat))
        kept.append(choose(views[-1][0], "hard", 1, seat))
        if game.position.phase == "p":
            game.commit(seat, kept[-1])
        else:
            game.play(kept[-1])
    assert keys > 0  # the look-ahead met positions the turn memo is for

    def worth(self, p, seat, tf, full, own):  # type: ignore[no-untyped-def]
        opened = p.open[seat - 1]
        unknown = [c for c in opened if c not in self.mine] if own else opened
        return evaluation.seat_value(p, seat, tf, full, unknown, self.pool if own else ())

    monkeypatch.setattr(bot.Bot, "turn_key", lambda self, p: (object(),))
    monkeypatch.setattr(bot.Bot, "worth", worth)
    monkeypatch.setattr(search, "_repeats", lambda token, seen: False)
    assert [choose(v, "hard", 1, s) for v, s in views] == kept


def test_turns_taken_for_repeats_do_the_same_to_the_holdings_and_the_time_left() -> None:
    """What ``_repeats`` skips: over random positions, candidates of one outcome key leave
    the mover's holdings and the time left alike."""
    from express import bot, evaluation, search
    from express.unchecked import play_unchecked

    rng = random.Random(23)
    repeats = 0
    for _ in range(60):
        g = random_game(rng, stop=0.01, resign=0.002)
        p = g.position
        if p.phase != "a":
            continue
        b = bot.Bot(HARD, p, p.turn_seat(), random.Random(1))
        i = p.turn_seat() - 1
        first: dict[search.Outcome, tuple[object, ...]] = {}
        for t in b.candidates(p):
            q = p.copy()
            play_unchecked(q, t)
            outcome = (q.train[i], q.yard[i], q.open[i], q.done[i], q.engine[i],
                       evaluation.time_left(q))
            key = search.outcome_key(t)
            if key is None:
                continue
            if key in first:
                assert outcome == first[key], t
                repeats += 1
            first.setdefault(key, outcome)
    assert repeats > 100
