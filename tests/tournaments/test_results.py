"""A finished tournament's results (tournaments/results.py; docs/tournaments.md, "Results on
profiles and achievements"): each entrant's final place written when it finishes (a Swiss's
shared places, an arena's podium), `tournament_finished` after commit with those places,
the achievements it earns (first tournament, podium, win: once each, with no game), and a
member's results on their profile."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.models import EarnedAchievement
from games import services as games
from games.actors import Actor
from tests.tournaments.test_arena_site import active, arena, entered
from tests.tournaments.test_swiss_services import (
    current,
    finish_express,
    members,
    resign_second_seats,
    round_games,
    swiss,
)
from tournaments import arenas, results, rounds, services
from tournaments.models import Entry, Tournament
from tournaments.signals import tournament_finished

pytestmark = pytest.mark.django_db


def held(user) -> set[str]:
    return set(EarnedAchievement.objects.filter(user=user).values_list("key", flat=True))


@pytest.fixture
def heard():
    got: list[dict] = []

    def receiver(sender, **kwargs):
        got.append(kwargs)

    tournament_finished.connect(receiver, dispatch_uid="test.heard")
    yield got
    tournament_finished.disconnect(dispatch_uid="test.heard")


def test_a_swiss_end_writes_the_places_and_earns_the_achievements(
        heard, django_capture_on_commit_callbacks):
    t = swiss("cargo-express", rounds_=2, table_size=3)
    people = members(6)
    for member in people:
        services.join(t, member)
    rounds.advance(t.id)
    with django_capture_on_commit_callbacks(execute=True):
        for _round in (1, 2):
            for game in round_games(current(t)):
                finish_express(game)
            rounds.advance(t.id)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    lines = services.standings(t)
    ranks = {e.user_id: e.final_rank for e in Entry.objects.filter(tournament=t)}
    assert ranks == {line.user_id: line.rank for line in lines}  # all played: the ranks
    assert len(heard) == 1 and heard[0]["tournament"].pk == t.pk
    assert heard[0]["places"] == ranks
    for member in people:
        place = ranks[member.pk]
        expected = {"first_tournament"} | ({"tournament_podium"} if place <= 3 else set()) \
            | ({"tournament_win"} if place == 1 else set())
        assert held(member) >= expected and not {"tournament_podium", "tournament_win"} & (
            held(member) - expected)
    won = EarnedAchievement.objects.filter(key="tournament_win")
    assert won.exists() and all(e.game_id is None and e.earned_at == t.finished_at
                                for e in won)
    totals = results.member_totals(next(p for p in people if ranks[p.pk] == 1))
    assert totals == {"played": 1, "won": 1, "podiums": 1}


def test_an_arena_end_places_those_who_played_and_its_podium(
        heard, django_capture_on_commit_callbacks):
    t = arena()
    people = members(5)
    entered(t, people[:4])
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    idle = people[4]
    services.join(t, idle)
    services.pause(t, idle)  # joined, never played
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - dt.timedelta(hours=2))
    for p in active(t):
        with django_capture_on_commit_callbacks(execute=True):
            games.resign(p.game_id, actor=Actor.member(p.orange.user))
    with django_capture_on_commit_callbacks(execute=True):
        arenas.pair(t.id)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    ranks = {e.user_id: e.final_rank for e in Entry.objects.filter(tournament=t)}
    assert ranks[idle.pk] is None and sorted(r for r in ranks.values() if r) == [1, 2, 3, 4]
    podium = arenas.podium(t)
    by_entry = {e.id: e.user_id for e in Entry.objects.filter(tournament=t)}
    assert [ranks[by_entry[s.id]] for s in podium] == [1, 2, 3]
    assert len(heard) == 1 and idle.pk not in heard[0]["places"]
    assert held(idle) == set()
    fourth = next(u for u, r in ranks.items() if r == 4)
    assert {"first_tournament"} <= held(people[[p.pk for p in people].index(fourth)])
    assert "tournament_podium" not in held(people[[p.pk for p in people].index(fourth)])


def test_a_cancelled_tournament_places_nobody_and_a_second_win_earns_nothing_new(
        heard, django_capture_on_commit_callbacks):
    empty = swiss(rounds_=2)
    services.join(empty, members(1, "solo")[0])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.advance(empty.id)
    empty.refresh_from_db()
    assert empty.status == Tournament.Status.CANCELLED and heard == []

    people = members(2)
    for when in (1, 2):
        t = swiss(rounds_=1)
        for member in people:
            services.join(t, member)
        rounds.advance(t.id)
        resign_second_seats(current(t), django_capture_on_commit_callbacks)
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED, when
    winner = next(p for p in people if "tournament_win" in held(p))
    assert EarnedAchievement.objects.filter(user=winner, key="tournament_win").count() == 1
    assert len(heard) == 2


def test_the_profile_lists_the_members_results(client, django_capture_on_commit_callbacks):
    people = members(2)
    t = swiss(rounds_=1)
    for member in people:
        services.join(t, member)
    rounds.advance(t.id)
    resign_second_seats(current(t), django_capture_on_commit_callbacks)
    winner = Entry.objects.get(tournament=t, final_rank=1).user
    html = client.get(f"/@/{winner.username}").content.decode()
    assert "Tournaments" in html and f'href="/tournaments/{t.id}/"' in html
    assert "1st <span class=\"small muted\">of 2</span>" in html
    assert 'class="tournaments-won">1<' in html and 'class="tournaments-played">1<' in html
    assert 'data-key="tournament_win"' in html
    other = members(1, "new")[0]
    html = client.get(f"/@/{other.username}").content.decode()
    assert "No finished tournament yet." in html
