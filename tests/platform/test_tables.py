"""Tables of N seats (docs/tables.md), proved with the test-only three-seat Pile offered in
the lobby: people join and leave until the start, the host removes someone or starts early
with bots in the empty seats, seats are drawn or placed, a rated table refuses bots and
guests, the lobby draws the kind's options, and the lobby socket tells about joins and
leaves."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import kinds, services
from games.actors import Actor
from games.models import Challenge, Game, TableSeat
from tests.games.support import receive_type
from tests.platform.pile_kind import Pile

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(django_user_model):
    return django_user_model.objects.create_user("dave", "dave@example.com",
                                                 "a-long-cargo-pass")


def as_member(user):
    client = Client()
    client.force_login(user)
    return client


def seated(challenge_id):
    return [(s.index, s.user.username if s.user else s.bot_level or "guest")
            for s in TableSeat.objects.filter(challenge_id=challenge_id)
            .select_related("user").order_by("index")]


def test_people_join_and_leave_then_the_host_starts_early_with_a_bot(lobby_pile, users):
    alice, bob, carol = (as_member(users[n]) for n in ("alice", "bob", "carol"))
    alice.post("/play/seek", {"game_type": "pile", "counters": "11", "time_control": "untimed",
                              "rated": "casual", "mode": "lobby"})
    table = Challenge.objects.get()
    assert (table.game_type, table.seat_count, table.options, table.rated, table.placed) == (
        "pile", 3, {"counters": 11}, False, False)
    assert seated(table.id) == [(0, "alice")]

    assert bob.post(f"/challenge/{table.id}/accept")["Location"] == f"/challenge/{table.id}"
    assert seated(table.id) == [(0, "alice"), (1, "bob")]
    page = bob.get(f"/challenge/{table.id}").content.decode()
    assert "You sit at this table" in page and "Leave the table" in page
    assert bob.post(f"/challenge/{table.id}/leave")["Location"] == "/play/"
    assert seated(table.id) == [(0, "alice")]
    carol.post(f"/challenge/{table.id}/accept")
    assert seated(table.id) == [(0, "alice"), (1, "carol")]
    info = services.open_seeks()[0]
    assert (info["seat_count"], info["free"], info["people"], info["host"]) == (
        3, 1, ["alice", "carol"], "alice")

    # only the host starts it, and the host sees Start now with bots
    assert carol.post(f"/challenge/{table.id}/start", {"level": "easy"})["Location"] == \
        f"/challenge/{table.id}"
    assert not Game.objects.exists()
    page = alice.get(f"/challenge/{table.id}").content.decode()
    assert "Start now with bots" in page and 'name="level" value="easy" checked' in page
    response = alice.post(f"/challenge/{table.id}/start", {"level": "easy"})
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.id}"
    holders = sorted((s.user.username if s.user else f"bot {s.bot_level}")
                     for s in game.seat_list)
    assert holders == ["alice", "bot easy", "carol"]
    assert (game.game_type, game.options, game.rated, game.mode) == (
        "pile", {"counters": 11}, False, "online")
    table.refresh_from_db()
    assert (table.status, table.game_id) == ("accepted", game.id)
    assert services.open_seeks() == []
    # carol's table page (and its JSON) now lead to the game
    assert carol.get(f"/challenge/{table.id}")["Location"] == f"/g/{game.id}"
    assert carol.get(f"/challenge/{table.id}.json").json()["url"] == f"/g/{game.id}"


def test_the_last_free_seat_starts_the_table_and_the_host_removes_people(lobby_pile, users,
                                                                         dave):
    table = services.create_challenge(users["alice"], game_type="pile",
                                      options={"counters": 7}, time_control="", rated=False)
    services.join_table(Actor.member(users["bob"]), table.id)
    with pytest.raises(services.GameError) as refused:  # only the host removes someone
        services.leave_table(Actor.member(users["bob"]), table.id, seat=0)
    assert refused.value.code == "not_a_player"
    services.leave_table(Actor.member(users["alice"]), table.id, seat=1)  # bob removed
    assert seated(table.id) == [(0, "alice")]
    assert services.join_table(Actor.member(users["carol"]), table.id) is None
    game = services.join_table(Actor.member(dave), table.id)
    assert game is not None and not game.bot_seats
    assert {s.user.username for s in game.seat_list} == {"alice", "carol", "dave"}


def test_the_host_who_chose_a_seat_places_everyone(lobby_pile, users, dave):
    table = services.create_challenge(users["alice"], game_type="pile", color="green",
                                      options={"counters": 7}, time_control="5+3")
    assert table.placed and seated(table.id) == [(1, "alice")]
    info = services.open_seeks()[0]
    assert (info["creator_plays"], info["taker_plays"]) == ("Green", "Red")
    client = as_member(users["bob"])
    page = client.get(f"/challenge/{table.id}").content.decode()
    assert 'aria-label="Sit at Yellow"' in page and 'aria-label="Sit at Red"' in page
    client.post(f"/challenge/{table.id}/accept", {"seat": 2})
    with pytest.raises(services.GameError):  # taken
        services.join_table(Actor.member(users["carol"]), table.id, seat=2)
    game = services.join_table(Actor.member(users["carol"]), table.id, seat=0)
    assert [s.user.username for s in game.seat_list] == ["carol", "alice", "bob"]
    assert (game.rated, game.time_control) == (True, "5+3")


def test_a_rated_table_refuses_bots_and_guests(lobby_pile, users):
    with pytest.raises(services.GameError) as refused:
        services.create_challenge(users["alice"], game_type="pile", options={"counters": 7},
                                  time_control="5+3", bots={2: "easy"})
    assert "rated table takes no bots" in refused.value.message
    table = services.create_challenge(users["alice"], game_type="pile",
                                      options={"counters": 7}, time_control="5+3")
    assert table.rated
    guest = Client()
    response = guest.post(f"/challenge/{table.id}/accept")
    assert response["Location"].startswith("/accounts/login/")
    assert guest.get(f"/challenge/{table.id}")["Location"].startswith("/accounts/login/")
    with pytest.raises(services.GameError) as refused:
        services.join_table(Actor.guest("some-session"), table.id)
    assert refused.value.code == "not_a_player"
    services.join_table(Actor.member(users["bob"]), table.id)
    with pytest.raises(services.GameError) as refused:
        services.start_table(users["alice"], table.id, "easy")
    assert "takes no bots" in refused.value.message
    assert seated(table.id) == [(0, "alice"), (1, "bob")] and not Game.objects.exists()


def test_guests_sit_at_casual_tables_and_bots_sit_where_the_host_put_them(lobby_pile, users):
    table = services.create_challenge(users["alice"], game_type="pile", color="red",
                                      options={"counters": 7}, time_control="",
                                      bots={2: "easy"})
    assert seated(table.id) == [(0, "alice"), (2, "easy")]
    with pytest.raises(services.GameError):  # one person and two bots is not a table
        services.create_challenge(users["bob"], game_type="pile", options={"counters": 7},
                                  time_control="", bots={1: "easy", 2: "easy"})
    guest = Client()
    page = guest.get(f"/challenge/{table.id}").content.decode()
    assert "You will play as a guest" in page
    response = guest.post(f"/challenge/{table.id}/accept", {"seat": 1})
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.id}"
    assert [(s.user_id is not None, bool(s.guest_key), s.bot_level) for s in game.seat_list] \
        == [(True, False, None), (False, True, None), (False, False, "easy")]
    assert guest.get(f"/challenge/{table.id}.json").json()["url"] == f"/g/{game.id}"


def test_the_lobby_draws_the_options_each_kind_describes(lobby_pile, users):
    client = as_member(users["alice"])
    html = client.get("/play/").content.decode()  # Cargo Connect first, as before
    assert 'aria-label="Game"' in html and 'href="?game=pile"' in html
    assert 'name="game_type" value="cargo-connect"' in html
    assert 'name="size" value="6" checked' in html and "<legend>Bay size</legend>" in html
    assert "Counters" not in html and 'name="bot_1"' not in html
    html = client.get("/play/?game=pile").content.decode()
    assert 'name="game_type" value="pile"' in html
    assert "<legend>Counters</legend>" in html and 'name="counters" value="7" checked' in html
    assert 'name="counters" value="11"' in html and 'name="size"' not in html.split(
        'id="bot-title"')[0]
    assert "<legend>Seat 2 (Green)</legend>" in html and 'name="bot_2" value="easy"' in html
    assert 'name="color" value="yellow"' in html and "<select" not in html
    client.post("/play/seek", {"game_type": "pile", "counters": "11", "time_control": "3+2",
                               "mode": "lobby"})
    row = client.get("/play/").content.decode()
    assert "Pile · 11 counters" in row and "3 seats, 2 free: alice (host), open, open" in row


def test_test_only_kinds_are_not_offered_unless_registered(users):
    html = as_member(users["alice"]).get("/play/").content.decode()
    # The chooser offers the site's two games, and no test-only kind.
    assert 'aria-label="Game"' in html and "Cargo Express" in html and "Pile" not in html
    plain = kinds.register(Pile())  # registered, but not offered in the lobby
    try:
        html = as_member(users["alice"]).get("/play/?game=pile").content.decode()
        assert "Pile" not in html and 'name="game_type" value="cargo-connect"' in html
        services.create_challenge(users["bob"], game_type="pile", options={"counters": 7},
                                  time_control="")
        assert services.open_seeks() == []  # its tables are not listed either
    finally:
        kinds.unregister(plain.key)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_tells_about_joins_and_leaves(lobby_pile, users, connect):
    alice = await connect("/ws/lobby/", "alice")
    carol = await connect("/ws/lobby/", "carol")
    table = await database_sync_to_async(services.create_challenge)(
        users["alice"], game_type="pile", options={"counters": 7}, time_control="")
    added = await receive_type(carol, "seek_added")
    assert added["seek"]["id"] == table.id and added["seek"]["free"] == 2
    await database_sync_to_async(services.join_table)(Actor.member(users["bob"]), table.id)
    for comm in (alice, carol):
        joined = await receive_type(comm, "seek_changed")
        assert (joined["id"], joined["change"], joined["seat"], joined["name"]) == (
            table.id, "joined", 1, "bob")
        assert joined["seek"]["free"] == 1 and joined["seek"]["by"] == "alice"
    await database_sync_to_async(services.leave_table)(Actor.member(users["bob"]), table.id)
    left = await receive_type(carol, "seek_changed")
    assert (left["change"], left["name"], left["seek"]["free"]) == ("left", "bob", 2)
    await database_sync_to_async(services.join_table)(Actor.member(users["carol"]), table.id)
    game = await database_sync_to_async(services.start_table)(users["alice"], table.id, "easy")
    assert (await receive_type(alice, "seek_removed"))["id"] == table.id
    accepted = await receive_type(carol, "seek_accepted")  # to the seated, not the starter
    assert accepted == {"type": "seek_accepted", "id": table.id, "game": game.id,
                        "url": f"/g/{game.id}"}
    for comm in (alice, carol):
        await comm.disconnect()


@pytest.fixture
def full_schema_after():
    """Put the test database back at every app's last migration (going back to games 0012
    unapplies the apps that depend on later games migrations, chat's among them), as
    tests/rankings/test_migration.py does."""
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_existing_challenges_tables_that_still_work(users,
                                                                         full_schema_after):
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = ("games", "0012_seat_timeouts"), ("games", "0013_tables")
    executor = MigrationExecutor(connection)
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps.get_model("games", "Challenge")
    old.objects.create(id="AAAAAAAAAA", creator_id=users["alice"].pk, options={"size": 6},
                       rules="0.92", seat=1, time_control="5+3")
    old.objects.create(id="BBBBBBBBBB", creator_id=users["bob"].pk, options={"size": 5},
                       rules="0.92", seat=None, time_control="")
    executor = MigrationExecutor(connection)
    executor.migrate([after])
    executor = MigrationExecutor(connection)  # then the rest: the services use today's models
    executor.migrate(executor.loader.graph.leaf_nodes())

    rated = Challenge.objects.get(id="AAAAAAAAAA")
    casual = Challenge.objects.get(id="BBBBBBBBBB")
    assert (rated.rated, rated.seat_count, seated(rated.id)) == (True, 2, [(1, "alice")])
    assert (casual.rated, casual.seat_count, seated(casual.id)) == (False, 2, [(0, "bob")])
    game = services.accept_challenge(users["carol"], rated.id)
    assert (game.user_at(0), game.user_at(1), game.rated) == (users["carol"], users["alice"],
                                                             True)
    assert not services.accept_challenge(users["carol"], casual.id).rated
