"""Cargo Express results through the finish seam (issue #26): a rated three-seat game played
to its end by people through the services gives every seat its place, moves each member's
OpenSkill rating of Cargo Express (not Cargo Connect's Elo), shows each seat's change in the
finished game's state, writes one `SeatStats` row per member with the characters it picked,
and the profile and the rankings tab show them; a void takes the rows back.

The game is played once for the module (tests.module_db) and asserted five ways; a casual
game and a leaver are in test_express_results_casual_and_leaver.py."""

import pytest
from django.contrib.auth import get_user_model

from accounts.models import SeatStats
from games import services
from games.actors import Actor
from games.models import Game
from rankings.models import Rating, RatingChange
from tests.games.express_support import KIND, express_game, play_out
from tests.module_db import module_rows, on_commit

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture(scope="module")
def module_game(django_db_setup, django_db_blocker):
    """A rated 3-seat game of alice, bob and carol, played out with a 15+10 clock: played
    once for the module (tests.module_db), each test seeing the same rows."""
    with module_rows(django_db_blocker):
        with django_db_blocker.unblock():
            members = [User.objects.create_user(n, f"{n}@example.com", "a-long-cargo-pass")
                       for n in ("alice", "bob", "carol")]
            game = on_commit(express_game, members, rated=True, time_control="15+10")
            game = play_out(game.id, [Actor.member(u) for u in members], on_commit)
        yield game.id


@pytest.fixture
def users(module_game):
    return {u.username: u for u in User.objects.filter(
        username__in=("alice", "bob", "carol"))}


@pytest.fixture
def finished(module_game):
    return services.get_game(module_game)


def test_a_rated_three_seat_game_is_placed_and_rated_by_openskill(users, finished):
    game = finished
    assert (game.status, game.termination, game.rated) == (
        Game.Status.FINISHED, Game.Termination.PLAYED_OUT, True)
    turns = list(game.turns.order_by("ply").values_list("seat", "token"))
    lg = KIND.replay(game.start, [t for _, t in turns], [s for s, _ in turns])
    result = lg.result()
    assert [s.place for s in game.seat_list] == list(result.places)
    assert [s.score for s in game.seat_list] == list(result.scores)

    rows = {r.user.username: r for r in Rating.objects.filter(game_type="cargo-express")
            .select_related("user")}
    assert sorted(rows) == ["alice", "bob", "carol"]
    assert {r.system for r in rows.values()} == {"openskill"}
    assert all(r.games == 1 for r in rows.values())
    assert not Rating.objects.filter(game_type="cargo-connect").exists()
    winner = game.seat_list[result.places.index(1)].user.username
    last = game.seat_list[result.places.index(max(result.places))].user.username
    assert rows[winner].value > 1200 > rows[last].value

    # the finished game's state: each seat's rating before the game and its change
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    for viewer in (None, 0, 1, 2):
        state = services.state_of(services.get_game(game.id), viewer=viewer)
        for seat in state["seats"]:
            change = changes[game.seat_list[seat["seat"]].user_id]
            assert (seat["rating"], seat["rating_change"], seat["rating_kind"]) == (
                1200, change.delta, "openskill")
        assert state["result"]["places"] == list(result.places)


def test_each_member_gets_a_row_with_the_characters_it_picked(users, finished):
    game = finished
    turns = list(game.turns.order_by("ply").values_list("seat", "token"))
    picks = [{} for _ in range(3)]
    for seat, token in turns:
        if token in ("Dr", "En", "Lo", "Ma", "Me"):
            picks[seat][token] = picks[seat].get(token, 0) + 1
    names = {"Dr": "Driver", "En": "Engineer", "Lo": "Logistician", "Ma": "Manager",
             "Me": "Mechanic"}
    rows = {r.seat: r for r in SeatStats.objects.filter(game=game)}
    assert sorted(rows) == [0, 1, 2]
    for seat in game.seat_list:
        row = rows[seat.index]
        assert (row.user_id, row.game_type, row.seat_count, row.rated, row.place,
                row.score) == (seat.user_id, "cargo-express", 3, True, seat.place, seat.score)
        assert row.tallies == {"character": {names[k]: n for k, n in picks[seat.index].items()}}
        assert sum(row.tallies["character"].values()) >= 5  # a pick a round, ten rounds or so


def test_the_profile_shows_places_average_score_and_favourite_character(
        users, finished, client):
    game = finished
    alice = next(s for s in game.seat_list if s.user.username == "alice")
    row = SeatStats.objects.get(game=game, user=alice.user)
    picks = row.tallies["character"]
    favourite = max(picks.items(), key=lambda item: (item[1], item[0]))
    html = client.get("/@/alice").content.decode()
    panel = html[html.index('data-game-type="cargo-express"'):]
    panel = panel[:panel.index("</section>")]
    assert '<h2 id="stats-cargo-express-h">Cargo Express</h2>' in panel
    assert '<dd class="games">1 <small>(1 rated)</small></dd>' in panel
    for place in (1, 2, 3, 4):
        count = 1 if place == alice.place else 0
        assert f'<dd class="place-{place}">{count}</dd>' in panel
    assert f'<dd class="average">{float(alice.score)}</dd>' in panel
    assert "<dt>Favourite character</dt>" in panel
    assert f'<dd class="favourite">{favourite[0]} <small>({favourite[1]}×)</small>' in panel
    # the recent games say the place at the table, not a two-player result
    ordinal = ("1st", "2nd", "3rd")[alice.place - 1]
    shared = " (shared)" if [s.place for s in game.seat_list].count(alice.place) > 1 else ""
    recent = html[html.index('class="game-list recent-games"'):]
    assert f">{ordinal} of 3{shared} with {alice.score}</a>" in recent
    assert "Cargo Express · 3 players · rated" in recent


def test_the_rankings_tab_for_cargo_express(users, finished, client):
    html = client.get("/rankings/?game=cargo-express").content.decode()
    assert 'aria-current' in html or "selected" in html
    assert "Cargo Express" in html
    # one game is short of the board's minimum: nobody is listed yet
    assert "alice" not in html


def test_a_void_takes_the_rows_back(users, finished, commit):
    commit(services.void_game, finished.id, "a test")
    assert not SeatStats.objects.filter(game=finished).exists()
    assert not RatingChange.objects.filter(game=finished).exists()
