"""What the API's tests share: members, tokens made through `api.tokens`, and a client that
sends a token as `Authorization: Bearer …`."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from api import limits, tokens
from api.scopes import ALL, Scope

PASSWORD = "a-long-cargo-pass"


def member(name: str) -> Any:
    return get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)


def token_for(user: Any, *scopes: Scope, lifetime: dt.timedelta | None = None) -> str:
    return tokens.create(user, "test", list(scopes or ALL), lifetime).token


def bearer_client(token: str | None) -> Client:
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return Client(**headers)


def fresh_limits() -> None:
    """Forget this minute's counts of the test client's address."""
    limits.clear(limits.per_address(), "127.0.0.1")


def finished_game(blue: Any, orange: Any, *, rated: bool = True, game_type: str = "",
                  created_at: dt.datetime | None = None) -> Any:
    """A Cargo Connect game (or `game_type`'s, two seats) that Orange resigned at once."""
    from games import services
    from games.actors import Actor
    from games.models import Game
    from tests.games.support import new_game

    if game_type:
        game = services.create_game(game_type=game_type, options={},
                                    seats=[Actor.member(blue), Actor.member(orange)],
                                    rated=rated)
    else:
        game = new_game(blue, orange, rated=rated)
    services.resign(game.id, actor=Actor.member(orange))
    if created_at is not None:
        Game.objects.filter(pk=game.id).update(created_at=created_at)
    return services.get_game(game.id)


def tournament_of(user: Any) -> Any:
    from django.utils import timezone

    from tournaments import services as tournaments

    made = tournaments.create_tournament(
        name="API Swiss", game_type="cargo-connect", rounds=3,
        starts_at=timezone.now() + dt.timedelta(hours=1), options={"size": 5})
    tournaments.join(made, user)
    return made


def paths(people: dict[str, Any]) -> dict[str, str]:
    """A real URL of every API endpoint, by its operation id, over a finished game of
    marta's and a tournament she joined."""
    from tests.games.support import new_game

    game = finished_game(people["marta"], people["kofi"])
    tournament = tournament_of(people["marta"])
    running = new_game(people["marta"], people["ines"])  # the event stream's first line
    return {"getUser": "/api/user/marta", "getGame": f"/api/game/{game.id}",
            "exportGames": "/api/games/user/marta", "getRankings": "/api/rankings",
            "getDailyChallenge": "/api/daily", "getWeekPuzzles": "/api/puzzles/week",
            "listTournaments": "/api/tournaments",
            "getTournament": f"/api/tournament/{tournament.id}",
            "streamGame": f"/api/stream/game/{running.id}", "streamEvents": "/api/stream/event",
            **{f"{door}{what.title()}": f"/api/{door}/game/{running.id}/{what}"
               for door in ("board", "bot") for what in ("decision", "resign", "queue",
                                                         "claim")},
            # an abort of the finished game: 409 game_over once through, nothing changed
            **{f"{door}Abort": f"/api/{door}/game/{game.id}/abort" for door in ("board", "bot")},
            **{f"{door}Chat{what}": f"/api/{door}/game/{running.id}/chat"
               for door in ("board", "bot") for what in ("Post", "Read")},
            # marta has played: her upgrade is refused (409 has_played), nothing changed
            "botAccountUpgrade": "/api/bot/account/upgrade",
            # no such member, no such challenge: 404 once through the token, nothing made
            "challengeCreate": "/api/challenge/nobody-here",
            **{f"challenge{what.title()}": f"/api/challenge/{NO_CHALLENGE}/{what}"
               for what in ("accept", "decline", "cancel")},
            "tableJoin": f"/api/table/{NO_CHALLENGE}/join",
            "challengeOpen": "/api/challenge/open"}


NO_CHALLENGE = "NOPE000000"  # a challenge id's shape, no such challenge


def bot_account(name: str = "cargo-bot") -> Any:
    """A new member made a BOT account through the API's own rule (api.bots.upgrade)."""
    from api import bots

    user = member(name)
    bots.upgrade(user)
    return user


# A body refused once the token and its scope are through (`ply` out of range: 400
# `bad_request`), so that the matrix's POSTs change nothing.
REFUSED_BODY = '{"ply": -1, "token": "a"}'


def ask(client: Client, method: str, url: str) -> Any:
    """An operation's request as the scope matrix sends it: a GET, or a POST whose body is
    refused after the token's checks (`REFUSED_BODY`)."""
    if method == "get":
        return client.get(url)
    return client.post(url, data=REFUSED_BODY, content_type="application/json")


def operations() -> dict[str, tuple[str, str, str]]:
    """Every operation of the served description: id → (method, path, scope)."""
    from api.site import api

    described = api.get_openapi_schema(path_prefix="/api/")
    return {op["operationId"]: (method, path, op["x-scope"])
            for path, methods in described["paths"].items()
            for method, op in methods.items()}
