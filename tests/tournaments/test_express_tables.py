"""The Swiss tables of Cargo Express (tournaments/swiss/express_tables.py, issue #46;
docs/tournaments-express-swiss.md): each rule on a hand-worked example, then a property
test over 300 seeded random tournaments. No database: plain functions."""

import random
from collections import Counter
from fractions import Fraction as F
from itertools import combinations, permutations

import pytest

from tournaments.swiss.express_tables import (
    BYE_POINTS,
    Entrant,
    Game,
    Pairing,
    Round,
    bye_counts,
    meetings,
    pair_round,
    place_points,
    seat_counts,
    seat_table,
    standings,
    table_sizes,
)


def entrants(n, changes=None):
    """Players 1..n, rated 2000, 1990, ...: round 1's order is 1, 2, 3, ...; `changes`:
    {player: Entrant's other fields}."""
    changes = changes or {}
    return [Entrant(i, 2000 - 10 * i, **changes.get(i, {})) for i in range(1, n + 1)]


def played(pairing, places):
    """The round of `pairing` with each table's places given, table by table."""
    return Round(tuple(Game(t, tuple(p)) for t, p in zip(pairing.tables, places, strict=True)),
                 pairing.byes)


def repeated_pairs(pairing, rounds):
    met = meetings(rounds)
    return sorted((a, b) for t in pairing.tables for a, b in combinations(sorted(t), 2)
                  if met[(a, b)])


# --- table sizes ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "sizes", "byes"), [
    (3, (3,), 0), (4, (4,), 0), (5, (4,), 1), (6, (3, 3), 0), (7, (4, 3), 0), (8, (4, 4), 0),
    (9, (3, 3, 3), 0), (10, (4, 3, 3), 0), (11, (4, 4, 3), 0), (12, (4, 4, 4), 0),
    (13, (4, 3, 3, 3), 0), (25, (4, 4, 4, 4, 3, 3, 3), 0),
])
def test_tables_of_four_and_three_fewest_byes_then_largest_tables(n, sizes, byes):
    assert table_sizes(n) == (sizes, byes)


@pytest.mark.parametrize(("n", "max_size", "min_size", "expected"), [
    (5, 4, 2, ((3, 2), 0)),  # everyone plays: a duel rather than a bye
    (6, 4, 2, ((3, 3), 0)),  # not 4+2: a table of two only when nothing else seats all
    (2, 4, 2, ((2,), 0)),
    (7, 3, 3, ((3, 3), 1)),
    (8, 3, 3, ((3, 3), 2)),
    (7, 3, 2, ((3, 2, 2), 0)),
    (6, 3, 3, ((3, 3), 0)),  # the browser test's Swiss of six
])
def test_table_sizes_with_other_limits(n, max_size, min_size, expected):
    assert table_sizes(n, max_size, min_size) == expected


def test_too_few_players_or_impossible_limits_are_refused():
    for args in [(2,), (1, 4, 2), (0, 4, 2), (6, 5, 3), (6, 3, 4), (6, 4, 1)]:
        with pytest.raises(ValueError):
            table_sizes(*args)


def test_table_sizes_are_the_best_of_every_split():
    """Against a plain enumeration of every multiset of sizes."""
    for max_size, min_size in [(4, 3), (4, 2), (3, 3), (3, 2), (4, 4)]:
        for n in range(min_size, 40):
            options = []
            for k in range(1, n // min_size + 1):
                for sizes in combinations_with_sizes(k, min_size, max_size):
                    if sum(sizes) <= n:
                        options.append((n - sum(sizes), sizes.count(2), k,
                                        tuple(sorted(sizes, reverse=True))))
            byes, _, _, sizes = min(options)
            assert table_sizes(n, max_size, min_size) == (sizes, byes), (n, max_size, min_size)


def combinations_with_sizes(k, low, high):
    if k == 0:
        yield ()
        return
    for first in range(low, high + 1):
        for rest in combinations_with_sizes(k - 1, low, first):
            yield (first, *rest)


# --- points by place -----------------------------------------------------------------------


def test_place_points_share_out_the_others_beaten():
    assert place_points([1, 2, 3, 4]) == [1, F(2, 3), F(1, 3), 0]
    assert place_points([3, 1, 2]) == [0, 1, F(1, 2)]
    assert place_points([2, 1]) == [0, 1]


def test_a_shared_place_counts_half_a_win_over_each_player_level():
    assert place_points([1, 1, 3]) == [F(3, 4), F(3, 4), 0]
    assert place_points([1, 2, 2, 4]) == [1, F(1, 2), F(1, 2), 0]
    assert place_points([1, 1, 1, 1]) == [F(1, 2)] * 4
    assert place_points([1, 1]) == [F(1, 2)] * 2


def test_every_table_averages_half_a_point_the_bye():
    for places in ([1, 2], [1, 1], [1, 2, 3], [2, 2, 1], [1, 2, 3, 4], [1, 1, 3, 3],
                   [4, 1, 1, 1]):
        assert sum(place_points(places)) / len(places) == BYE_POINTS == F(1, 2)


def test_a_game_must_be_a_table_of_two_to_four_with_places():
    with pytest.raises(ValueError):
        place_points([1])
    for seats, places in [((1,), (1,)), ((1, 2, 3, 4, 5), (1, 2, 3, 4, 5)),
                          ((1, 1), (1, 2)), ((1, 2), (1,)), ((1, 2), (1, 3))]:
        with pytest.raises(ValueError):
            Game(seats, places)


# --- six players, two rounds, tables of three (the browser test's Swiss) -------------------


def test_six_players_two_rounds_of_tables_of_three():
    six = entrants(6)
    first = pair_round(six, [], max_size=3)
    assert first == Pairing(tables=((1, 2, 3), (4, 5, 6)), byes=())  # by rating
    round1 = played(first, [(1, 2, 3), (3, 2, 1)])  # 1 and 6 win, 3 and 4 last
    # standings: 1 and 6 on 1 point, level on every tie break, 1 first by rating
    assert [s.id for s in standings(six, [round1])] == [1, 6, 2, 5, 3, 4]
    second = pair_round(six, [round1], max_size=3)
    # the top score group (1, 6) with the next best; two repeats are the fewest possible:
    # two tables of three from two, so each table has two who met before
    assert {frozenset(t) for t in second.tables} == {frozenset({1, 6, 2}), frozenset({5, 3, 4})}
    assert repeated_pairs(second, [round1]) == [(1, 2), (4, 5)]
    # seats rotated: no one sits where they sat in round 1 (1: 1st → 2nd, 6: 3rd → 1st, ...)
    assert second.tables == ((6, 1, 2), (5, 3, 4))
    seat1 = {p: s for t in first.tables for s, p in enumerate(t)}
    assert all(seat1[p] != s for t in second.tables for s, p in enumerate(t))


def test_six_players_standings_worked_by_hand():
    six = entrants(6)
    round1 = played(pair_round(six, [], max_size=3), [(1, 2, 3), (3, 2, 1)])
    round2 = Round((Game((6, 1, 2), (2, 1, 3)), Game((5, 3, 4), (1, 1, 3))))
    table = {s.id: s for s in standings(six, [round1, round2])}
    # points: 1: 1 + 1; 6: 1 + 1/2; 2: 1/2 + 0; 5: 1/2 + 3/4; 3: 0 + 3/4; 4: 0 + 0
    assert {p: s.points for p, s in table.items()} == {
        1: 2, 6: F(3, 2), 2: F(1, 2), 5: F(5, 4), 3: F(3, 4), 4: 0}
    # opponents' average of 1: round 1 (2, 3): (1/2 + 3/4) / 2 = 5/8; round 2 (6, 2):
    # (3/2 + 1/2) / 2 = 1; average 13/16
    assert table[1].opponents_average == F(13, 16)
    # Sonneborn–Berger of 1: it beat everyone, so the same sums: 13/16. Of 5: round 1 it
    # beat 4 (0) and lost to 6; round 2 level with 3 (1/2 × 3/4) and beat 4 (0): (0 + 3/8 /
    # 2) / 2 = 3/32
    assert table[1].sonneborn_berger == F(13, 16)
    assert table[5].sonneborn_berger == F(3, 32)
    assert [s.id for s in standings(six, [round1, round2])] == [1, 6, 5, 3, 2, 4]
    assert table[1].wins == 2 and table[5].wins == 1 and table[3].wins == 1


def test_level_players_share_a_rank():
    four = entrants(4)
    rnd = Round((Game((1, 2, 3, 4), (1, 1, 3, 3)),))
    lines = standings(four, [rnd])
    assert [(s.id, s.rank) for s in lines] == [(1, 1), (2, 1), (3, 3), (4, 3)]


# --- seven, nine and eleven players --------------------------------------------------------


def test_seven_players_sit_at_a_four_and_a_three():
    seven = entrants(7)
    first = pair_round(seven, [])
    assert first.tables == ((1, 2, 3, 4), (5, 6, 7)) and first.byes == ()
    round1 = played(first, [(1, 2, 3, 4), (1, 2, 3)])
    second = pair_round(seven, [round1])
    assert sorted(map(len, second.tables)) == [3, 4]
    # the four take two from each table (two repeats; three and one would make three), and
    # the three are two of the first four and one of the three (one repeat): three at least
    assert repeated_pairs(second, [round1]) == [(1, 2), (3, 4), (5, 6)]
    assert fewest_repeats(range(1, 8), (4, 3), meetings([round1])) == 3


def test_nine_players_meet_no_one_twice_in_four_rounds():
    """Nine at three tables of three can meet new players for four rounds (the affine
    plane of order 3): the swaps find such rounds here."""
    nine = entrants(9)
    rounds = []
    for _ in range(4):
        pairing = pair_round(nine, rounds, max_size=3)
        assert repeated_pairs(pairing, rounds) == []
        rounds.append(played(pairing, [(1, 2, 3)] * 3))


def test_eleven_players_meet_as_few_again_as_any_split_would():
    eleven = entrants(11)
    rounds = []
    for _ in range(4):
        pairing = pair_round(eleven, rounds)
        assert sorted(map(len, pairing.tables)) == [3, 4, 4] and pairing.byes == ()
        met = meetings(rounds)
        assert repeat_cost(pairing.tables, met) == fewest_repeats(range(1, 12), (4, 4, 3), met)
        rounds.append(played(pairing, [(1, 2, 3, 4)[:len(t)] for t in pairing.tables]))
    # round 2: each table of four is drawn from the three tables of round 1, so it holds a
    # repeat; the table of three need not
    assert len(repeated_pairs(pair_round(eleven, rounds[:1]), rounds[:1])) == 2


def repeat_cost(tables, met):
    return sum(met[(a, b)] ** 2 for t in tables for a, b in combinations(sorted(t), 2))


def fewest_repeats(players, sizes, met):
    """The least repeat cost of any split of `players` into tables of `sizes` (each pair
    that met k times counting k²), by trying them all."""
    def splits(left, sizes):
        if not sizes:
            yield []
            return
        for size in set(sizes):
            rest_sizes = list(sizes)
            rest_sizes.remove(size)
            for others in combinations(left[1:], size - 1):
                table = (left[0], *others)
                for more in splits([p for p in left if p not in table], rest_sizes):
                    yield [table, *more]
    return min(repeat_cost(split, met) for split in splits(list(players), list(sizes)))


# --- withdrawals, late joiners, byes -------------------------------------------------------


def test_a_withdrawn_player_is_never_seated_but_keeps_their_games():
    seven = entrants(7, {3: {"withdrew": 2}})
    round1 = played(pair_round(seven, []), [(1, 2, 3, 4), (1, 2, 3)])
    second = pair_round(seven, [round1])
    assert sorted(p for t in second.tables for p in t) == [1, 2, 4, 5, 6, 7]
    assert sorted(map(len, second.tables)) == [3, 3]
    line = next(s for s in standings(seven, [round1]) if s.id == 3)
    assert line.withdrawn and line.games == 1 and line.points == F(1, 3)
    # their result still counts in their opponents' tie breaks
    assert next(s for s in standings(seven, [round1]) if s.id == 1).opponents_average == \
        (F(2, 3) + F(1, 3) + 0) / 3


def test_a_late_joiner_starts_at_the_bottom_with_nothing_for_the_rounds_missed():
    six = entrants(6, {1: {"joined": 2}})
    first = pair_round(six, [])
    assert 1 not in {p for t in first.tables for p in t} | set(first.byes)
    assert first.tables == ((2, 3, 4, 5),) and first.byes == (6,)
    round1 = played(first, [(1, 2, 3, 4)])
    second = pair_round(six, [round1])
    assert sorted(p for t in second.tables for p in t) == [1, 2, 3, 4, 5, 6]
    assert 1 in second.tables[-1]  # 0 points: the bottom score group, despite its rating
    assert next(s for s in standings(six, [round1]) if s.id == 1).points == 0


def test_five_players_each_get_one_bye_in_five_rounds():
    five = entrants(5)
    rounds = []
    for _ in range(5):
        pairing = pair_round(five, rounds)
        assert len(pairing.tables) == 1 and len(pairing.byes) == 1
        had = bye_counts(rounds)
        assert had[pairing.byes[0]] == 0
        rounds.append(played(pairing, [(1, 2, 3, 4)]))
    assert bye_counts(rounds) == Counter({1: 1, 2: 1, 3: 1, 4: 1, 5: 1})


def test_the_bye_goes_to_the_lowest_placed_without_one_and_is_worth_half():
    five = entrants(5)
    first = pair_round(five, [])
    assert first.byes == (5,)  # the lowest rated
    round1 = played(first, [(1, 2, 3, 4)])  # 4 last, on 0 points
    assert next(s for s in standings(five, [round1]) if s.id == 5).points == F(1, 2)
    assert pair_round(five, [round1]).byes == (4,)


def test_a_pairing_is_the_same_whatever_the_order_of_the_entrants():
    rng = random.Random(46)
    players = entrants(11)
    rounds = [played(pair_round(players, []), [(2, 1, 4, 3), (1, 3, 2, 4), (3, 1, 2)])]
    shuffled = players[:]
    rng.shuffle(shuffled)
    assert pair_round(shuffled, rounds) == pair_round(players, rounds)
    assert standings(shuffled, rounds) == standings(players, rounds)


def test_bad_rounds_are_refused():
    three = entrants(3)
    for rnd in [Round((Game((1, 2, 9), (1, 2, 3)),)),
                Round((Game((1, 2, 3), (1, 2, 3)),), byes=(1,))]:
        with pytest.raises(ValueError):
            standings(three, [rnd])


def test_seat_table_balances_every_seat_not_only_the_first():
    # player 7 has sat second five times and first once; 8 has never played: 7 goes first
    counts = {7: Counter({0: 1, 1: 5})}
    assert seat_table([8, 7], counts) == (7, 8)
    assert seat_table([8, 7], {}) == (8, 7)  # level: the better placed sits first


def test_one_table_over_many_rounds_rotates_through_every_seat():
    """The same four at one table: each round's seats complete a Latin rectangle, so after
    k rounds everyone has had every seat k / 4 times, give or take one."""
    four = entrants(4)
    rounds = []
    for number in range(1, 10):
        pairing = pair_round(four, rounds)
        rounds.append(played(pairing, [(1, 2, 3, 4)]))
        for c in seat_counts(rounds).values():
            assert max(c[s] for s in range(4)) - min(c[s] for s in range(4)) <= 1
            assert sum(c.values()) == number


# --- the property test ---------------------------------------------------------------------


def reference_points(places):
    """Place points written another way: (n - the average position among those level) /
    (n - 1), the position counted from 1."""
    n = len(places)
    return [F(2 * n - 2 * p - (places.count(p) - 1), 2 * (n - 1)) for p in places]


def reference_standings(players, rounds):
    """Points and both tie breaks computed plainly, from every (player, game) pair."""
    points = {e.id: F(0) for e in players}
    for rnd in rounds:
        for p in rnd.byes:
            points[p] += F(1, 2)
        for g in rnd.games:
            for p, gained in zip(g.seats, reference_points(list(g.places)), strict=True):
                points[p] += gained
    per_game = {e.id: [] for e in players}
    for rnd in rounds:
        for g in rnd.games:
            for i, p in enumerate(g.seats):
                others = [(q, g.places[j]) for j, q in enumerate(g.seats) if j != i]
                avg = sum(points[q] for q, _ in others) / len(others)
                sb = sum(points[q] * (1 if g.places[i] < pl else F(1, 2) if g.places[i] == pl
                                      else 0) for q, pl in others) / len(others)
                per_game[p].append((avg, sb))
    return {p: (points[p], sum(a for a, _ in g) / len(g) if g else 0,
                sum(b for _, b in g) / len(g) if g else 0) for p, g in per_game.items()}


def random_places(n, rng):
    """Places as the engine gives them: scores with ties, now and then a resignation (the
    first to resign last)."""
    scores = [rng.randint(0, 4) for _ in range(n)]
    resigned = rng.sample(range(n), rng.choice([0] * 6 + [1, 2]) if n > 2 else 0)
    places = [0] * n
    live = [s for s in range(n) if s not in resigned]
    for s in live:
        places[s] = 1 + sum(scores[t] > scores[s] for t in live)
    for k, s in enumerate(resigned, 1):
        places[s] = n - k + 1
    return tuple(places)


def random_tournament(seed):
    rng = random.Random(seed)
    n, total = rng.randint(3, 25), rng.randint(1, 7)
    max_size = rng.choice((3, 4))
    min_size = rng.choice((2, 3))
    players = []
    for i in range(1, n + 1):
        joined = rng.randint(2, total) if total > 1 and rng.random() < 0.15 else 1
        withdrew = rng.randint(joined + 1, total + 1) if rng.random() < 0.15 else None
        players.append(Entrant(i * 7 % 101, rng.randint(1000, 2000), joined, withdrew))
    return rng, players, total, max_size, min_size


def check_pairing(pairing, players, rounds, max_size, min_size):
    number = len(rounds) + 1
    active = sorted(e.id for e in players if e.plays_in(number))
    seated = [p for t in pairing.tables for p in t]
    assert sorted(seated + list(pairing.byes)) == active  # once each, no one else
    sizes, byes = table_sizes(len(active), max_size, min_size)
    assert tuple(sorted(map(len, pairing.tables), reverse=True)) == sizes
    assert len(pairing.byes) == byes
    assert all(min_size <= len(t) <= max_size for t in pairing.tables)
    had = bye_counts(rounds)
    assert all(had[b] <= had[s] for b in pairing.byes for s in seated)
    if any(had[b] for b in pairing.byes):  # a second bye: everyone seated has one too
        assert all(had[s] for s in seated)
    counts = seat_counts(rounds)
    for t in pairing.tables:  # no seating of the table gives seats less sat in
        cost = sum(counts.get(p, Counter())[s] for s, p in enumerate(t))
        assert cost == min(sum(counts.get(p, Counter())[s] for s, p in enumerate(perm))
                           for perm in permutations(t))
    met = meetings(rounds)

    def repeats(t):
        return sum(met[(a, b)] ** 2 for a, b in combinations(sorted(t), 2))

    tables = pairing.tables
    for i, j in combinations(range(len(tables)), 2):  # no swap cuts the repeats
        now = repeats(tables[i]) + repeats(tables[j])
        for a in range(len(tables[i])):
            for b in range(len(tables[j])):
                ti = tables[i][:a] + (tables[j][b],) + tables[i][a + 1:]
                tj = tables[j][:b] + (tables[i][a],) + tables[j][b + 1:]
                assert repeats(ti) + repeats(tj) >= now


def check_standings(players, rounds, tally):
    lines = standings(players, rounds)
    expected = reference_standings(players, rounds)
    for line in lines:
        assert (line.points, line.opponents_average, line.sonneborn_berger) == expected[line.id]
        assert line.points == tally[line.id]  # from scratch = the running total
    merits = [(-s.points, -s.opponents_average, -s.sonneborn_berger, -s.wins) for s in lines]
    assert merits == sorted(merits)
    for k, line in enumerate(lines):
        assert line.rank == (lines[k - 1].rank if k and merits[k] == merits[k - 1] else k + 1)
    # the order of the games in a round changes nothing
    shuffled = [Round(tuple(reversed(r.games)), tuple(reversed(r.byes))) for r in rounds]
    assert standings(players, shuffled) == lines


def test_random_tournaments():
    """300 seeded tournaments of 3–25 players, 1–7 rounds, tables of 3–4 or 2–4 (or 2–3,
    3 only), random places with ties and resignations, late joiners and withdrawals: every
    rule checked each round. What no rule can promise, a player's seat counts within one of
    each other, is measured: with these seeds 95% of the players end within one and none
    beyond two (docs/tournaments-express-swiss.md); a change that spoils it fails here."""
    tournaments = rounds_played = 0
    spreads: Counter[int] = Counter()
    for seed in range(300):
        rng, players, total, max_size, min_size = random_tournament(seed)
        rounds, tally = [], {e.id: F(0) for e in players}
        for number in range(1, total + 1):
            if sum(e.plays_in(number) for e in players) < min_size:
                with pytest.raises(ValueError):
                    pair_round(players, rounds, max_size=max_size, min_size=min_size)
                break
            pairing = pair_round(players, rounds, max_size=max_size, min_size=min_size)
            check_pairing(pairing, players, rounds, max_size, min_size)
            if seed % 10 == 0:  # recomputed, the same (a tenth of them: CPU)
                again = pair_round(players, rounds, max_size=max_size, min_size=min_size)
                assert again == pairing
            rnd = Round(tuple(Game(t, random_places(len(t), rng)) for t in pairing.tables),
                        pairing.byes)
            for g in rnd.games:
                for p, gained in zip(g.seats, place_points(g.places), strict=True):
                    tally[p] += gained
            for p in rnd.byes:
                tally[p] += BYE_POINTS
            rounds.append(rnd)
            rounds_played += 1
            check_standings(players, rounds, tally)
        spreads.update(seat_spreads(rounds))
        tournaments += 1
    assert tournaments == 300 and rounds_played == 1155
    assert max(spreads) <= 2 and spreads[0] + spreads[1] >= 0.95 * sum(spreads.values())


def seat_spreads(rounds):
    """Each player's most sat seat count less their least, over the seats of the smallest
    table they sat at."""
    counts = seat_counts(rounds)
    for player, count in counts.items():
        k = min(len(g.seats) for r in rounds for g in r.games if player in g.seats)
        yield max(count[s] for s in range(k)) - min(count[s] for s in range(k))
