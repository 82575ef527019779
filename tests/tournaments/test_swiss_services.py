"""The Swiss tournament through its services, with the database: Cargo Connect paired by
the Dutch system and Cargo Express at tables of three, played to the end; byes, late
entries, withdrawals, forfeits; the standings recomputed from scratch against the points
kept round by round; refusals that change nothing (docs/tournaments.md)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services as games
from games.actors import Actor
from games.models import Game
from tournaments import rounds, services
from tournaments.models import Entry, Round, Sitting, Table, Tournament
from tournaments.standings import express_entrants, express_rounds, load
from tournaments.swiss import express_tables

pytestmark = pytest.mark.django_db
START = timezone.now() - dt.timedelta(minutes=1)


def members(n: int, prefix: str = "p") -> list:
    User = get_user_model()
    return [User.objects.create_user(f"{prefix}{i}", f"{prefix}{i}@example.com", "a-long-pass")
            for i in range(n)]


def swiss(game_type: str = "cargo-connect", rounds_: int = 3, **kw) -> Tournament:
    """A Swiss due now. No pause between rounds unless asked (`round_pause`): these tests
    are of the rounds themselves; the pause has its own (test_round_pause.py)."""
    kw.setdefault("options", {"size": 5} if game_type == "cargo-connect" else {})
    kw.setdefault("round_pause", 0)
    return services.create_tournament(name="Test Swiss", game_type=game_type, rounds=rounds_,
                                      starts_at=START, **kw)


def current(t: Tournament) -> Round:
    return t.round_set.order_by("-number").first()


def round_games(rnd: Round) -> list[Game]:
    return [games.get_game(table.game_id) for table in rnd.tables.exclude(game=None)]


def no_one_twice(rnd: Round) -> None:
    entries = list(Sitting.objects.filter(round=rnd).values_list("entry_id", flat=True))
    assert len(entries) == len(set(entries))


def points_kept(t: Tournament) -> dict[int, Fraction]:
    return {e.id: Fraction(e.points) for e in Entry.objects.filter(tournament=t)}


def points_recomputed(t: Tournament) -> dict[int, Fraction]:
    return {line.entry_id: line.points for line in services.standings(t)}


def resign_second_seats(rnd: Round, django_capture_on_commit_callbacks) -> None:
    """Every game of the round ends: the second seat resigns (the first wins); the finish
    seam's handler then sends `tournaments.advance` after commit."""
    for game in round_games(rnd):
        member = game.seat_list[1].user
        with django_capture_on_commit_callbacks(execute=True):
            games.resign(game.id, actor=Actor.member(member))


def test_a_cargo_connect_swiss_of_five_over_three_rounds(django_capture_on_commit_callbacks):
    t = swiss()
    people = members(5)
    for member in people:
        services.join(t, member)
    assert services.tick() == [f"{t.id}: round 1 started"]
    byes: Counter[int] = Counter()
    for number in (1, 2, 3):
        t.refresh_from_db()
        rnd = current(t)
        assert rnd.number == number and t.status == Tournament.Status.RUNNING
        no_one_twice(rnd)
        tables = list(rnd.tables.all())
        assert [tb.bye for tb in tables] == [False, False, True]  # 2 boards and a bye
        byes.update(s.entry_id for tb in tables if tb.bye for s in tb.sittings.all())
        assert all(len(g.seat_list) == 2 and g.mode == Game.Mode.ONLINE and g.rated
                   for g in round_games(rnd))
        resign_second_seats(rnd, django_capture_on_commit_callbacks)
        rnd.refresh_from_db()
        assert rnd.finished_at is not None
        assert points_kept(t) == points_recomputed(t)
    assert max(byes.values()) == 1 and len(byes) == 3  # never twice to one entrant
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.round_set.count() == 3
    assert services.tick() == []  # nothing more happens
    assert sum(points_kept(t).values()) == 3 * 3  # 2 games and a bye a round, 1 point each
    table = services.standings(t)
    assert [line.rank for line in table][0] == 1
    assert table == services.standings(t)  # a function of the stored rows


def test_a_cargo_express_swiss_of_six_over_two_rounds_at_tables_of_three():
    t = swiss("cargo-express", rounds_=2, table_size=3)
    people = members(6)
    for member in people:
        services.join(t, member)
    rounds.advance(t.id)
    for number in (1, 2):
        rnd = current(t)
        assert rnd.number == number
        no_one_twice(rnd)
        played = round_games(rnd)
        assert [len(g.seat_list) for g in played] == [3, 3] and not rnd.tables.filter(
            game=None).exists()
        if number == 2:  # the stored tables are the pure module's, seats rotated
            stored = load(t)
            expected = express_tables.pair_round(express_entrants(stored),
                                                 express_rounds(stored), max_size=3)
            seated = tuple(tuple(s.entry_id for s in tb.sittings.order_by("seat"))
                           for tb in rnd.tables.order_by("number"))
            assert seated == expected.tables
        for game in played:
            finish_express(game)
        assert rounds.advance(t.id) in ("round 2 started", "finished")
        assert points_kept(t) == points_recomputed(t)
    first_seats = Counter(Sitting.objects.filter(round__tournament=t, seat=0)
                          .values_list("entry_id", flat=True))
    assert max(first_seats.values()) == 1  # nobody took the first seat twice
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert sum(points_kept(t).values()) == 2 * 2 * Fraction(3, 2)  # a table's points: 3/2


def finish_express(game: Game) -> None:
    """Every seat picks its character (the game has started); then the seats leave in
    order, the last person's leaving scores the game as it stands."""
    from games.turns.store import live
    from tests.games.test_warm_express import decide

    holders = [s.user for s in game.seat_list]
    while live(games.get_game(game.id)).p.phase != "p":
        decide(game.id, holders, live(games.get_game(game.id)).acting()[0])
    for seat in (2, 1, 0):
        games.resign(game.id, actor=Actor.member(holders[seat]))
    assert games.get_game(game.id).status == Game.Status.FINISHED


def test_a_withdrawn_player_is_never_paired_and_a_late_joiner_is(
        django_capture_on_commit_callbacks):
    t = swiss(rounds_=3)
    a, b, c, d, late = members(5)
    for member in (a, b, c, d):
        services.join(t, member)
    rounds.advance(t.id)
    services.withdraw(t, d)
    services.join(t, late)  # paired from round 2
    with pytest.raises(services.TournamentError, match="withdrew"):
        services.join(t, d)
    resign_second_seats(current(t), django_capture_on_commit_callbacks)
    rnd = current(t)
    assert rnd.number == 2
    seated = set(Sitting.objects.filter(round=rnd).values_list("entry__user", flat=True))
    assert seated == {a.pk, b.pk, c.pk, late.pk}
    with pytest.raises(services.TournamentError, match="still being played"):
        services.start_round(t)  # nobody gets a second game of the tournament at once
    no_one_twice(rnd)


def test_an_absent_player_loses_by_forfeit_and_is_withdrawn_after_two():
    t = swiss(rounds_=3)
    a, b = members(2)
    services.join(t, a)
    services.join(t, b)
    rounds.advance(t.id)
    for number in (1, 2):
        rnd = current(t)
        assert rnd.number == number
        (game,) = round_games(rnd)
        absent = game.seat_list[0].user  # the first seat never moves
        later = rnd.started_at + rounds.ABSENT_AFTER + dt.timedelta(seconds=1)
        assert rounds.advance(t.id, rnd.started_at) == ""  # not yet
        rounds.advance(t.id, later)
        sitting = Sitting.objects.get(round=rnd, entry__user=absent)
        assert sitting.forfeit and games.get_game(game.id).status == Game.Status.FINISHED
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t)}
    assert [e.absences for e in entries.values()] in ([1, 1], [2, 0], [0, 2])
    t.refresh_from_db()
    # with seats alternating, each missed one round or one missed both and was withdrawn
    withdrawn = [e for e in entries.values() if e.withdrawn]
    assert all(e.absences == 2 for e in withdrawn)
    assert points_kept(t) == points_recomputed(t)


def test_bad_input_is_refused_and_changes_nothing():
    (member,) = members(1)
    before = Tournament.objects.count()
    for kw, words in [({"game_type": "chess"}, "unknown game"), ({"rounds_": 0}, "rounds"),
                      ({"time_control": "5 min"}, "time control"),
                      ({"rated": True, "bots_allowed": True}, "bots"),
                      ({"table_size": 3}, "two")]:
        with pytest.raises(services.TournamentError, match=words):
            swiss(**kw)
    with pytest.raises(services.TournamentError, match="3 or 4|tables of"):
        swiss("cargo-express", table_size=2)
    assert Tournament.objects.count() == before
    private = swiss(password="s3cret", rated=False)
    assert private.private and private.password != "s3cret"
    with pytest.raises(services.TournamentError, match="wrong password"):
        services.join(private, member, "nope")
    services.join(private, member, "s3cret")
    with pytest.raises(services.TournamentError, match="already joined"):
        services.join(private, member, "s3cret")
    assert Entry.objects.filter(tournament=private).count() == 1
    over = swiss()
    Tournament.objects.filter(pk=over.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(services.TournamentError, match="over"):
        services.join(over, member)
    assert not Entry.objects.filter(tournament=over).exists()


def test_a_member_may_create_a_few_and_too_few_players_cancel():
    (member,) = members(1)
    for _ in range(services.MEMBER_OPEN_TOURNAMENTS):
        swiss(created_by=member)
    with pytest.raises(services.TournamentError, match="at once"):
        swiss(created_by=member)
    lonely = swiss()
    services.join(lonely, member)
    assert rounds.advance(lonely.id) == "cancelled: too few players"
    assert not Table.objects.exists()
