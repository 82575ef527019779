"""BOT accounts (api.bots, accounts.bots; docs/api.md, "BOT accounts"): the upgrade through
the API (once, only for an account that has played nothing, for good; every refusal a 409
with its code and nothing changed), "BOT" before the name on every page and in every
answer that names a member, the doors and the site's pages kept apart, and the tournaments
that bar bots."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from api.scopes import Scope
from games import services, titles
from games.actors import Actor
from games.models import Challenge, Game, Seat, TableSeat
from tests.api.support import (
    bearer_client,
    bot_account,
    finished_game,
    member,
    token_for,
)
from tests.api.test_openapi import schema_checker
from tests.games.support import new_game

UPGRADE = "/api/bot/account/upgrade"
MARK = '<span class="player-title"'


def upgrade(user):
    return bearer_client(token_for(user, Scope.BOT_PLAY)).post(UPGRADE)


def flags() -> list:
    return list(Player.objects.order_by("user_id").values_list("user_id", "bot_since"))


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- the upgrade ----------------------------------------------------------------------------


def test_an_account_that_has_never_played_becomes_a_bot_account_for_good(people, client):
    fresh = member("cargo-bot")
    answer = upgrade(fresh)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["ok"] is True and body["username"] == "cargo-bot" and body["title"] == "BOT"
    assert dt.datetime.fromisoformat(body["bot_since"]) <= timezone.now()
    described = client.get("/api/openapi.json").json()
    op = described["paths"]["/api/bot/account/upgrade"]["post"]
    schema_checker(described, op["responses"]["200"]["content"]["application/json"]["schema"]
                   ).validate(body)
    assert titles.is_bot(fresh.pk) and titles.title_of(fresh.pk) == "BOT"
    # once: again is refused, and the date stays
    before = flags()
    again = upgrade(fresh)
    assert (again.status_code, again.json()["code"]) == (409, "already_bot")
    assert flags() == before
    profile = bearer_client(token_for(people["marta"])).get("/api/user/cargo-bot").json()
    assert profile["title"] == "BOT"
    assert bearer_client(token_for(people["marta"])).get("/api/user/marta").json()[
        "title"] is None


@pytest.mark.parametrize("history", ["finished", "aborted-bot", "running", "daily", "table",
                                     "tournament"])
def test_an_account_that_has_played_or_sits_somewhere_is_refused_and_nothing_changes(
        people, history):
    marta, kofi = people["marta"], people["kofi"]
    want = {"finished": "has_played", "aborted-bot": "has_played", "running": "has_played",
            "daily": "has_played", "table": "seated", "tournament": "in_tournament"}[history]
    if history == "finished":
        finished_game(marta, kofi)
    elif history == "aborted-bot":
        game = services.create_bot_game(actor=Actor.member(marta), level="easy",
                                        options={"size": 5})
        Game.objects.filter(pk=game.id).update(status=Game.Status.ABORTED)
    elif history == "running":
        new_game(marta, kofi)
    elif history == "daily":
        from puzzles.daily import services as daily

        daily.start(Actor.member(marta), "easy")
    elif history == "table":
        services.create_challenge(marta, options={"size": 5})
    else:
        from tests.api.support import tournament_of

        tournament_of(marta)
    before = (flags(), Game.objects.count(), Challenge.objects.count(),
              TableSeat.objects.count())
    answer = upgrade(marta)
    assert (answer.status_code, answer.json()["code"]) == (409, want), answer.content
    assert answer.json()["error"]
    assert (flags(), Game.objects.count(), Challenge.objects.count(),
            TableSeat.objects.count()) == before
    assert not titles.is_bot(marta.pk)


def test_the_upgrade_needs_the_bot_play_scope_and_a_token(people):
    fresh = member("cargo-bot")
    for scope in (Scope.READ, Scope.BOARD_PLAY, Scope.CHALLENGE_WRITE):
        answer = bearer_client(token_for(fresh, scope)).post(UPGRADE)
        assert (answer.status_code, answer.json()["code"]) == (403, "missing_scope")
    assert bearer_client(None).post(UPGRADE).json()["code"] == "no_token"
    malformed = bearer_client(token_for(fresh, Scope.BOT_PLAY)).post(
        UPGRADE, data="{not json", content_type="application/json")
    assert malformed.status_code == 200  # the upgrade reads no body
    assert flags() == [(fresh.pk, Player.objects.get(user=fresh).bot_since)]


# --- marked BOT everywhere ------------------------------------------------------------------


def test_the_profile_and_the_token_page_say_it(people):
    bot = bot_account()
    page = Client().get("/@/cargo-bot").content.decode()
    assert MARK in page and "A BOT account since" in page
    assert MARK not in Client().get("/@/marta").content.decode()
    mine = signed_in(bot).get("/accounts/tokens/").content.decode()
    assert "data-bot-account" in mine and "data-bot-upgrade" not in mine
    theirs = signed_in(people["marta"]).get("/accounts/tokens/").content.decode()
    assert "data-bot-upgrade" in theirs and "POST /api/bot/account/upgrade" in theirs


def test_a_game_its_page_its_json_and_its_export_say_it(people):
    bot = bot_account()
    game = new_game(bot, people["kofi"])
    state = services.state_of(game)
    assert [s["title"] for s in state["seats"]] == ["BOT", None]
    assert state["players"]["blue"]["title"] == "BOT"
    page = Client().get(f"/g/{game.id}").content.decode()
    assert "<title>BOT cargo-bot vs kofi" in page
    reader = bearer_client(token_for(people["marta"]))
    players = reader.get(f"/api/game/{game.id}").json()["players"]
    assert [(p["username"], p["title"]) for p in players] == [("cargo-bot", "BOT"),
                                                              ("kofi", None)]
    services.resign(game.id, actor=Actor.member(people["kofi"]))
    line = json.loads(b"".join(reader.get("/api/games/user/kofi").streaming_content)
                      .splitlines()[0])
    assert [p["title"] for p in line["players"]] == ["BOT", None]


def test_the_lobby_and_a_tables_page_say_it(people):
    bot = bot_account()
    table = services.create_challenge(people["marta"], game_type="cargo-express", options={},
                                      seats=3, time_control="10+5", rated=False)
    services.join_table(Actor.member(bot), table.id)
    seek = next(s for s in services.open_seeks() if s["id"] == table.id)
    assert seek["by_title"] is None
    assert [s["title"] for s in seek["seats"]] == [None, "BOT", None]
    lobby = Client().get("/play/?game=cargo-express").content.decode()
    assert "BOT cargo-bot" in lobby
    page = Client().get(f"/challenge/{table.id}").content.decode()
    assert MARK in page
    hosted = services.create_challenge(bot, options={"size": 5}, rated=False)
    row = next(s for s in services.open_seeks() if s["id"] == hosted.id)
    assert row["by_title"] == "BOT"


def test_rankings_and_tournament_standings_say_it(people):
    from tournaments import services as tournaments
    from tournaments.models import Tournament

    bot = bot_account()
    for _ in range(5):
        finished_game(bot, people["kofi"])
    board = Client().get("/rankings/").content.decode()
    assert f'{MARK} title="A BOT account: a program that plays through the API">BOT</span> ' \
           f'<a href="/@/cargo-bot">' in board
    rows = bearer_client(token_for(people["marta"])).get("/api/rankings").json()["rows"]
    assert {(r["username"], r["title"]) for r in rows} == {("cargo-bot", "BOT"),
                                                           ("kofi", None)}
    casual = tournaments.create_tournament(
        name="Bots welcome", game_type="cargo-connect", rounds=3, rated=False,
        bots_allowed=True, starts_at=timezone.now() + dt.timedelta(hours=1),
        options={"size": 5})
    tournaments.join(casual, bot)
    tournaments.join(casual, people["kofi"])
    page = Client().get(f"/tournaments/{casual.id}/").content.decode()
    assert MARK in page
    Tournament.objects.filter(pk=casual.pk).update(status=Tournament.Status.RUNNING)


# --- tournaments that bar bots --------------------------------------------------------------


@pytest.mark.parametrize(("rated", "allowed", "refusal"), [
    (True, False, "a rated tournament bars BOT accounts"),
    (False, False, "this tournament bars BOT accounts"),
    (False, True, None)])
def test_a_bot_account_enters_only_a_tournament_that_takes_bots(people, rated, allowed,
                                                                refusal):
    from tournaments import services as tournaments
    from tournaments.models import Entry

    bot = bot_account()
    made = tournaments.create_tournament(
        name="Sunday", game_type="cargo-connect", rounds=3, rated=rated,
        bots_allowed=allowed, starts_at=timezone.now() + dt.timedelta(hours=1),
        options={"size": 5})
    if refusal is None:
        tournaments.join(made, bot)
        assert Entry.objects.filter(tournament=made, user=bot).exists()
        return
    with pytest.raises(tournaments.TournamentError, match=refusal):
        tournaments.join(made, bot)
    assert not Entry.objects.filter(tournament=made).exists()
    tournaments.join(made, people["marta"])  # a person enters as before


# --- the site's pages: a BOT account plays through the API only -----------------------------


def test_a_bot_accounts_session_is_refused_every_play_page_and_watches_its_games(people):
    bot = bot_account()
    browser = signed_in(bot)
    before = (Game.objects.count(), Challenge.objects.count(), TableSeat.objects.count())
    for url, data in (("/play/seek", {"game_type": "cargo-connect", "size": "5",
                                      "time_control": "10+5"}),
                      ("/play/quick", {"size": "5"}),
                      ("/play/bot", {"level": "easy", "size": "5"}),
                      ("/puzzles/daily/start", {"difficulty": "easy"})):
        answer = browser.post(url, data)
        assert answer.status_code == 403, url
        assert "BOT account" in answer.content.decode()
    assert (Game.objects.count(), Challenge.objects.count(),
            TableSeat.objects.count()) == before
    # its own game's page is a spectator's, and its turn there is refused
    game = new_game(bot, people["kofi"])
    page = browser.get(f"/g/{game.id}")
    assert page.status_code == 200
    assert page.context["state"]["viewer"] is None
    # its pages to read and its account stay its own
    assert browser.get("/accounts/tokens/").status_code == 200
    assert browser.get("/rankings/").status_code == 200
    # a person's session plays as before
    assert signed_in(people["marta"]).post("/play/seek", {
        "game_type": "cargo-connect", "size": "5", "time_control": "10+5"}).status_code == 302


def test_seats_a_bot_account_holds_are_played_by_it_through_the_bot_door_only(people):
    bot = bot_account()
    game = new_game(bot, people["kofi"])
    assert Seat.objects.get(game=game, index=0).user_id == bot.pk
    assert services.seat_of(game, Actor.member(bot)) == 0  # the API's actor holds it

