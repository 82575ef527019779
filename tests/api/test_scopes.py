"""The scope-by-endpoint matrix: every operation of the served description is tried with
a token holding each scope alone; only its own scope opens it (403 `missing_scope`
otherwise, nothing changed). A new endpoint without a row here fails
`test_every_operation_has_a_url`. The doors' accounts (api.bots): a person's `bot:play`
token gets past its scope to `not_a_bot` on the bot door (the upgrade aside), a BOT
account's `board:play` token to `bot_account` on the board door."""

from __future__ import annotations

import pytest

from api.models import AccessToken
from api.scopes import ALL, Scope
from tests.api.support import ask, bearer_client, bot_account, operations, paths, token_for

# Each endpoint's scope, exactly.
SCOPE_OF = {"getUser": Scope.READ, "getGame": Scope.READ, "exportGames": Scope.READ,
            "getRankings": Scope.READ, "getDailyChallenge": Scope.READ,
            "getWeekPuzzles": Scope.READ, "listTournaments": Scope.READ,
            "getTournament": Scope.READ, "streamGame": Scope.READ,
            "streamEvents": Scope.READ,
            "boardDecision": Scope.BOARD_PLAY, "boardResign": Scope.BOARD_PLAY,
            "botDecision": Scope.BOT_PLAY, "botResign": Scope.BOT_PLAY,
            "boardQueue": Scope.BOARD_PLAY, "botQueue": Scope.BOT_PLAY,
            **{f"{door}{what}": scope for door, scope in (("board", Scope.BOARD_PLAY),
                                                          ("bot", Scope.BOT_PLAY))
               for what in ("Abort", "Claim", "ChatPost", "ChatRead")},
            "botAccountUpgrade": Scope.BOT_PLAY,
            "challengeCreate": Scope.CHALLENGE_WRITE, "challengeAccept": Scope.CHALLENGE_WRITE,
            "challengeDecline": Scope.CHALLENGE_WRITE, "challengeCancel": Scope.CHALLENGE_WRITE,
            "tableJoin": Scope.CHALLENGE_WRITE, "challengeOpen": Scope.CHALLENGE_WRITE}
# What an operation answers its own scope: a read's 200; a play's body here is refused
# once the token is through (`support.REFUSED_BODY`), so nothing changes.
OPENED = {"get": 200, "post": "400 bad_request"}
PLAYS = ("Decision", "Resign", "Queue", "Abort", "Claim", "ChatPost", "ChatRead")
BOT_DOOR = tuple(f"bot{what}" for what in PLAYS)
BOARD_DOOR = tuple(f"board{what}" for what in PLAYS)
# Past the token to a refusal that changes nothing, for marta (a person who has played):
# the bot door takes BOT accounts only; her upgrade is refused; the challenges name a
# member or a challenge that is not there.
OPENED_FOR_MARTA = {**{key: "403 not_a_bot" for key in BOT_DOOR},
                    "botAccountUpgrade": "409 has_played",
                    # the finished game's abort: too late (support.paths)
                    "boardAbort": "409 game_over",
                    "challengeCreate": "404 not_found", "challengeAccept": "404 not_found",
                    "challengeDecline": "404 not_found", "challengeCancel": "404 not_found",
                    "tableJoin": "404 not_found",
                    # a table by link: its fields all take their defaults (the matrix's
                    # body names none of them), so marta's table is made
                    "challengeOpen": 200}


def opened(key: str, method: str) -> int | str:
    return OPENED_FOR_MARTA.get(key, OPENED[method])


def outcome(answer) -> int | str:
    if answer.status_code in (400, 403, 404, 409):
        return f"{answer.status_code} {answer.json()['code']}"
    return answer.status_code


def test_every_operation_has_a_url_and_its_scope_here(people):
    described = operations()
    assert set(described) == set(SCOPE_OF) == set(paths(people))
    assert {key: Scope(scope) for key, (_, _, scope) in described.items()} == SCOPE_OF


@pytest.mark.parametrize("scope", ALL, ids=lambda s: s.value)
def test_each_endpoint_opens_to_its_own_scope_only(people, scope):
    urls, described = paths(people), operations()
    token = token_for(people["marta"], scope)
    client = bearer_client(token)
    got = {}
    for key, url in urls.items():
        method = described[key][0]
        got[key] = outcome(ask(client, method, url))
    want = {key: opened(key, described[key][0]) if SCOPE_OF[key] == scope
            else "403 missing_scope" for key in urls}
    assert got == want


def test_a_token_with_every_scope_opens_every_endpoint(people):
    client = bearer_client(token_for(people["marta"], *ALL))
    described = operations()
    assert {key: outcome(ask(client, described[key][0], url))
            for key, url in paths(people).items()} \
        == {key: opened(key, described[key][0]) for key in SCOPE_OF}


def test_each_door_takes_its_own_accounts(people):
    """A BOT account's tokens: the bot door gets past the account to the body's refusal,
    the board door refuses it `bot_account` before reading the body; a person's the
    other way round (above). Nothing changes."""
    urls, described = paths(people), operations()
    bot = bot_account()
    for scope, door, want in ((Scope.BOT_PLAY, BOT_DOOR, "400 bad_request"),
                              (Scope.BOARD_PLAY, BOARD_DOOR, "403 bot_account")):
        client = bearer_client(token_for(bot, scope))
        expected = dict.fromkeys(door, want)
        if scope == Scope.BOT_PLAY:
            # no body to refuse: the BOT holds no seat of the game; it reads its chat
            expected.update({"botAbort": "403 not_a_player", "botChatRead": 200})
        assert {key: outcome(ask(client, described[key][0], urls[key])) for key in door} \
            == expected
    upgrade = bearer_client(token_for(bot, Scope.BOT_PLAY)).post(urls["botAccountUpgrade"])
    assert outcome(upgrade) == "409 already_bot"
    assert described["botAccountUpgrade"][0] == "post"


@pytest.mark.parametrize("key", sorted(SCOPE_OF))
def test_every_endpoint_refuses_no_token_revoked_and_expired_alike(people, key):
    from django.utils import timezone

    url, method = paths(people)[key], operations()[key][0]
    assert ask(bearer_client(None), method, url).json()["code"] == "no_token"
    token = token_for(people["kofi"])
    AccessToken.objects.filter(user=people["kofi"]).update(revoked_at=timezone.now())
    answer = ask(bearer_client(token), method, url)
    assert (answer.status_code, answer.json()["code"]) == (401, "revoked_token")
    expired = token_for(people["ines"])
    AccessToken.objects.filter(user=people["ines"]).update(expires_at=timezone.now())
    answer = ask(bearer_client(expired), method, url)
    assert (answer.status_code, answer.json()["code"]) == (401, "expired_token")


@pytest.mark.parametrize("scope", ALL, ids=lambda s: s.value)
def test_an_apps_oauth_token_opens_each_endpoint_to_its_granted_scope_only(people, scope):
    """The same matrix with a token the member gave an app (api.oauth) for that scope."""
    from tests.api.oauth_flow import app_token

    urls, described = paths(people), operations()
    client = bearer_client(app_token(people["marta"], scope.value))
    got = {key: outcome(ask(client, described[key][0], url)) for key, url in urls.items()}
    want = {key: opened(key, described[key][0]) if SCOPE_OF[key] == scope
            else "403 missing_scope" for key in urls}
    assert got == want


@pytest.mark.parametrize("key", sorted(SCOPE_OF))
def test_every_endpoint_refuses_a_revoked_and_an_expired_app_token_alike(people, key):
    from django.utils import timezone
    from oauth2_provider.models import AccessToken as AppToken

    from api import oauth
    from tests.api.oauth_flow import app_token

    url, method = paths(people)[key], operations()[key][0]
    every = " ".join(scope.value for scope in ALL)
    revoked = app_token(people["kofi"], every)
    oauth.revoke_app(people["kofi"], AppToken.objects.get(user=people["kofi"]).application_id)
    answer = ask(bearer_client(revoked), method, url)
    assert (answer.status_code, answer.json()["code"]) == (401, "revoked_token")
    expired = app_token(people["ines"], every)
    AppToken.objects.filter(user=people["ines"]).update(expires=timezone.now())
    answer = ask(bearer_client(expired), method, url)
    assert (answer.status_code, answer.json()["code"]) == (401, "expired_token")
