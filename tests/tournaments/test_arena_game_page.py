"""Berserk on an arena game's own page (docs/tournaments-arena.md, "Berserk on the game
page"): the state's `extras` (games.access.extras, given by tournaments.game_extras) say
who berserked and which seats may still berserk; the button's POST
(`tournaments:berserk_game`) goes through `arenas.berserk_game`, whose refusals are words
that change nothing; both players and a spectator see the mark arrive over the game's
socket, and the button leaves with the seat's first move."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as games
from games.actors import Actor
from games.models import Game
from games.timing import clocks
from tests.games.bot_support import human_token
from tests.games.conftest import (  # noqa: F401  (fixtures; the first closes the sockets' threads)
    close_live_db_threads,
    connect,
    session_cookie,
)
from tests.tournaments.test_live_socket import frames, users  # noqa: F401  (a fixture)
from tournaments import arenas, services
from tournaments.models import Pairing, Tournament

FIVE_THREE = 5 * clocks.MINUTE


def make_arena(users, **kw) -> tuple[Tournament, Pairing]:  # noqa: F811
    """An arena of 5+3 begun a minute ago, alice and bob paired."""
    t = services.create_tournament(name="Page Arena", game_type="cargo-connect", rounds=0,
                                   starts_at=timezone.now() - dt.timedelta(minutes=1),
                                   options={"size": 5}, system="arena", duration=60,
                                   time_control=kw.pop("time_control", "5+3"), **kw)
    for name in ("alice", "bob"):
        services.join(t, users[name])
    arenas.pair(t.id)
    pairing = Pairing.objects.select_related("blue__user", "orange__user").get(tournament=t)
    return t, pairing


def extras(game_id: str, seat: int | None = None) -> dict | None:
    return games.state_of(games.get_game(game_id), viewer=seat).get("extras")


def move(pairing: Pairing) -> None:
    """The seat to act makes one turn."""
    game = games.get_game(pairing.game_id)
    seat = games.live(game).acting()[0]
    state = games.state_of(game, viewer=seat)
    user = (pairing.blue if seat == 0 else pairing.orange).user
    games.apply_turn(pairing.game_id, actor=Actor.member(user), ply=state["ply"],
                     token=human_token(state))


def post(user, game_id: str):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.post(reverse("tournaments:berserk_game", kwargs={"game_id": game_id}))


@pytest.mark.django_db
def test_each_seat_is_offered_berserk_until_its_first_move(users):  # noqa: F811
    _, p = make_arena(users)
    said = extras(p.game_id)
    assert said is not None and said["marks"] == []
    assert [(a["seat"], a["key"], a["url"]) for a in said["actions"]] == [
        (seat, "berserk", f"/tournaments/games/{p.game_id}/berserk") for seat in (0, 1)]
    assert extras(p.game_id, 1) == said  # public: the same for every viewer
    move(p)  # Blue's first move: Blue's button goes, Orange's stays
    assert [a["seat"] for a in extras(p.game_id)["actions"]] == [1]
    move(p)
    assert extras(p.game_id) == {"marks": [], "actions": []}


@pytest.mark.django_db
def test_the_buttons_berserk_marks_the_seat_and_is_refused_a_second_time(users):  # noqa: F811
    _, p = make_arena(users)
    answer = post(p.orange.user, p.game_id)
    assert answer.status_code == 200 and answer.json() == {"ok": True}
    game = games.get_game(p.game_id)
    assert game.clock["left"] == [FIVE_THREE, FIVE_THREE // 2]
    said = extras(p.game_id)
    assert [(m["seat"], m["label"]) for m in said["marks"]] == [(1, "Berserk")]
    assert [a["seat"] for a in said["actions"]] == [0]
    again = post(p.orange.user, p.game_id)
    assert again.status_code == 400
    assert again.json() == {"code": "refused", "message": "You have berserked already."}
    assert games.get_game(p.game_id).clock == game.clock


@pytest.mark.django_db
def test_refusals_are_words_that_change_nothing(users):  # noqa: F811
    _, p = make_arena(users)
    before = games.get_game(p.game_id).clock
    outsider = post(users["carol"], p.game_id)  # holds no seat
    assert outsider.status_code == 400
    assert outsider.json()["message"] == "Only the game's own players may berserk."
    move(p)  # Blue has moved
    late = post(p.blue.user, p.game_id)
    assert late.status_code == 400
    assert late.json()["message"] == "Berserk only before your first move."
    other = games.create_game(game_type="cargo-connect", mode=Game.Mode.ONLINE,
                              seats=[Actor.member(users["alice"]), Actor.member(users["bob"])],
                              time_control="5+3", options={"size": 5})
    not_arena = post(users["alice"], other.id)
    assert not_arena.status_code == 400
    assert "not an arena's" in not_arena.json()["message"]
    assert extras(other.id) is None  # no arena: no extras in its state at all
    signed_out = post(None, p.game_id)
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
    p.refresh_from_db()
    assert (p.blue_berserk, p.orange_berserk) == (False, False)
    assert games.get_game(p.game_id).clock["left"] == before["left"]


@pytest.mark.django_db
def test_an_arena_without_berserk_offers_no_button(users):  # noqa: F811
    _, p = make_arena(users, berserk=False)
    assert extras(p.game_id) == {"marks": [], "actions": []}
    assert post(p.blue.user, p.game_id).json()["message"] == \
        "This arena does not allow berserk."


@pytest.mark.django_db
def test_the_game_page_carries_the_extras_for_its_shell(users):  # noqa: F811
    _, p = make_arena(users)
    client = Client()
    client.force_login(p.blue.user)
    page = client.get(reverse("games:game", kwargs={"game_id": p.game_id}))
    assert b"data-extras" in page.content
    state = json.loads(page.context["state_json"])
    assert [a["seat"] for a in state["extras"]["actions"]] == [0, 1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_both_players_and_a_spectator_see_the_mark_live(users, connect):  # noqa: F811
    _, p = await database_sync_to_async(make_arena)(users)
    names = {p.blue.user.username: 0, p.orange.user.username: 1, "eve": None}
    sockets = {name: await connect(p.game_id, name) for name in names}
    for comm in sockets.values():
        assert comm.first["state"]["extras"]["marks"] == []
        assert "no_increment" not in comm.first["state"]["clock"]  # only when some seat has
    await database_sync_to_async(services.berserk_game)(p.game_id, p.blue.user)
    for name, comm in sockets.items():
        got = [f for f in await frames(comm) if f.get("state")]
        state = got[-1]["state"]
        assert [m["seat"] for m in state["extras"]["marks"]] == [0], name
        assert [a["seat"] for a in state["extras"]["actions"]] == [1], name
        assert state["clock"]["remaining"][0] == FIVE_THREE // 2, name
        assert state["clock"]["no_increment"] == [0], name  # the page's "+3" is not Blue's
    await database_sync_to_async(move)(p)  # Blue's first move: Orange may still berserk
    await database_sync_to_async(move)(p)  # Orange's: nobody may now, the mark stays
    for name, comm in sockets.items():
        state = [f for f in await frames(comm) if f.get("state")][-1]["state"]
        assert state["extras"] == {"marks": [state["extras"]["marks"][0]], "actions": []}
        assert state["extras"]["marks"][0]["seat"] == 0, name
