"""A guest's game against CargoBot belongs to their browser session: they play it (HTTP and
WebSocket); another session watches but cannot play. CargoBot's turn, run in-process
(eager) after the guest's turn commits, reaches every socket of the game as a `turn` frame."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import Game
from rankings.models import BotRatingChange
from tests.games.bot_support import eager, human_token
from tests.games.conftest import StateCommunicator
from tests.games.support import ORIGIN, guest_key_of, receive_type, winner_of

__all__ = ["eager"]


def start_guest_game(client: Client, **fields) -> Game:
    data = {"level": "easy", "size": 5, "color": "blue", **fields}
    response = client.post("/play/bot", data)
    assert response.status_code == 302, response.content
    game = Game.objects.get(id=response["Location"].rsplit("/", 1)[1])
    return game


@pytest.mark.django_db(transaction=True)
def test_a_guest_game_belongs_to_the_browser_session(eager):
    guest, other, nobody = Client(), Client(), Client()
    other.session.save()  # a session of its own
    game = start_guest_game(guest)
    assert guest_key_of(game) and guest_key_of(game) == guest.session.session_key
    assert (game.user_at(0), game.user_at(1), game.mode, game.rated) == (None, None, "bot", False)

    page = guest.get(f"/g/{game.id}")
    state = page.context["state"]
    assert state["you"] == "blue"
    assert state["players"]["blue"] == {"name": "Guest", "title": None, "rating": None,
                                        "bot": None,
                                        "rating_kind": None, "rating_change": None,
                                        "rating_provisional": False, "left": None}
    assert state["players"]["orange"]["bot"] == "easy"
    assert guest.get("/play/").context["my_bot_games"] == [
        {"id": game.id, "words": "5×5 against CargoBot Easy", "you": "Blue"}]

    assert other.get(f"/g/{game.id}").context["state"]["you"] is None  # may watch
    assert other.get("/play/").context["my_bot_games"] == []
    token = human_token(state)
    refused = other.post(f"/g/{game.id}/turn", {"ply": 0, "token": token})
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_player"
    assert nobody.post(f"/g/{game.id}/turn", {"ply": 0, "token": token}).status_code == 403
    assert other.post(f"/g/{game.id}/resign").status_code == 403

    played = guest.post(f"/g/{game.id}/turn", {"ply": 0, "token": token})
    assert played.status_code == 200 and played.json()["side"] == "blue"
    events = guest.get(f"/g/{game.id}/events?after=0").json()
    assert [t["side"] for t in events["turns"]] == ["blue", "orange"]  # CargoBot replied
    assert events["state"]["you"] == "blue" and events["state"]["to_move"] == "blue"

    resigned = guest.post(f"/g/{game.id}/resign", {"ply": 2})
    assert resigned.status_code == 200 and resigned.json()["side"] == "blue"
    game.refresh_from_db()
    assert winner_of(game) == "orange"
    assert not BotRatingChange.objects.filter(game=game).exists()  # guests have no rating


@pytest.mark.django_db(transaction=True)
def test_a_member_playing_cargobot_is_not_a_guest(eager, users):
    client = Client()
    client.force_login(users["alice"])
    game = start_guest_game(client, color="orange", level="medium")
    assert (game.user_at(1), game.user_at(0), guest_key_of(game), game.rated) == (
        users["alice"], None, None, True)
    assert game.ply == 1  # CargoBot, Blue, moved before the page opened
    state = client.get(f"/g/{game.id}").context["state"]
    assert state["you"] == "orange" and state["players"]["orange"]["name"] == "alice"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_guest_plays_over_websocket_and_every_socket_sees_cargobots_reply(eager):
    from cargosite.asgi import application

    guest, other = Client(), Client()
    game = await database_sync_to_async(start_guest_game)(guest)
    await database_sync_to_async(lambda: other.session.save())()  # a session of its own

    async def connect(client):
        cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
        comm = StateCommunicator(application, f"/ws/game/{game.id}/", headers=[
            (b"origin", ORIGIN), (b"host", b"localhost"), (b"cookie", cookie)])
        connected, _ = await comm.connect()
        assert connected
        return comm, (await comm.receive_json_from(timeout=5))["state"]

    mine, state = await connect(guest)
    watcher, watched = await connect(other)
    assert state["you"] == "blue" and watched["you"] is None
    assert state["players"]["orange"]["bot"] == "easy" and state["to_move"] == "blue"

    await watcher.send_json_to({"type": "turn", "ply": 0, "token": human_token(state)})
    assert (await receive_type(watcher, "error"))["code"] == "not_a_player"

    for ply in (0, 2):
        await mine.send_json_to({"type": "turn", "ply": ply, "token": human_token(state)})
        for comm in (mine, watcher):
            human = await receive_type(comm, "turn")
            assert (human["ply"], human["side"]) == (ply, "blue")
            bot = await receive_type(comm, "turn", timeout=10)
            assert (bot["ply"], bot["side"]) == (ply + 1, "orange")
            assert bot["events"] and all(e["ply"] == ply + 1 for e in bot["events"])
            assert bot["state"]["to_move"] == "blue" and bot["state"]["ply"] == ply + 2
        state = {**bot["state"], "you": "blue"}

    await mine.send_json_to({"type": "resign", "ply": 4})
    resigned = await receive_type(watcher, "resigned")
    assert resigned["side"] == "blue" and resigned["state"]["over"]
    await mine.disconnect()
    await watcher.disconnect()
