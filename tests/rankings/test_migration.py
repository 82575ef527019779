"""The migration to ratings per game type (rankings 0003, accounts 0004), run by Django's
migration executor on the test database: every Player's Cargo Connect Elo and vs CargoBot
rating and their counts arrive unchanged in Cargo Connect's rows, and the reverse puts them
back."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0003_profile_stats"), ("rankings", "0002_daily_boards")]
AFTER = [("accounts", "0004_ratings_moved"), ("rankings", "0003_ratings_per_game_type")]
PLAYERS = {  # username: (rating, rated_games, bot_rating, bot_games)
    "alice": (1387, 41, 1033, 7),
    "bob": (1200, 0, 1200, 0),
    "carol": (962, 29, 1611, 130),
}


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_the_old_schema():
    yield migrate(BEFORE)
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())  # the test database as the others expect


def test_every_players_ratings_are_copied_unchanged(at_the_old_schema):
    old = at_the_old_schema
    User, Player = old.get_model("auth", "User"), old.get_model("accounts", "Player")
    for name, (rating, rated_games, bot_rating, bot_games) in PLAYERS.items():
        user = User.objects.create(username=name)
        Player.objects.create(user=user, rating=rating, rated_games=rated_games,
                              bot_rating=bot_rating, bot_games=bot_games)
    User.objects.create(username="dave")  # no Player row: no rating row either

    new = migrate(AFTER)
    Rating = new.get_model("rankings", "Rating")
    got = {(r.user.username, r.kind): (r.value, r.games, r.mu, r.sigma)
           for r in Rating.objects.select_related("user")}
    assert {r.game_type for r in Rating.objects.all()} == {"cargo-connect"}
    assert got == {
        **{(n, "elo"): (p[0], p[1], None, None) for n, p in PLAYERS.items()},
        **{(n, "vs_cargobot"): (p[2], p[3], None, None) for n, p in PLAYERS.items()},
    }
    assert {f.name for f in new.get_model("accounts", "Player")._meta.get_fields()} >= {"user"}
    assert not {"rating", "rated_games", "bot_rating", "bot_games"} & {
        f.name for f in new.get_model("accounts", "Player")._meta.get_fields()}

    back = migrate(BEFORE)  # and back
    Player = back.get_model("accounts", "Player")
    assert {p.user.username: (p.rating, p.rated_games, p.bot_rating, p.bot_games)
            for p in Player.objects.select_related("user")} == PLAYERS
