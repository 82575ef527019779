"""Cargo Express results through the finish seam (issue #26), the games other than
test_express_results.py's rated three-seat game: a casual game counts on the profile and
rates nobody; a rated leaver takes last place while a bot plays the seat on."""

import pytest
from django.test import Client

from accounts.models import SeatStats
from games import services
from games.actors import Actor
from games.models import Game
from games.turns.store import live
from rankings.models import Rating
from tests.games.express_support import KIND, express_game, play_out

pytestmark = pytest.mark.django_db


def test_a_casual_game_counts_on_the_profile_and_rates_nobody(users, commit):
    members = [users[n] for n in ("alice", "bob")]
    game = commit(express_game, members, rated=False)
    play_out(game.id, [Actor.member(u) for u in members], commit)
    assert not Rating.objects.filter(game_type="cargo-express").exists()
    assert [(r.rated, r.seat_count) for r in SeatStats.objects.filter(game=game)] == [
        (False, 2), (False, 2)]


def test_a_rated_leaver_takes_last_place_and_a_bot_plays_the_seat_on(users, commit, eager):
    members = [users[n] for n in ("alice", "bob", "carol")]
    actors = [Actor.member(u) for u in members]
    game = commit(express_game, members, rated=True, time_control="15+10")
    for _ in range(12):  # the picks and the plans of the first round, and a turn or two
        row = services.get_game(game.id)
        lg = live(row)
        seat = lg.acting()[0]
        token = KIND.bot_decision(lg.redacted(seat), seat, "easy", 1)
        if lg.p.phase == "a" and ":" in token:
            token = token.partition(":")[2].split(".")[0]
        commit(services.apply_turn, game.id, actor=actors[seat], ply=lg.sequence(seat),
               token=token)
    commit(services.resign, game.id, actor=actors[1])  # bob leaves
    assert services.get_game(game.id).status == Game.Status.ACTIVE  # the others play on
    row = play_out(game.id, actors, commit)
    places = {s.user.username: s.place for s in row.seat_list}
    assert places["bob"] == 3 and sorted(places.values())[:2] in ([1, 2], [1, 1])
    bob = SeatStats.objects.get(game=row, user=users["bob"])
    assert (bob.place, bob.resigned, bob.rated) == (3, True, True)
    assert Rating.objects.get(user=users["bob"], game_type="cargo-express").value < 1200
    html = Client().get("/@/bob").content.decode()
    recent = html[html.index('class="game-list recent-games"'):]
    assert ">3rd of 3: left the game</a>" in recent
