"""A kind rated by OpenSkill (the test-only Bid, three or four members in a rated online
game): each member's rating of that game type moves by the finishing places (shared places
tie), Cargo Connect's do not; a void takes it back exactly; the finished game's state shows
every seat's rating before the game and its change, the live state the type's rating."""

import pytest
from openskill.models import PlackettLuce

from games import services
from games.actors import Actor
from rankings import multiplayer
from rankings.models import Rating, RatingChange
from tests.rankings.conftest import play_bids
from tests.rankings.support import set_rating

pytestmark = pytest.mark.django_db


def rows(game_type="bid", system="openskill"):
    found = Rating.objects.filter(game_type=game_type, system=system).select_related("user")
    return {r.user.username: r for r in found}


def test_each_members_bid_rating_moves_by_the_places_and_cargo_connects_does_not(
        users, rated_bid):
    set_rating(users["alice"], "elo", 1300, 12)
    set_rating(users["bob"], "vs_cargobot", 1150, 3)
    game = play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5})
    assert [s.place for s in game.seat_list] == [1, 2, 2]  # bob and carol share second

    # the numbers are OpenSkill's own, asked of the package directly
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 2])
    after = rows()
    for name, team in zip(("alice", "bob", "carol"), expected, strict=True):
        row = after[name]
        assert (row.mu, row.sigma, row.games) == (team[0].mu, team[0].sigma, 1)
        assert row.value == multiplayer.displayed(team[0].mu)
    assert after["alice"].value > 1200 > after["bob"].value == after["carol"].value

    # Cargo Connect's ratings are as they were, and nobody gained one
    assert [(r.user.username, r.system, r.value, r.games) for r in
            Rating.objects.filter(game_type="cargo-connect").select_related("user")
            .order_by("system")] == [("alice", "elo", 1300, 12), ("bob", "vs_cargobot", 1150, 3)]
    history = {c.user.username: c for c in RatingChange.objects.filter(game=game)}
    assert sorted(history) == ["alice", "bob", "carol"]
    assert all(c.before == 1200 and c.mu_before == multiplayer.START_MU for c in
               history.values())
    assert history["alice"].after == after["alice"].value


def test_the_finished_game_shows_every_seats_rating_before_it_and_its_change(
        users, rated_bid):
    game = play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5})
    play_bids(services, users, {"carol": 7, "alice": 1, "bob": 4})  # a later game
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    state = services.state_of(services.get_game(game.id))
    for seat in state["seats"]:
        change = changes[game.seat_list[seat["seat"]].user_id]
        assert (seat["rating"], seat["rating_change"], seat["rating_kind"]) == (
            1200, change.delta, "openskill")
    deltas = [s["rating_change"] for s in state["seats"]]
    assert deltas[0] > 0 > deltas[1] == deltas[2]


def test_a_game_in_play_shows_the_types_rating(users, rated_bid):
    set_rating(users["alice"], "elo", 1300, 12)  # Cargo Connect's: not this game's
    play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5})
    now = rows()
    game = services.create_game(game_type="bid", options={"rounds": 1},
                                seats=[Actor.member(users[n]) for n in ("alice", "bob", "dave")])
    state = services.state_of(services.get_game(game.id))
    shown = [(s["rating"], s["rating_kind"]) for s in state["seats"]]
    assert shown == [(now["alice"].value, "openskill"), (now["bob"].value, "openskill"),
                     (1200, "openskill")]


def test_a_void_takes_the_change_back_exactly(users, rated_bid):
    first = play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5, "dave": 3})
    services.void_game(first.id, "a cheater")
    for row in rows().values():  # back at the start, with no game
        assert row.mu == pytest.approx(multiplayer.START_MU, abs=1e-9)
        assert row.sigma == pytest.approx(multiplayer.START_SIGMA, abs=1e-9)
        assert (row.value, row.games) == (1200, 0)
    assert not RatingChange.objects.exists()

    first = play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5})
    mid = rows()
    play_bids(services, users, {"carol": 7, "alice": 1, "bob": 4})  # a later game stands
    later = rows()
    services.void_game(first.id, "a cheater")
    back = rows()
    for name in ("alice", "bob", "carol"):
        moved = (mid[name].mu - multiplayer.START_MU, mid[name].sigma - multiplayer.START_SIGMA)
        assert back[name].mu == pytest.approx(later[name].mu - moved[0], abs=1e-9)
        assert back[name].sigma == pytest.approx(later[name].sigma - moved[1], abs=1e-9)
        assert back[name].value == multiplayer.displayed(back[name].mu)
        assert back[name].games == 1
    assert RatingChange.objects.filter(game=first).count() == 0


def test_unrated_games_and_games_with_a_guest_move_nothing(users, rated_bid):
    play_bids(services, users, {"alice": 9, "bob": 5, "carol": 5}, rated=False)
    game = services.create_game(game_type="bid", options={"rounds": 1},
                                seats=[Actor.member(users["alice"]), Actor.member(users["bob"]),
                                       Actor.guest("g-1")])
    for i, actor in enumerate(game.seat_list):
        services.apply_turn(game.id, actor=_actor(users, actor), ply=0, token=f"b{i + 1}")
    assert services.get_game(game.id).status == "finished"
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def _actor(users, seat):
    if seat.user_id is None:
        return Actor.guest("g-1")
    return Actor.member(next(u for u in users.values() if u.pk == seat.user_id))
