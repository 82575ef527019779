"""The migration to ratings per game type (rankings 0003, accounts 0004), run by Django's
migration executor on the test database: every Player's Cargo Connect Elo and vs CargoBot
rating and their counts arrive unchanged in Cargo Connect's rows, and the reverse puts them
back. Then rankings 0004: `Rating.kind` renamed `system`, values, constraint and index
kept."""

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


RENAMED = [("rankings", "0004_rating_system")]


def test_the_kind_column_becomes_system_with_its_constraint_and_index(at_the_old_schema):
    """rankings 0004: the values stay, the unique constraint and the board's index keep
    their names and now cover `system`; and back."""
    old = migrate(AFTER)
    User, Rating = old.get_model("auth", "User"), old.get_model("rankings", "Rating")
    alice = User.objects.create(username="alice")
    Rating.objects.create(user=alice, game_type="cargo-connect", kind="elo", value=1387)
    Rating.objects.create(user=alice, game_type="bid", kind="openskill", value=1290, mu=27.5,
                          sigma=6.0)

    new = migrate(RENAMED)
    Rating = new.get_model("rankings", "Rating")
    assert {(r.game_type, r.system, r.value, r.mu) for r in Rating.objects.all()} == {
        ("cargo-connect", "elo", 1387, None), ("bid", "openskill", 1290, 27.5)}
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "rankings_rating")
        columns = [c.name for c in connection.introspection.get_table_description(
            cursor, "rankings_rating")]
    assert "system" in columns and "kind" not in columns
    assert constraints["rankings_rating_once"]["columns"] == ["user_id", "game_type", "system"]
    assert constraints["rankings_rating_once"]["unique"]
    assert constraints["rankings_rating_board"]["columns"] == ["game_type", "system", "value"]

    back = migrate(AFTER)  # and back: the column is `kind` again, the values as they were
    assert set(back.get_model("rankings", "Rating").objects.values_list("kind", flat=True)) \
        == {"elo", "openskill"}
