"""The arena's pure rules (tournaments/arena/, issue #46; docs/tournaments-arena.md): scoring
with fire and berserk, standings and the podium, berserk requests, the pairing pass. Each
rule on a hand-worked example, then properties over random pools (hypothesis) and a
simulated arena whose standings, kept incrementally, equal the ones recomputed from scratch.
No database: plain functions."""

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.arena.berserk import (
    BerserkRequest,
    LiveClock,
    berserk_clock,
    berserkable,
    may_berserk,
)
from tournaments.arena.pairing import (
    Pair,
    PairingRules,
    Waiting,
    _unpaired_costs,
    colours,
    match,
    pair_cost,
    pairings,
    ready,
    rematch,
)
from tournaments.arena.scoring import (
    DEFAULT_RULES,
    ArenaGame,
    ArenaRules,
    Berserk,
    Entrant,
    Outcome,
    Result,
    Sheet,
    build_sheet,
    performance,
    podium,
    sheet_of,
    standings,
)

W, D, L = Result.WIN, Result.DRAW, Result.LOSS


def played(*results, plies=40, berserk=False):
    return [Outcome(r, plies, berserk) for r in results]


def points(outcomes, rules=DEFAULT_RULES):
    return [score.points for score in build_sheet(outcomes, rules).scores]


# --- scoring ---------------------------------------------------------------------------------


def test_win_draw_loss():
    assert points(played(W, D, L)) == [2, 1, 0]


def test_fire_after_two_wins_doubles_until_a_non_win():
    sheet = build_sheet(played(W, W, W, W, L, W))
    assert [s.points for s in sheet.scores] == [2, 2, 4, 4, 0, 2]
    assert [s.fire for s in sheet.scores] == [False, False, True, True, True, False]
    assert sheet.total == 14 and sheet.streak == 1 and not sheet.on_fire
    assert sheet.summary() == "224402"


def test_a_draw_on_fire_scores_two_and_ends_the_fire():
    """lichess: a draw on fire is doubled (2), and being no win it ends the streak."""
    assert points(played(W, W, D, W, W, W)) == [2, 2, 2, 2, 2, 4]


def test_on_fire_after_two_wins():
    sheet = build_sheet(played(W, W))
    assert sheet.on_fire and sheet.streak == 2
    assert not build_sheet(played(W, D)).on_fire


def test_without_streaks_no_fire():
    assert points(played(W, W, W, D), ArenaRules(streaks=False)) == [2, 2, 2, 1]


def test_a_quick_draw_scores_nothing_and_ends_the_fire():
    outcomes = played(W, W) + [Outcome(D, 19)] + played(W, W, W)
    sheet = build_sheet(outcomes)
    assert [s.points for s in sheet.scores] == [2, 2, 0, 2, 2, 4]
    assert sheet.scores[2].quick_draw
    assert points([Outcome(D, 20)]) == [1]  # 20 plies is no longer quick


def test_berserk_win_and_loss():
    assert points([Outcome(W, 30, berserk=True)]) == [3]
    assert points([Outcome(L, 30, berserk=True)]) == [0]
    assert points([Outcome(D, 30, berserk=True)]) == [1]  # the bonus is for a win only
    on_fire = played(W, W) + [Outcome(W, 30, berserk=True)]
    assert points(on_fire) == [2, 2, 5]


def test_a_short_berserk_win_earns_no_bonus():
    sheet = build_sheet([Outcome(W, 13, berserk=True), Outcome(W, 14, berserk=True)])
    assert [s.points for s in sheet.scores] == [2, 3]
    assert [s.berserk for s in sheet.scores] == [Berserk.TOO_SHORT, Berserk.VALID]
    assert sheet.streak == 2  # the short win is still a win for the streak


def test_sheet_of_reads_the_players_games_in_order():
    games = [
        ArenaGame(1, 2, winner=1, plies=30),
        ArenaGame(3, 1, winner=1, plies=30, orange_berserk=True),
        ArenaGame(2, 3, winner=None, plies=50),
        ArenaGame(1, 2, winner=1, plies=40),
    ]
    assert sheet_of(1, games).summary() == "234"
    assert sheet_of(2, games).summary() == "010"
    assert games[1].outcome_for(1) == Outcome(W, 30, berserk=True, opponent=3)


@pytest.mark.parametrize(
    "kwargs",
    [dict(blue=1, orange=1, winner=None, plies=3), dict(blue=1, orange=2, winner=3, plies=3),
     dict(blue=1, orange=2, winner=None, plies=-1)],
)
def test_a_game_must_make_sense(kwargs):
    with pytest.raises(ValueError):
        ArenaGame(**kwargs)


# --- standings and the podium ----------------------------------------------------------------


def test_performance_is_the_rating_until_three_games():
    ratings = {1: 1500, 2: 1700, 3: 1300}
    two = [Outcome(W, 30, opponent=2), Outcome(L, 30, opponent=3)]
    assert performance(two, 1500, ratings) == 1500
    three = two + [Outcome(D, 30, opponent=2)]
    assert performance(three, 1500, ratings) == Fraction(1700 + 500 + 1300 - 500 + 1700, 3)


def test_standings_by_total_then_performance_then_id():
    entrants = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1500), Entrant(4, 1400),
                Entrant(5, 1600)]
    games = [
        ArenaGame(1, 3, winner=1, plies=30),
        ArenaGame(2, 4, winner=2, plies=30),
    ]
    table = standings(entrants, games)
    # 1 and 2 have 2 points; under three games each, performance = own rating: a tie, id.
    assert [(s.id, s.total, s.rank) for s in table] == [
        (1, 2, 1), (2, 2, 2), (5, 0, 3), (3, 0, 4), (4, 0, 5)]
    assert [s.id for s in podium(table)] == [1, 2, 3]  # 5 never played: not on the podium


def test_performance_breaks_a_tie_of_totals():
    entrants = [Entrant(i, r) for i, r in [(1, 1500), (2, 1500), (3, 2000), (4, 1000)]]
    games = [  # 1 and 2 both win, lose, draw (2 + 0 + 1 = 3): 1 met the stronger players
        ArenaGame(1, 3, winner=1, plies=30), ArenaGame(2, 4, winner=2, plies=30),
        ArenaGame(1, 4, winner=4, plies=30), ArenaGame(2, 3, winner=3, plies=30),
        ArenaGame(1, 3, winner=None, plies=30), ArenaGame(2, 4, winner=None, plies=30),
    ]
    table = standings(entrants, games)
    one, two = (next(s for s in table if s.id == i) for i in (1, 2))
    assert one.total == two.total == 3
    assert one.performance > two.performance and one.rank < two.rank


def test_standings_refuse_strangers():
    with pytest.raises(ValueError):
        standings([Entrant(1, 1500)], [ArenaGame(1, 2, winner=1, plies=30)])


def reference_points(results_and_plies):
    """An independent count of one player's points, the rules as written in the docs."""
    total, wins_running = 0, 0
    for result, plies, berserk in results_and_plies:
        fire = wins_running >= 2
        if result == "draw" and plies < 20:
            gained = 0
        else:
            gained = {"win": 2, "draw": 1, "loss": 0}[result] * (2 if fire else 1)
            gained += 1 if result == "win" and berserk and plies >= 14 else 0
        total += gained
        wins_running = wins_running + 1 if result == "win" else 0
    return total


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["win", "draw", "loss"]), st.integers(0, 80),
                          st.booleans()), max_size=30))
def test_sheet_total_equals_a_reference_count(games):
    sheet = build_sheet(Outcome(Result(r), p, b) for r, p, b in games)
    assert sheet.total == reference_points(games) == sum(s.points for s in sheet.scores)


# --- berserk ---------------------------------------------------------------------------------


def minutes(base, inc):
    return LiveClock(base * 60_000, inc * 1000)


@pytest.mark.parametrize(
    "clock,left",
    [(minutes(3, 2), LiveClock(90_000, 0)), (minutes(5, 3), LiveClock(150_000, 0)),
     (minutes(10, 5), LiveClock(300_000, 0)), (minutes(15, 10), LiveClock(450_000, 0)),
     (minutes(1, 3), LiveClock(60_000, 0)),  # base under 40 increments: kept whole (lichess)
     (minutes(1, 1), LiveClock(30_000, 0))],
)
def test_berserk_clock(clock, left):
    assert berserk_clock(clock) == left


def test_berserk_allowed_only_before_the_first_move_once_with_a_clock():
    ok = BerserkRequest(arena_allows=True, clock=minutes(5, 3), in_play=True, own_moves=0,
                        already_berserk=False)
    assert may_berserk(ok)
    for change in [dict(arena_allows=False), dict(clock=None), dict(in_play=False),
                   dict(own_moves=1), dict(already_berserk=True), dict(clock=LiveClock(0, 5000))]:
        assert not may_berserk(BerserkRequest(**{**ok.__dict__, **change})), change
    assert not berserkable(None)
    with pytest.raises(ValueError):
        berserk_clock(LiveClock(0, 5000))


# --- pairing: examples -----------------------------------------------------------------------


def player(id_, rank=None, *, rating=1500, score=0, free=0.0, last=None, recent=(), **kw):
    opponents = ((last,) if last is not None else ()) + tuple(recent)
    return Waiting(id=id_, rating=rating, score=score, rank=id_ if rank is None else rank,
                   free_since=free, recent_opponents=opponents, **kw)


NOW = 100.0


def ids(pairs):
    return {frozenset((p.blue, p.orange)) for p in pairs}


def test_close_ranks_are_paired():
    pool = [player(i) for i in (4, 1, 3, 2, 6, 5)]
    assert ids(pairings(pool, NOW)) == {frozenset(x) for x in [(1, 2), (3, 4), (5, 6)]}


def test_closeness_counts_more_at_the_top():
    """Ranks 1, 3, 5 and 7: 1-3 and 5-7 beat 1-5 and 3-7, and a gap at the top costs more
    than the same gap lower down (lichess's rank factor)."""
    pool = [player(i) for i in (1, 3, 5, 7)]
    assert ids(pairings(pool, NOW)) == {frozenset((1, 3)), frozenset((5, 7))}
    worst = 100
    assert pair_cost(player(1), player(2), worst) > pair_cost(player(50), player(51), worst)


def test_paused_and_withdrawn_are_never_paired():
    pool = [player(1), player(2, paused=True), player(3, withdrawn=True), player(4)]
    assert ids(pairings(pool, NOW)) == {frozenset((1, 4))}
    assert pairings([player(1), player(2, paused=True)], NOW) == ()


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        pairings([player(1), player(1)], NOW)


def test_no_rematch_of_the_last_game_when_another_is_free():
    pool = [player(1, last=2), player(2, last=1), player(3), player(4)]
    assert ids(pairings(pool, NOW)) == {frozenset((1, 3)), frozenset((2, 4))}
    # one side suffices: 2 played 1 last, 1 has played someone else since
    pool = [player(1, last=5), player(2, last=1), player(3, last=4), player(4, last=3)]
    assert frozenset((1, 2)) not in ids(pairings(pool, NOW))


def test_a_rematch_left_over_waits_then_is_paired():
    """The only two free are each other's last opponents: no game until both have waited
    rematch_wait_seconds (10 s), then the rematch; at once when nobody else is playing."""
    rules = PairingRules()
    pool = [player(1, last=2, free=95.0), player(2, last=1, free=92.0)]
    assert pairings(pool, NOW, rules, playing=10) == ()
    assert ids(pairings(pool, 105.0, rules, playing=10)) == {frozenset((1, 2))}
    assert ids(pairings(pool, NOW, rules, playing=0)) == {frozenset((1, 2))}


def test_a_rematch_is_not_paired_while_a_third_is_left():
    pool = [player(1, last=2), player(2, last=1), player(3, last=2)]
    # 3 met 2 last too: only 1-3 is allowed; 2 waits (though long past the rematch wait).
    assert ids(pairings(pool, 1000.0)) == {frozenset((1, 3))}


def test_recent_opponents_are_avoided_when_close_enough():
    pool = [player(1, recent=(9, 2)), player(2), player(3), player(4)]
    assert ids(pairings(pool, NOW)) == {frozenset((1, 3)), frozenset((2, 4))}


def test_the_wait_rule():
    rules = PairingRules(wait_seconds=1.0, enough=6)
    fresh = [player(1, free=NOW), player(2, free=NOW - 0.5)]
    assert not ready(fresh, NOW, rules)
    assert pairings(fresh, NOW, rules) == ()
    assert ready(fresh, NOW + 1.0, rules)  # both have waited a second
    assert ready(fresh, NOW, rules, playing=1)  # 2 of 3 active players are waiting
    assert not ready(fresh, NOW, rules, playing=2)
    crowd = [player(i, free=NOW) for i in range(1, 7)]
    assert ready(crowd, NOW, rules)  # enough waiting: pair at once
    assert not ready([player(1, free=0.0)], NOW, rules)


def test_of_an_odd_number_the_last_to_become_free_waits():
    pool = [player(1, free=5.0), player(2, free=1.0), player(3, free=2.0)]
    assert ids(pairings(pool, NOW)) == {frozenset((2, 3))}


def test_colour_history():
    blue_run = player(1, colours="OBBB")
    assert blue_run.colour_run == 3 and blue_run.colour_balance == 2
    orange = player(2, colours="BOO")
    assert orange.colour_run == -2 and orange.colour_balance == -1
    assert colours(blue_run, orange) == Pair(blue=2, orange=1)
    assert colours(orange, blue_run) == Pair(blue=2, orange=1)
    # same run, fewer Blue games overall plays Blue
    assert colours(player(3, colours="BOB"), player(4, colours="OOB")) == Pair(4, 3)
    # a tie: the better ranked plays Blue without a coin; a coin may say otherwise
    assert colours(player(6), player(5)) == Pair(5, 6)
    coins = {colours(player(5), player(6), random.Random(seed)) for seed in range(20)}
    assert coins == {Pair(5, 6), Pair(6, 5)}


def test_a_fourth_game_in_one_colour_is_avoided():
    pool = [player(1, colours="BBB"), player(2, colours="BBB"), player(3, colours="OOO"),
            player(4, colours="OOO")]
    pairs = pairings(pool, NOW)
    assert ids(pairs) == {frozenset((1, 3)), frozenset((2, 4))}
    assert {p.blue for p in pairs} == {3, 4}


def test_colours_balance_over_an_arena():
    """Eight players, forty passes of random results: nobody's Blue and Orange counts differ
    by more than two, nobody plays a colour four times running."""
    rng = random.Random(7)
    history = {i: "" for i in range(1, 9)}
    last = {i: None for i in history}
    for _ in range(40):
        pool = [player(i, rank=rng.randint(1, 50) * 10 + i, free=0.0, last=last[i],
                       colours=history[i]) for i in history]
        for pair in pairings(pool, NOW, rng=rng):
            history[pair.blue] += "B"
            history[pair.orange] += "O"
            last[pair.blue], last[pair.orange] = pair.orange, pair.blue
    for line in history.values():
        assert abs(line.count("B") - line.count("O")) <= 2, line
        assert "BBBB" not in line and "OOOO" not in line, line


# --- pairing: the matching against brute force and properties --------------------------------


def brute_force_cost(players, rules):
    """The cheapest matching of all (every player may meet anyone not a last opponent), by
    enumeration: what the dynamic programme must equal when the window covers the pool."""
    players = sorted(players, key=lambda p: (p.rank, p.id))
    unpaired = dict(zip([p.id for p in players], _unpaired_costs(players), strict=True))
    worst = max(p.rank for p in players)

    def best(rest):
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        options = [unpaired[first.id] + best(others)]
        for k, other in enumerate(others):
            if not rematch(first, other):
                options.append(pair_cost(first, other, worst) + best(others[:k] + others[k + 1:]))
        return min(options)

    return best(tuple(players))


def matching_cost(players, pairs):
    players = sorted(players, key=lambda p: (p.rank, p.id))
    unpaired = dict(zip([p.id for p in players], _unpaired_costs(players), strict=True))
    worst = max(p.rank for p in players)
    taken = {p.id for pair in pairs for p in pair}
    return (sum(pair_cost(a, b, worst) for a, b in pairs)
            + sum(unpaired[p.id] for p in players if p.id not in taken))


def random_pool(rng, n, *, ranks=60):
    chosen = rng.sample(range(1, ranks + 1), n)
    pool = []
    for i, rank in enumerate(chosen):
        others = [j for j in range(1, n + 1) if j != i + 1]
        recent = tuple(rng.sample(others, min(len(others), rng.randint(0, 3))))
        pool.append(Waiting(
            id=i + 1, rating=rng.randint(1000, 2200), score=rng.randint(0, 30), rank=rank,
            free_since=rng.choice([0.0, 50.0, 95.0, 99.5, 100.0]),
            paused=rng.random() < 0.1, withdrawn=rng.random() < 0.05, recent_opponents=recent,
            colours="".join(rng.choice("BO") for _ in range(rng.randint(0, 6)))))
    return pool


def test_the_matching_is_exact_when_the_window_covers_the_pool():
    rng = random.Random(46)
    for _ in range(150):
        pool = [p for p in random_pool(rng, rng.randint(2, 8)) if p.available]
        rules = PairingRules(window=8)
        assert matching_cost(pool, match(pool, rules)) == brute_force_cost(pool, rules)


@st.composite
def pools(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(0, 60))
    return random_pool(random.Random(seed), n, ranks=max(n, 1) * 3)


@settings(max_examples=300, deadline=None)
@given(pools(), st.floats(95.0, 120.0), st.sampled_from([None, 0, 3, 40]),
       st.integers(2, 9))
def test_every_pass_keeps_the_rules(pool, now, playing, window):
    rules = PairingRules(window=window)
    pairs = pairings(pool, now, rules, playing=playing)
    by_id = {p.id: p for p in pool}
    seen = [i for pair in pairs for i in (pair.blue, pair.orange)]
    assert len(seen) == len(set(seen))  # nobody in two games
    eligible = {p.id for p in pool if p.available}
    assert set(seen) <= eligible  # never a paused or withdrawn player
    if not ready([by_id[i] for i in eligible], now, rules, playing=playing):
        assert pairs == ()
        return
    for pair in pairs:
        a, b = by_id[pair.blue], by_id[pair.orange]
        if rematch(a, b):  # only once nobody else could be had, after the wait
            waited = min(now - a.free_since, now - b.free_since)
            assert playing == 0 or waited >= rules.rematch_wait_seconds
        assert (a.colour_run, a.colour_balance) <= (b.colour_run, b.colour_balance)
    left = [by_id[i] for i in eligible - set(seen)]
    for a, b in itertools.combinations(left, 2):
        assert rematch(a, b)  # two left out could not have met, save for a rematch


def test_two_hundred_waiting_are_paired():
    rng = random.Random(200)
    pool = [Waiting(id=i, rating=rng.randint(1000, 2200), score=0, rank=i, free_since=0.0,
                    recent_opponents=(i + 1,) if i % 2 else (i - 1,)) for i in range(1, 201)]
    pairs = pairings(pool, NOW)
    assert len(pairs) == 100
    assert not any(rematch(pool[p.blue - 1], pool[p.orange - 1]) for p in pairs)


# --- a simulated arena -----------------------------------------------------------------------


def test_a_simulated_arena_keeps_the_rules_and_its_standings():
    """Thirty players, games ending at random times: a pass every second. Nobody is in two
    games at once, a withdrawn player is never paired again, and the standings kept
    incrementally (each sheet updated as its game ends) equal the ones from scratch."""
    rng = random.Random(46)
    entrants = [Entrant(i, rng.randint(1200, 2000)) for i in range(1, 31)]
    rating = {e.id: e.rating for e in entrants}
    free = {e.id: 0.0 for e in entrants}  # id -> free since
    running = {}  # id of blue -> (game, ends at)
    recent = {e.id: () for e in entrants}
    history = {e.id: "" for e in entrants}
    sheets = {e.id: Sheet() for e in entrants}
    withdrawn, games = set(), []
    table = standings(entrants, [])
    for second in range(1, 1800):
        for blue, (game, ends) in list(running.items()):
            if ends <= second:
                del running[blue]
                games.append(game)
                for pid in (game.blue, game.orange):
                    sheets[pid] = sheets[pid].add(game.outcome_for(pid))
                    free[pid] = float(second)
        if second == 600:
            withdrawn.add(7)
        table = standings(entrants, games)
        rank = {s.id: s.rank for s in table}
        pool = [Waiting(id=i, rating=rating[i], score=sheets[i].total, rank=rank[i],
                        free_since=t, withdrawn=i in withdrawn, paused=(i == 9 and second < 300),
                        recent_opponents=recent[i], colours=history[i])
                for i, t in free.items()]
        for pair in pairings(pool, float(second), rng=rng):
            assert pair.blue in free and pair.orange in free
            assert 7 not in (pair.blue, pair.orange) or second < 600
            del free[pair.blue], free[pair.orange]
            winner = rng.choice([pair.blue, pair.orange, None])
            plies = rng.randint(10, 70)
            game = ArenaGame(pair.blue, pair.orange, winner, plies,
                             blue_berserk=rng.random() < 0.2, orange_berserk=rng.random() < 0.2)
            running[pair.blue] = (game, second + rng.randint(20, 120))
            for me, other, colour in ((pair.blue, pair.orange, "B"), (pair.orange, pair.blue, "O")):
                recent[me] = ((other,) + recent[me])[:3]
                history[me] += colour
    assert len(games) > 200
    scratch = {s.id: s.sheet for s in standings(entrants, games)}
    assert scratch == sheets
    assert [s.total for s in table] == sorted((s.total for s in table), reverse=True)
    assert len(podium(table)) == 3
