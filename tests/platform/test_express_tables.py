"""Cargo Express tables in the lobby (issue #26, docs/tables.md): the seek form offers 2, 3
or 4 players, a bot level per seat and the kind's own time controls; a row says "Cargo
Express · 3 players"; people join and leave, the host starts early with bots; a 2-player
table with a bot is refused in words; a rated table takes members and no bots, a casual one
guests; a rematch keeps the players, turns the seats and draws a fresh seed."""

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from games import services
from games.actors import Actor
from games.frames.protocol import GameError
from games.models import Challenge, Game, TableSeat
from tests.games.express_support import express_game, play_out

pytestmark = pytest.mark.django_db
EXPRESS = "cargo-express"


def as_member(user):
    client = Client()
    client.force_login(user)
    return client


def seated(challenge_id):
    return [(s.index, s.user.username if s.user else s.bot_level or "guest")
            for s in TableSeat.objects.filter(challenge_id=challenge_id)
            .select_related("user").order_by("index")]


def seek(client, **fields):
    data = {"game_type": EXPRESS, "time_control": "10+5", "rated": "casual", "mode": "lobby",
            "seats": "3", **fields}
    return client.post("/play/seek", data)


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_form_offers_players_bots_per_seat_and_clocks_for_express(users):
    html = as_member(users["alice"]).get(f"/play/?game={EXPRESS}").content.decode()
    start = html.index('class="seek-form"')
    form = html[start:html.index("</form>", start)]
    assert 'name="game_type" value="cargo-express"' in form
    for n in (2, 3, 4):
        assert f'id="seats-{n}" name="seats" value="{n}"' in form
    assert 'id="seats-4" name="seats" value="4" checked' in form
    for seat in (2, 3, 4):
        assert f"<legend>Seat {seat}</legend>" in form
        for level in ("easy", "medium", "hard"):
            assert f'name="bot_{seat - 1}" value="{level}"' in form
    assert "ExpressBot Hard" in form
    assert "Bots sit only at casual 3-player and 4-player tables, at most 2" in form
    offered = [code for code in ("3+2", "5+3", "10+5", "15+10", "1d", "2d", "3d", "5d", "7d",
                                 "14d", "untimed")
               if f'name="time_control" value="{code}"' in form]
    assert offered == ["5+3", "10+5", "15+10", "1d", "2d", "3d", "5d", "7d", "14d", "untimed"]
    assert 'name="time_control" value="10+5" checked' in form
    # Cargo Connect's form keeps the platform's clocks
    plain = as_member(users["alice"]).get("/play/").content.decode()
    assert 'name="time_control" value="3+2"' in plain and 'value="7d"' in plain


def test_a_clock_express_does_not_offer_is_refused_in_words(users):
    response = seek(as_member(users["alice"]), time_control="3+2")
    assert response["Location"] == f"/play/?game={EXPRESS}"
    assert "3+2 is not a time control here" in messages_of(response)[0]
    assert not Challenge.objects.exists()


def test_a_row_says_the_game_and_the_player_count(users):
    seek(as_member(users["alice"]), seats="3")
    seek(as_member(users["bob"]), seats="2", rated="rated")
    rows = {s["by"]: s for s in services.open_seeks()}
    assert rows["alice"]["options"] == "3 players" and rows["bob"]["options"] == "2 players"
    html = as_member(users["carol"]).get("/play/").content.decode()
    assert '<span class="seek-size">Cargo Express · 3 players</span>' in html
    assert '<span class="seek-size">Cargo Express · 2 players</span>' in html
    assert "3 seats, 2 free: alice (host), open, open" in html


def test_people_join_and_leave_then_the_host_starts_early_with_bots(users):
    alice, bob, carol = (as_member(users[n]) for n in ("alice", "bob", "carol"))
    seek(alice, seats="4", bot_3="hard")
    table = Challenge.objects.get()
    assert (table.game_type, table.seat_count, table.rated) == (EXPRESS, 4, False)
    assert seated(table.id) == [(0, "alice"), (3, "hard")]
    carol.post(f"/challenge/{table.id}/accept")
    assert seated(table.id) == [(0, "alice"), (1, "carol"), (3, "hard")]
    carol.post(f"/challenge/{table.id}/leave")
    bob.post(f"/challenge/{table.id}/accept")
    assert seated(table.id) == [(0, "alice"), (1, "bob"), (3, "hard")]
    page = alice.get(f"/challenge/{table.id}").content.decode()
    assert "<h1>Table: Cargo Express · 4 players</h1>" in page
    assert "The stationmaster, who goes first, is drawn from the game's secret seed." in \
        page.replace("&#x27;", "'")
    assert "Start now with bots" in page and "ExpressBot Medium" in page
    response = alice.post(f"/challenge/{table.id}/start", {"level": "medium"})
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.id}"
    holders = sorted((s.user.username if s.user else s.bot_level) for s in game.seat_list)
    assert holders == ["alice", "bob", "hard", "medium"]
    assert (game.game_type, game.rated, len(game.seat_list)) == (EXPRESS, False, 4)


def test_a_two_player_table_with_a_bot_is_refused_in_words(users):
    with pytest.raises(GameError) as refused:
        services.create_challenge(users["alice"], options={}, game_type=EXPRESS, seats=2,
                                  rated=False, time_control="10+5", bots={1: "easy"})
    assert refused.value.message == (
        "a table needs at least 2 people, so a 2-player table has room for no bot (one "
        "person with bots is a game against the bots, which tables do not make): leave "
        "that seat open or choose more players")
    with pytest.raises(GameError, match="a 3-player table has room for 1 bot:"):
        services.create_challenge(users["alice"], options={}, game_type=EXPRESS, seats=3,
                                  rated=False, time_control="10+5",
                                  bots={1: "easy", 2: "hard"})
    response = seek(as_member(users["alice"]), seats="2", bot_1="easy")
    assert "room for no bot" in messages_of(response)[0]
    assert not Challenge.objects.exists()
    # a two-player table fills with a second person and starts at once
    table = services.create_challenge(users["alice"], options={}, game_type=EXPRESS,
                                      seats=2, time_control="10+5")
    game = services.join_table(Actor.member(users["bob"]), table.id)
    assert game is not None and game.rated and len(game.seat_list) == 2


def test_a_rated_table_takes_members_and_no_bots_a_casual_one_guests(users):
    with pytest.raises(GameError, match="a rated table takes no bots"):
        services.create_challenge(users["alice"], options={}, game_type=EXPRESS, seats=3,
                                  rated=True, time_control="10+5", bots={2: "easy"})
    rated = services.create_challenge(users["alice"], options={}, game_type=EXPRESS, seats=3,
                                      rated=True, time_control="10+5")
    guest = Client()
    assert guest.post(f"/challenge/{rated.id}/accept")["Location"].startswith(
        "/accounts/login/")
    with pytest.raises(GameError, match="a rated table takes members only"):
        services.join_table(Actor.guest("some-session"), rated.id)
    services.join_table(Actor.member(users["bob"]), rated.id)
    with pytest.raises(GameError, match="a rated table takes no bots"):
        services.start_table(users["alice"], rated.id, "easy")
    game = services.join_table(Actor.member(users["carol"]), rated.id)
    assert game.rated and all(s.user_id for s in game.seat_list)

    casual = services.create_challenge(users["alice"], options={}, game_type=EXPRESS,
                                       seats=3, rated=False, time_control="10+5")
    page = guest.get(f"/challenge/{casual.id}").content.decode()
    assert "You will play as a guest" in page
    guest.post(f"/challenge/{casual.id}/accept")
    assert seated(casual.id) == [(0, "alice"), (1, "guest")]
    game = services.start_table(users["alice"], casual.id, "easy")
    assert sorted(bool(s.guest_key) for s in game.seat_list) == [False, False, True]
    assert not game.rated


def test_an_untimed_table_is_casual(users):
    table = services.create_challenge(users["alice"], options={}, game_type=EXPRESS, seats=3,
                                      time_control="")
    assert not table.rated


def test_a_rematch_keeps_the_players_turns_the_seats_and_draws_a_fresh_seed(users, commit):
    members = [users[n] for n in ("alice", "bob", "carol")]
    actors = [Actor.member(u) for u in members]
    game = commit(express_game, members, rated=False)
    play_out(game.id, actors, commit)
    commit(services.offer_rematch, game.id, actor=actors[0])
    assert services.get_game(game.id).rematch_id is None  # waits for another player
    commit(services.offer_rematch, game.id, actor=actors[2])
    old = services.get_game(game.id)
    new = services.get_game(old.rematch_id)
    assert [s.user.username for s in new.seat_list] == ["carol", "alice", "bob"]
    assert (new.game_type, new.rated, new.options, new.status) == (
        EXPRESS, False, {}, Game.Status.ACTIVE)
    kind = new.kind
    before, after = (kind.facts(g.id, g.start, False) for g in (old, new))
    assert before["seed_hash"] != after["seed_hash"]
    assert old.start.partition("\n")[2] != new.start.partition("\n")[2]  # another seed
    assert services.state_of(new, viewer=0)["seed"] is None
