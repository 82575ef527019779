"""The permission matrix: who may do what, over every page and endpoint (VIEWS), every
socket message (SOCKETS) and every admin view and action (ADMIN). The tests in this folder
assert every cell; `python -m tests.permissions.matrix` renders the same tables as
docs/permissions.md (tests/permissions/test_views.py checks that the file is current).

Outcomes:
- `allowed`: the request does what it asks (the row says what that looks like: a page, a
  JSON answer, a redirect to where it leads) and, for a write, the change is made;
- `refused`: a form is sent back (a redirect with the reason as a message); nothing changes;
- `sign-in`: a redirect to the sign-in page (the site's, or the admin's);
- `NNN code`: that HTTP status and, for JSON, that error code (`403 hidden` is also the
  HTML page that says why); a refusal changes nothing;
- on sockets: the frame that answers (`state`, `pong`, `turn`, `resigned`, the chat's
  `chat`, `chat_state`, `chat_muted`), `error code` (the chat's refusals: `chat_error
  code`), or `close NNNN` when the socket is not accepted;
- `—`: no such person in this scenario (a game against CargoBot has no human opponent).

This module is plain data: no Django import, so it renders without settings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ROLES = ("player", "opponent", "spectator", "guest", "signed_out", "staff", "superuser")
ROLE_NAMES = {
    "player": "player (holds the seat)",
    "opponent": "opponent (the other seat)",
    "spectator": "spectator (a member)",
    "guest": "guest (a session; its seat is elsewhere)",
    "signed_out": "signed-out (no session)",
    "staff": "staff (is_staff)",
    "superuser": "superuser",
}
ADMIN_ROLES = ("member", "guest", "signed_out", "staff", "staff_view", "staff_change",
               "superuser")
ADMIN_ROLE_NAMES = {
    "member": "player / opponent / spectator (members)",
    "guest": "guest",
    "signed_out": "signed-out",
    "staff": "staff (is_staff, no permissions)",
    "staff_view": "staff with view permissions",
    "staff_change": "staff with view and change permissions",
    "superuser": "superuser",
}
NA = "—"

SCENARIOS = {
    "online": "online game, active; the player (Blue) is to move",
    "online-over": "online game, finished (the opponent resigned)",
    "bot": "the player against CargoBot, active; the player is to move",
    "bot-over": "the player against CargoBot, finished (the player resigned)",
    "guest-bot": "a guest against CargoBot, active: the player is that guest's session",
    "daily": "the player's ranked Daily Challenge game of today, active",
    "daily-over": "the same, resigned today: finished, but its day goes on",
    "daily-past": "the player's ranked Daily Challenge game of yesterday (resigned at the "
                  "end of its day)",
    "challenge": "a challenge by link, made by the player (the opponent is whoever accepts)",
    "table": "a casual table of three seats in the lobby (the test-only Pile), hosted by the "
             "player; the opponent sits at it; one seat is free",
    "invited": "a challenge to the opponent, made by the player (through the API: a rated "
               "Cargo Connect game, 10+5); its one free seat is the opponent's",
    "site": "pages of no game (a published Weekly Puzzles week begun today, alice's profile)",
    "tournament": "a public Swiss of Cargo Connect, scheduled by the admin, that the player "
                  "has joined (members other than the player are the spectator, staff, "
                  "superuser)",
    "arena": "a running arena of Cargo Connect (5+3) in which the player and the opponent "
             "are paired and neither has moved; nobody is paused",
}
NO_OPPONENT = {"bot", "bot-over", "guest-bot", "daily", "daily-over", "daily-past",
               "challenge", "tournament"}


def cells(default: str, **roles: str) -> dict[str, str]:
    """`default` for every role, but those named; `members=` sets the four members,
    `anonymous=` the guest and the signed-out, `others=` everyone but the player."""
    out = {}
    for role in ROLES:
        value = default
        if role != "player" and "others" in roles:
            value = roles["others"]
        if role in ("player", "opponent", "spectator", "staff", "superuser") \
                and "members" in roles:
            value = roles["members"]
        if role in ("guest", "signed_out") and "anonymous" in roles:
            value = roles["anonymous"]
        if role in ("player", "opponent") and "players" in roles:
            value = roles["players"]
        out[role] = roles.get(role, value)
    return out


@dataclass(frozen=True)
class ViewRow:
    """One URL (by name) with one method in one scenario, and each role's outcome."""

    name: str
    method: str
    scenario: str
    expect: dict[str, str]
    allowed: str = "200"  # what `allowed` is: a status, or `302 /prefix`
    data: str = ""  # the request's parameters (see test_views.request_data)
    writes: bool | None = False  # True: allowed changes state; None: not checked
    note: str = ""

    def outcome(self, role: str) -> str:
        if role == "opponent" and self.scenario in NO_OPPONENT:
            return NA
        return self.expect[role]


def _rows(name: str, method: str, per: dict[str, dict[str, str]], **kw: Any) -> list[ViewRow]:
    return [ViewRow(name, method, scenario, expect, **kw) for scenario, expect in per.items()]


GAME_SCENARIOS = ("online", "online-over", "bot", "bot-over", "guest-bot", "daily",
                  "daily-over", "daily-past")
HIDDEN_TODAY = ("daily", "daily-over")  # only the player sees them until the day ends


def _seen(name: str, **kw: Any) -> list[ViewRow]:
    """A page or JSON that shows the game: everyone, but a daily game of today only to its
    player."""
    return _rows(name, "GET", {
        s: cells("allowed", others="403 hidden") if s in HIDDEN_TODAY else cells("allowed")
        for s in GAME_SCENARIOS}, **kw)


def _decision(name: str, opponent_active: str) -> list[ViewRow]:
    """A turn or a resign over HTTP: the players' only; after the game, `game_over`."""
    per = {}
    for s in GAME_SCENARIOS:
        over = s.endswith("-over") or s == "daily-past"
        per[s] = cells("403 not_a_player", player="409 game_over" if over else "allowed",
                       opponent="409 game_over" if over else opponent_active)
    return _rows(name, "POST", per, data=name, writes=True)


def _review(name: str, method: str, **kw: Any) -> list[ViewRow]:
    """The review: of a finished game, for everyone; a daily game of today for no one.
    (The review page's refusals are pages that say why, with the status.)"""
    page = name == "games:review"
    shielded, not_over = ("403", "400") if page else ("403 spoiler", "400 game_not_over")
    if method == "POST":
        shielded = not_over = "refused"
    per = {}
    for s in GAME_SCENARIOS:
        if s in HIDDEN_TODAY:
            per[s] = cells(shielded)
        elif s.endswith("-over") or s == "daily-past":
            per[s] = cells("allowed")
        else:
            per[s] = cells(not_over)
    return _rows(name, method, per, **kw)


REMATCH = _rows("games:rematch", "POST", {
    "online": cells("403 not_a_player", players="400 game_not_over"),
    "online-over": cells("403 not_a_player", players="allowed"),
    "bot": cells("403 not_a_player", player="400 game_not_over"),
    "bot-over": cells("403 not_a_player", player="allowed"),
    "guest-bot": cells("403 not_a_player", player="400 game_not_over"),
    "daily": cells("403 not_a_player", player="400 game_not_over"),
    # A Daily Challenge game has no rematch: its games are started by the Daily Challenge.
    "daily-over": cells("403 not_a_player", player="400 bad_request"),
    "daily-past": cells("403 not_a_player", player="400 bad_request"),
}, writes=True)

def _abandon(name: str, player_active: str, daily_active: str) -> list[ViewRow]:
    """Abort and claim over HTTP (docs/clocks.md): the players' only; each scene is before
    both players moved, so a player may abort it (not a Daily Challenge game) and no
    opponent has been away long enough to claim."""
    per = {}
    for s in GAME_SCENARIOS:
        over = s.endswith("-over") or s == "daily-past"
        mine = "409 game_over" if over else daily_active if s.startswith("daily") \
            else player_active
        per[s] = cells("403 not_a_player", player=mine, opponent=mine)
    return _rows(name, "POST", per, data=name.split(":")[1], writes=True)


ABANDON = [*_abandon("games:abort", "allowed", "400 bad_request"),
           *_abandon("games:claim", "400 bad_request", "400 bad_request")]

GAME_VIEWS = [
    *_seen("games:game"),
    *_seen("games:record"),
    *_seen("games:record_alt"),
    *_seen("games:events", data="after"),
    *_seen("games:replay"),
    *_seen("games:replay_json"),
    *_decision("games:turn", opponent_active="409 not_your_turn"),
    *_decision("games:resign", opponent_active="allowed"),
    *REMATCH,
    *_review("games:review", "GET"),
    *_review("games:review", "POST", allowed="302 /g/", writes=True),
    *_review("games:review_json", "GET"),
    *_review("games:analysis", "GET", data="analysis"),
    *ABANDON,
]

MEMBERS_ONLY = cells("allowed", anonymous="sign-in")
MEMBERS_ONLY_FORM = cells("allowed", anonymous="sign-in")
SIGNED_IN_AWAY = cells("302 /", anonymous="allowed")  # allauth: signed in already

LOBBY_VIEWS = [
    ViewRow("games:index", "GET", "site", cells("allowed")),
    ViewRow("games:seeks_json", "GET", "site", cells("allowed")),
    # "Your turn": a member's own games; a visitor is told to sign in (the same 200)
    ViewRow("games:waiting", "GET", "site", cells("allowed")),
    ViewRow("games:create_seek", "POST", "site", MEMBERS_ONLY_FORM, allowed="302 /play/",
            data="seek", writes=True),
    ViewRow("games:quick_play", "POST", "site", MEMBERS_ONLY_FORM, allowed="302 /play/",
            data="quick", writes=True, note="joins a waiting seek or makes one"),
    ViewRow("games:create_bot_game", "POST", "site", cells("allowed"), allowed="302 /g/",
            data="bot", writes=True, note="a signed-out visitor gets a session: a guest"),
    ViewRow("games:play_bots", "POST", "site", cells("allowed"), allowed="302 /g/",
            data="bots", writes=True, note="one person against 1-3 ExpressBots, casual; a "
            "signed-out visitor gets a session: a guest"),
    ViewRow("games:challenge", "GET", "challenge", MEMBERS_ONLY,
            note="the link is the invitation: any member who has it may look"),
    ViewRow("games:challenge_json", "GET", "challenge", MEMBERS_ONLY),
    ViewRow("games:accept", "POST", "challenge",
            cells("allowed", player="refused", anonymous="sign-in"), allowed="302 /g/",
            writes=True, note="the creator cannot accept their own challenge"),
    ViewRow("games:cancel", "POST", "challenge",
            cells("refused", player="allowed", anonymous="sign-in"), allowed="302 /play/",
            writes=True, note="only the creator cancels"),
    ViewRow("games:leave", "POST", "challenge", cells("refused", player="allowed"),
            allowed="302 /play/", writes=True,
            note="the host leaving cancels; no one else sits there"),
    ViewRow("games:start", "POST", "challenge",
            cells("refused", anonymous="sign-in"), allowed="302 /g/", data="start",
            writes=True, note="a rated table takes no bots: it starts when it is full"),
    # A table of three (docs/tables.md): casual, so guests may look and sit.
    ViewRow("games:challenge", "GET", "table", cells("allowed"),
            note="a casual table: anyone may look"),
    ViewRow("games:challenge_json", "GET", "table", cells("allowed")),
    ViewRow("games:accept", "POST", "table",
            cells("allowed", player="refused", opponent="refused"), allowed="302 /g/",
            writes=True, note="the last free seat starts the game; a visitor sits as a guest"),
    ViewRow("games:leave", "POST", "table", cells("refused", players="allowed"),
            allowed="302 /play/", writes=True,
            note="the host leaving cancels; whoever sits there may leave"),
    ViewRow("games:start", "POST", "table",
            cells("refused", player="allowed", anonymous="sign-in"), allowed="302 /g/",
            data="start", writes=True, note="the host starts it with a bot in the free seat"),
    ViewRow("games:decline", "POST", "challenge", cells("refused", anonymous="sign-in"),
            allowed="302 /play/", writes=True,
            note="a challenge by link is to no one: there is nothing to decline"),
    # A challenge to one member (docs/tables.md; made through the API, docs/api.md).
    ViewRow("games:challenge", "GET", "invited", MEMBERS_ONLY,
            note="whoever has the link may look; only the member it is to may take it"),
    ViewRow("games:accept", "POST", "invited",
            cells("refused", opponent="allowed", anonymous="sign-in"), allowed="302 /g/",
            writes=True, note="the member it is to takes the free seat: the game starts"),
    ViewRow("games:decline", "POST", "invited",
            cells("refused", opponent="allowed", anonymous="sign-in"), allowed="302 /play/",
            writes=True, note="the member it is to says no; its maker is told"),
    ViewRow("games:cancel", "POST", "invited",
            cells("refused", player="allowed", anonymous="sign-in"), allowed="302 /play/",
            writes=True, note="its maker withdraws it; the member it was to is told"),
]

DAILY_VIEWS = [
    ViewRow("daily:today", "GET", "site", cells("allowed")),
    ViewRow("daily:archive", "GET", "site", cells("allowed")),
    ViewRow("daily:day", "GET", "site", cells("allowed"), data="past_day"),
    ViewRow("daily:start", "POST", "site", cells("allowed"), allowed="302 /g/", data="daily",
            writes=True, note="a signed-out visitor gets a session: a guest's practice game"),
    ViewRow("daily:resign", "POST", "daily", cells("refused", player="allowed"),
            allowed="302 /puzzles/daily/", writes=True),
    ViewRow("daily:resign", "POST", "guest-bot", cells("refused"),
            allowed="302 /puzzles/daily/", writes=True,
            note="only a Daily Challenge game resigns here"),
]

PUZZLE_VIEWS = [
    ViewRow("puzzles:index", "GET", "site", cells("allowed")),
    ViewRow("puzzles:week", "GET", "site", cells("allowed"), data="monday"),
    ViewRow("puzzles:puzzle", "GET", "site", cells("allowed"), data="day"),
    ViewRow("puzzles:state", "POST", "site", cells("allowed"), data="puzzle", writes=None),
    ViewRow("puzzles:turn", "POST", "site", cells("allowed"), data="puzzle-turn", writes=None,
            note="a member's progress is recorded; a guest gets a signed proof"),
    ViewRow("puzzles:solution", "POST", "site", cells("allowed"), data="puzzle",
            writes=None),
    ViewRow("puzzles:figures", "POST", "site", cells("403 not_solved"), data="puzzle",
            note="after solving only (a member's record or a guest's proof)"),
    ViewRow("puzzles:review_attempt", "POST", "site", cells("409 not_over"), data="puzzle",
            note="a review once the attempt is over (docs/puzzles-site.md)"),
    ViewRow("puzzles:review", "GET", "site", cells("404"), data="review_key",
            note="a stored review by its key; none here"),
    ViewRow("puzzles:merge", "POST", "site",
            cells("allowed", anonymous="403 signed_out"), data="merge"),
]

SITE_VIEWS = [
    ViewRow("home", "GET", "site", cells("allowed")),
    ViewRow("healthz", "GET", "site", cells("allowed")),
    ViewRow("favicon", "GET", "site", cells("allowed"),
            note="the site's icon (the SVG every page links), for pages that name none"),
    ViewRow("metrics", "GET", "site", cells("404"),
            note="off unless METRICS_ENABLED (then with its token, if one is set)"),
    ViewRow("theme", "POST", "site", cells("allowed"), allowed="302 /", data="theme",
            note="a cookie of the browser's, for anyone"),
    ViewRow("howto", "GET", "site", cells("allowed")),
    ViewRow("howto-game", "GET", "site", cells("allowed"),
            note="a game's How to play by its key (Cargo Express's asked here)"),
    ViewRow("rankings:index", "GET", "site", cells("allowed")),
    ViewRow("accounts:user", "GET", "site", cells("allowed"), data="username"),
    ViewRow("accounts:games", "GET", "site", cells("allowed"), data="username"),
    ViewRow("accounts:profile", "GET", "site", cells("allowed", anonymous="sign-in"),
            allowed="302 /@/"),
]

ACCOUNT_VIEWS = [
    ViewRow("account_login", "GET", "site", SIGNED_IN_AWAY),
    ViewRow("account_signup", "GET", "site", SIGNED_IN_AWAY),
    ViewRow("account_logout", "GET", "site", cells("allowed", anonymous="302 /"),
            note="the page asks to confirm; signing out is a POST"),
    ViewRow("account_inactive", "GET", "site", cells("allowed")),
    ViewRow("account_reauthenticate", "GET", "site", MEMBERS_ONLY),
    ViewRow("account_request_reauthentication_code", "GET", "site",
            cells("302 /accounts/reauthenticate/", anonymous="sign-in"),
            note="login by code is off: back to the password"),
    ViewRow("account_confirm_reauthentication_code", "GET", "site",
            cells("302 /accounts/reauthenticate/code/", anonymous="sign-in"),
            note="no code was sent"),
    ViewRow("account_confirm_login_code", "GET", "site",
            cells("302 /", anonymous="sign-in"), note="no code was sent"),
    ViewRow("account_email", "GET", "site", MEMBERS_ONLY),
    ViewRow("account_email_verification_sent", "GET", "site", cells("allowed")),
    ViewRow("account_confirm_email", "GET", "site", cells("allowed"), data="email_key",
            note="an unknown key: the page says the link is bad"),
    ViewRow("account_change_password", "GET", "site", MEMBERS_ONLY),
    ViewRow("account_set_password", "GET", "site",
            cells("302 /accounts/password/change/", anonymous="sign-in"),
            note="members here have a password already"),
    ViewRow("account_reset_password", "GET", "site", cells("allowed")),
    ViewRow("account_reset_password_done", "GET", "site", cells("allowed")),
    ViewRow("account_reset_password_from_key", "GET", "site", cells("allowed"),
            data="reset_key", note="an unknown key: the page says the link is bad"),
    ViewRow("account_reset_password_from_key_done", "GET", "site", cells("allowed")),
]

NOTIFICATION_VIEWS = [
    ViewRow("notifications:list", "GET", "site", MEMBERS_ONLY,
            note="a member's own notifications; opening the list marks them read"),
    ViewRow("notifications:status", "GET", "site", MEMBERS_ONLY,
            note="a member's unread count and last id (a page's catch-up)"),
    ViewRow("notifications:settings", "GET", "site", MEMBERS_ONLY),
    ViewRow("notifications:settings", "POST", "site", MEMBERS_ONLY_FORM,
            allowed="302 /notifications/settings", data="notification-settings",
            writes=None, note="a member's own choices"),
    ViewRow("notifications:unsubscribe", "GET", "site", cells("400"),
            data="unsubscribe-token",
            note="an email's signed link, no sign-in needed; a bad signature is refused "
                 "for everyone (a good one: tests/notifications/test_mail.py)"),
    ViewRow("notifications:unsubscribe", "POST", "site", cells("400"),
            data="unsubscribe-token",
            note="the mail client's one-click unsubscribe (RFC 8058): no CSRF token, the "
                 "signature is the proof"),
    ViewRow("notifications:push_subscribe", "POST", "site",
            cells("400", anonymous="sign-in"), allowed="201", data="push-subscription",
            note="a browser's web push subscription, JSON, with CSRF; 400 here because "
                 "these tests' settings set no VAPID keys (push not offered); with them a "
                 "member gets 201, or 409 for another member's endpoint, which stays "
                 "theirs: tests/notifications/test_push.py"),
    ViewRow("notifications:push_unsubscribe", "POST", "site", MEMBERS_ONLY,
            data="push-endpoint", writes=None,
            note="forgets the member's own subscription with that endpoint"),
    ViewRow("service-worker", "GET", "site", cells("allowed"),
            note="the service worker, a plain script, at the root (its scope: every page)"),
]

TOURNAMENT_VIEWS = [
    ViewRow("tournaments:index", "GET", "site", cells("allowed")),
    ViewRow("tournaments:create", "POST", "site", MEMBERS_ONLY_FORM,
            allowed="302 /tournaments/", data="tournament", writes=True,
            note="a member may have 2 scheduled or running; bad input is the form again, "
                 "400, nothing made"),
    ViewRow("tournaments:detail", "GET", "tournament", cells("allowed")),
    ViewRow("tournaments:standings", "GET", "arena", cells("allowed"),
            note="an arena's whole standings; a Swiss's goes to its page"),
    ViewRow("tournaments:join", "POST", "tournament",
            cells("allowed", player="refused", anonymous="sign-in"),
            allowed="302 /tournaments/", writes=True, note="the player has joined already"),
    ViewRow("tournaments:withdraw", "POST", "tournament",
            cells("refused", player="allowed", anonymous="sign-in"),
            allowed="302 /tournaments/", writes=True, note="only an entrant withdraws"),
    ViewRow("tournaments:pause", "POST", "arena",
            cells("refused", player="allowed", opponent="allowed", anonymous="sign-in"),
            allowed="302 /tournaments/", writes=True, note="only an arena's entrant pauses"),
    ViewRow("tournaments:resume", "POST", "arena", cells("refused", anonymous="sign-in"),
            allowed="302 /tournaments/", writes=True,
            note="only a paused entrant resumes: nobody is paused here"),
    ViewRow("tournaments:berserk", "POST", "arena",
            cells("refused", player="allowed", opponent="allowed", anonymous="sign-in"),
            allowed="302 /g/", writes=True,
            note="a player of a game of the arena, before their first move; then to the game"),
    ViewRow("tournaments:berserk_game", "POST", "arena",
            cells("400 refused", player="allowed", opponent="allowed", anonymous="sign-in"),
            writes=True, note="the game page's button: a player of that arena game, before "
                              "their first move; JSON"),
]

# The public API (docs/api.md): a browser's session is not a key to it, so every endpoint
# answers a browser 401 `no_token` whoever is signed in; what a token opens is API_TOKENS
# below. The description and the reference are anyone's; tokens are a member's own.
API_SESSION = "the API takes a bearer token, never a session: API_TOKENS below"
API_ENDPOINTS = {  # URL name: the scenario its token rows are asserted in
    "api:profile": "site", "api:export": "site", "api:rankings": "site",
    "api:daily_challenge": "site", "api:week": "site", "api:tournaments": "site",
    "api:tournament": "tournament", "api:game": "online", "api:stream_game": "online",
    "api:stream_events": "site",
}
API_GAME_VIEWS = ("api:game", "api:stream_game")  # a game for its asker: rows per scenario
API_PLAY = tuple(f"api:{door}_{what}" for door in ("board", "bot")
                 for what in ("decision", "resign", "queue", "abort", "claim", "chat_post"))
API_PLAY_READS = ("api:board_chat_read", "api:bot_chat_read")  # a game's chat, read
API_WRITES = {  # URL name: the scenario of its session row (its token rows: API_TOKENS)
    "api:bot_upgrade": "site", "api:challenge_create": "site", "api:challenge_open": "site",
    "api:challenge_accept": "invited", "api:challenge_decline": "invited",
    "api:challenge_cancel": "invited", "api:table_join": "table",
}
API_VIEWS = [
    *(ViewRow(name, "GET", scenario, cells("401 no_token"), note=API_SESSION)
      for name, scenario in API_ENDPOINTS.items()),
    *(ViewRow(name, "POST", "online", cells("401 no_token"), note=API_SESSION)
      for name in API_PLAY),
    *(ViewRow(name, "GET", "online", cells("401 no_token"), note=API_SESSION)
      for name in API_PLAY_READS),
    *(ViewRow(name, "POST", scenario, cells("401 no_token"), note=API_SESSION)
      for name, scenario in API_WRITES.items()),
    ViewRow("api:openapi-json", "GET", "site", cells("allowed"),
            note="the OpenAPI 3.1 description, no token needed"),
    ViewRow("api-reference", "GET", "site", cells("allowed"),
            note="the API's reference page, drawn from the description"),
    ViewRow("api:api-root", "GET", "site", cells("allowed"),
            note="django-ninja's root, shadowed by the reference page at /api/"),
    ViewRow("api-tokens", "GET", "site", MEMBERS_ONLY,
            note="the member's own tokens (each by its first characters) and the form"),
    ViewRow("api-tokens", "POST", "site", MEMBERS_ONLY_FORM, data="api-token", writes=None,
            note="makes a token of the member's own, shown on this answer only"),
    ViewRow("api-token-revoke", "POST", "site", cells("allowed", anonymous="sign-in"),
            allowed="302 /accounts/tokens/", data="token-id",
            note="revokes the member's own token only: another's (here, none) is refused "
                 "with a message, nothing changed (tests/api/test_tokens.py)"),
    ViewRow("api-app-revoke", "POST", "site", cells("allowed", anonymous="sign-in"),
            allowed="302 /accounts/tokens/", data="app-id",
            note="revokes the tokens the member gave an app: an app holding none of theirs "
                 "(here, none) is refused with a message, nothing changed "
                 "(tests/api/test_oauth.py)"),
    # OAuth 2 (api/consent.py): an app registered in the admin asks with a PKCE challenge
    ViewRow("oauth2_provider:authorize", "GET", "site", cells("allowed", anonymous="sign-in"),
            data="oauth-authorize",
            note="the consent page of a registered app's request; signed out, the sign-in "
                 "page first and back here (tests/api/test_oauth.py)"),
    ViewRow("oauth2_provider:token", "POST", "site", cells("400"),
            note="a code and its PKCE verifier for a token, from the app: a session is no "
                 "key here, and a body without a grant is refused (`unsupported_grant_type`)"),
    ViewRow("oauth-server-metadata", "GET", "site", cells("allowed"),
            note="RFC 8414's metadata document of the OAuth 2 server, anyone's (no secrets: "
                 "the endpoints, what they accept, the scopes)"),
    ViewRow("oauth2_provider:revoke-token", "POST", "site", cells("400"),
            note="RFC 7009, from the app with the token and its client id: a session is no "
                 "key here, and a body without them is refused"),
]

VIEWS: list[ViewRow] = [*GAME_VIEWS, *LOBBY_VIEWS, *DAILY_VIEWS, *PUZZLE_VIEWS, *SITE_VIEWS,
                        *ACCOUNT_VIEWS, *NOTIFICATION_VIEWS, *TOURNAMENT_VIEWS, *API_VIEWS]


# --- the API with tokens -----------------------------------------------------------------

API_READ = "each member role sends a token of their own with the `read` scope; a guest " \
           "and a signed-out browser have none"


def _api_rows() -> list[ViewRow]:
    """What a member's own `read` token opens: every read endpoint; a game and its stream
    as the page shows it (a Daily Challenge game of today its player's only; the stream's
    rows are read under WSGI, its opening line: its lines under ASGI are
    tests/api/test_streams.py's and test_stream_leaks.py's). Guests have no tokens.
    A token without the scope, revoked, expired or malformed: tests/api/ (the scope
    matrix, every refusal)."""
    rows = []
    for name, scenario in API_ENDPOINTS.items():
        if name in API_GAME_VIEWS:
            continue
        rows.append(ViewRow(name, "GET", scenario,
                            cells("allowed", anonymous="401 no_token"), note=API_READ))
    for s in GAME_SCENARIOS:
        expect = cells("allowed", others="403 hidden", anonymous="401 no_token") \
            if s in HIDDEN_TODAY else cells("allowed", anonymous="401 no_token")
        if s == "guest-bot":
            expect = {**expect, "player": "401 no_token"}  # the player is a guest
        for name in API_GAME_VIEWS:
            rows.append(ViewRow(name, "GET", s, expect, note=API_READ))
    return rows


API_PLAY_NOTE = "each member role sends a token of their own with the door's scope " \
                "(`board:play`, `bot:play`) and a decision whose number is far ahead; " \
                "a guest and a signed-out browser have no token"
def _api_play_rows() -> list[ViewRow]:
    """What a member's own play token may do with a decision (a number far ahead, so
    nothing is taken): only the seat's holder gets past the seat check, to the number's
    refusal; anyone else is refused `not_a_player`. The roles are people's accounts, so the
    bot door refuses them all `not_a_bot` before anything else (api.bots). Resigning, an
    accepted decision, a BOT account at either door and every other refusal:
    tests/api/test_play.py."""
    rows = []
    for s in GAME_SCENARIOS:
        seated = "409 game_over" if s.endswith(("-over", "-past")) else "409 stale_ply"
        expect = cells("403 not_a_player", player=seated, opponent=seated,
                       anonymous="401 no_token")
        if s == "guest-bot":
            expect = {**expect, "player": "401 no_token"}  # the player is a guest
        rows.append(ViewRow("api:board_decision", "POST", s, expect, data="api-decision",
                            note=API_PLAY_NOTE))
    rows.append(ViewRow("api:bot_decision", "POST", "online",
                        cells("403 not_a_bot", anonymous="401 no_token"), data="api-decision",
                        note=API_PLAY_NOTE + "; the bot door takes BOT accounts only, and "
                        "every role here is a person's"))
    return rows


API_WRITE_NOTE = "each member role sends a token of their own with the endpoint's scope " \
                 "(`bot:play` for the upgrade, `challenge:write` for the rest); a guest " \
                 "and a signed-out browser have none"


def _api_write_rows() -> list[ViewRow]:
    """The upgrade to a BOT account and the challenges (api.endpoints.bots, .challenges):
    what each role's own token does, the change made when allowed (rolled back after each
    role). Every other refusal: tests/api/test_bots.py, test_challenges.py."""
    no_token = "401 no_token"
    return [
        ViewRow("api:bot_upgrade", "POST", "site", cells("allowed", anonymous=no_token),
                writes=True, note=API_WRITE_NOTE + "; no role has played here: each may "
                "become a BOT account"),
        ViewRow("api:bot_upgrade", "POST", "online",
                cells("allowed", players="409 has_played", anonymous=no_token), writes=True,
                note=API_WRITE_NOTE + "; whoever holds a seat of a game has played"),
        ViewRow("api:challenge_create", "POST", "site",
                cells("allowed", player="400 own_challenge", anonymous=no_token),
                writes=True, note=API_WRITE_NOTE + "; a challenge to the player (alice)"),
        ViewRow("api:challenge_open", "POST", "site", cells("allowed", anonymous=no_token),
                writes=True, note=API_WRITE_NOTE + "; a table by link, its maker seated: "
                "any member may open one"),
        ViewRow("api:challenge_accept", "POST", "invited",
                cells("403 not_a_player", player="400 own_challenge", opponent="allowed",
                      anonymous=no_token), writes=True,
                note=API_WRITE_NOTE + "; only the member it is to takes it"),
        ViewRow("api:challenge_decline", "POST", "invited",
                cells("403 not_a_player", opponent="allowed", anonymous=no_token),
                writes=True, note=API_WRITE_NOTE + "; only the member it is to declines it"),
        ViewRow("api:challenge_cancel", "POST", "invited",
                cells("403 not_a_player", player="allowed", anonymous=no_token),
                writes=True, note=API_WRITE_NOTE + "; only its maker cancels it"),
        ViewRow("api:table_join", "POST", "table",
                cells("allowed", player="400 own_challenge", opponent="400 bad_request",
                      anonymous=no_token), writes=True,
                note=API_WRITE_NOTE + "; the host and whoever sits there already are "
                "refused; anyone else takes the free seat and the game starts"),
    ]


API_TOKENS: list[ViewRow] = [*_api_rows(), *_api_play_rows(), *_api_write_rows()]


# --- sockets -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SocketRow:
    socket: str  # "game", "lobby", "tournament" or "tournaments"
    message: str  # "connect" or a frame type the client sends
    scenario: str
    expect: dict[str, str]

    def outcome(self, role: str) -> str:
        if role == "opponent" and self.scenario in NO_OPPONENT:
            return NA
        return self.expect[role]


GAME_MESSAGES = ("connect", "ping", "sync", "turn", "queue", "resign", "spectators", "abort",
                 "claim", "chat", "chat_sync", "chat_mute", "chat_report", "unknown")


def _socket_rows() -> list[SocketRow]:
    rows = []
    for s in GAME_SCENARIOS:
        hidden = s in HIDDEN_TODAY
        over = s.endswith("-over") or s == "daily-past"

        def row(message: str, everyone: str, s: str = s, hidden: bool = hidden,
                **roles: str) -> SocketRow:
            if hidden:
                roles = {"others": "close 4403", **roles}
            return SocketRow("game", message, s, cells(everyone, **roles))

        # The table chat (docs/chat.md): members write in their role's room, during the
        # game and after it; guests and visitors read only. The mute names a member who is
        # none of the roles (max); the report names a message that is not there.
        readers: dict[str, str] = {} if hidden else {"anonymous": "chat_error sign_in"}
        if s == "guest-bot":  # the player is a guest
            readers["player"] = "chat_error sign_in"
        rows += [
            row("connect", "state"),
            row("ping", "pong"),
            row("sync", "state"),
            row("turn", "error not_a_player",
                player="error game_over" if over else "turn",
                opponent="error game_over" if over else "error not_your_turn"),
            # A pre-turn (games.turns.preturns): a seat's own, in a kind that hides information
            # (Cargo Express); these scenes are Cargo Connect's, which has none.
            row("queue", "error not_a_player",
                player="error game_over" if over else "error bad_request",
                opponent="error game_over" if over else "error bad_request"),
            row("resign", "error not_a_player",
                player="error game_over" if over else "resigned",
                opponent="error game_over" if over else "resigned"),
            row("spectators", "spectators"),
            # Each scene is before both players moved: a player may abort (not a Daily
            # Challenge game); no opponent has been away 60 s, so a claim is refused.
            row("abort", "error not_a_player",
                player="error game_over" if over else
                "error bad_request" if s.startswith("daily") else "ended",
                opponent="error game_over" if over else "ended"),
            row("claim", "error not_a_player",
                player="error game_over" if over else "error bad_request",
                opponent="error game_over" if over else "error bad_request"),
            row("chat", "chat", **readers),
            row("chat_sync", "chat_state"),
            row("chat_mute", "chat_muted", **readers),
            row("chat_report", "chat_error not_found", **readers),
            row("unknown", "error bad_frame"),
        ]
    rows += [
        SocketRow("lobby", "connect", "site", cells("seeks")),
        SocketRow("lobby", "ping", "site", cells("pong")),
        SocketRow("lobby", "unknown", "site", cells("error bad_frame")),
        # A tournament's page, live (tournaments/socket.py): whoever may open the page
        # (every role; a private tournament's page too: its password is asked to join).
        SocketRow("tournament", "connect", "tournament", cells("sections")),
        SocketRow("tournament", "ping", "tournament", cells("pong")),
        SocketRow("tournament", "sync", "tournament", cells("sections")),
        SocketRow("tournament", "unknown", "tournament", cells("error bad_frame")),
        # The tournaments' list, live (the same module): whoever may open the list.
        SocketRow("tournaments", "connect", "site", cells("list")),
        SocketRow("tournaments", "ping", "site", cells("pong")),
        SocketRow("tournaments", "sync", "site", cells("list")),
        SocketRow("tournaments", "unknown", "site", cells("error bad_frame")),
    ]
    return rows


SOCKETS = _socket_rows()


# --- the admin ---------------------------------------------------------------------------


@dataclass(frozen=True)
class AdminRow:
    """An admin view or action of one model (`app.model`), or a view of the admin site."""

    target: str  # "games.game", or "site" for the admin's own views
    view: str  # changelist, add, change, change POST, delete, delete POST, history, or
    #            "action <name>", or the admin site's URL name
    expect: dict[str, str]

    def outcome(self, role: str) -> str:
        return self.expect[role]


def admin_cells(**roles: str) -> dict[str, str]:
    """Members and visitors are sent to the admin's sign-in, staff without permissions
    refused, the superuser allowed; staff with change permissions as those with view
    permissions unless given."""
    out = {"member": "sign-in", "guest": "sign-in", "signed_out": "sign-in",
           "staff": "403", "staff_view": "403", "superuser": "allowed"}
    out.update(roles)
    out.setdefault("staff_change", out["staff_view"])
    return {role: out[role] for role in ADMIN_ROLES}


MODEL_VIEWS = ("changelist", "add", "change", "change POST", "delete", "delete POST",
               "history")
# Rows the site's services own: shown, never edited, added or deleted in the admin (a game
# ends through the finish seam, a rating is written by rankings.ratings, a Daily Challenge
# row by its services).
READ_ONLY = ("games.game", "games.turn", "games.challenge", "daily.dailygame",
             "daily.dailyvoid", "rankings.ratingchange", "rankings.botratingchange",
             "accounts.player", "chat.message", "chat.report", "tournaments.tournament",
             "tournaments.entry", "tournaments.pairing")
# The curators' work (puzzles, weeks), the moderators' (silences) and the organisers'
# (recurring tournaments): edited here.
CURATED = ("puzzles.puzzle", "puzzles.week", "chat.silence", "tournaments.schedule")
MEMBER_RECORDS = ("puzzles.progress",)  # shown; deleted by a superuser, never edited
ACTIONS = {
    "games.game": ("void_selected",),
    "daily.dailygame": ("void_outdated",),
    "puzzles.puzzle": ("validate_selected", "delete_selected"),
    "puzzles.week": ("draft_selected", "publish_selected", "delete_selected"),
    "puzzles.progress": ("delete_selected",),
    "chat.message": ("hide_selected", "show_selected", "silence_authors_day",
                     "silence_authors_week"),
    "chat.report": ("hide_reported",),
    "chat.silence": ("delete_selected",),
    "tournaments.schedule": ("delete_selected",),
    "tournaments.tournament": ("start_now",),
}
# Models of other apps in the admin (Django's auth, allauth, axes, ...): superusers only,
# checked on their lists; what else a superuser may do there is those apps' choice.
OTHER_MODELS = "other"


def _model_rows() -> list[AdminRow]:
    rows = []
    viewer = {"changelist": "allowed", "change": "allowed", "history": "allowed"}
    for model in (*READ_ONLY, *CURATED, *MEMBER_RECORDS):
        for view in MODEL_VIEWS:
            superuser = "allowed"
            if model in READ_ONLY and view in ("add", "change POST", "delete", "delete POST"):
                superuser = "403"
            if model in MEMBER_RECORDS and view in ("add", "change POST"):
                superuser = "403"
            changer = "allowed" if model in CURATED and view == "change POST" \
                else viewer.get(view, "403")
            rows.append(AdminRow(model, view, admin_cells(
                staff_view=viewer.get(view, "403"), staff_change=changer,
                superuser=superuser)))
        for action in ACTIONS.get(model, ()):
            rows.append(AdminRow(model, f"action {action}", admin_cells(
                staff_view="refused",
                staff_change="refused" if action == "delete_selected" else "allowed")))
    rows.append(AdminRow(OTHER_MODELS, "changelist", admin_cells()))
    return rows


SITE_ADMIN = [
    AdminRow("site", "admin:index", admin_cells(staff="allowed", staff_view="allowed")),
    AdminRow("site", "admin:login", admin_cells(
        member="allowed", guest="allowed", signed_out="allowed", staff="302 /admin/",
        staff_view="302 /admin/", superuser="302 /admin/")),
    AdminRow("site", "admin:logout", admin_cells(  # signing out is a POST
        member="302 /admin/", guest="302 /admin/", signed_out="302 /admin/", staff="405",
        staff_view="405", superuser="405")),
    AdminRow("site", "admin:password_change", admin_cells(staff="allowed",
                                                          staff_view="allowed")),
    AdminRow("site", "admin:password_change_done", admin_cells(staff="allowed",
                                                               staff_view="allowed")),
    AdminRow("site", "admin:jsi18n", admin_cells(staff="allowed", staff_view="allowed")),
    AdminRow("site", "admin:app_list", admin_cells(staff="404", staff_view="allowed")),
    AdminRow("site", "admin:autocomplete", admin_cells(staff="403", staff_view="403",
                                                       superuser="403")),
    AdminRow("site", "catch-all", admin_cells(staff="404", staff_view="404",
                                              superuser="404")),
    AdminRow("site", "admin:view_on_site", admin_cells(staff="404", staff_view="404",
                                                       superuser="404")),
]

ADMIN: list[AdminRow] = [*_model_rows(), *SITE_ADMIN]


# --- rendering ---------------------------------------------------------------------------


@dataclass
class Table:
    head: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.head) + " |",
                 "| " + " | ".join("---" for _ in self.head) + " |"]
        lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |"
                  for row in self.rows]
        return "\n".join(lines)


def render() -> str:
    views = Table(["URL name", "method", "scenario", *(ROLE_NAMES[r] for r in ROLES),
                   "allowed is", "note"])
    for v in VIEWS:
        views.rows.append([f"`{v.name}`", v.method, v.scenario,
                           *(v.outcome(r) for r in ROLES), v.allowed, v.note])
    api = Table(["URL name", "method", "scenario", *(ROLE_NAMES[r] for r in ROLES), "note"])
    for v in API_TOKENS:
        api.rows.append([f"`{v.name}`", v.method, v.scenario,
                         *(v.outcome(r) for r in ROLES), v.note])
    sockets = Table(["socket", "message", "scenario", *(ROLE_NAMES[r] for r in ROLES)])
    for s in SOCKETS:
        sockets.rows.append([s.socket, f"`{s.message}`", s.scenario,
                             *(s.outcome(r) for r in ROLES)])
    admin = Table(["model", "view or action", *(ADMIN_ROLE_NAMES[r] for r in ADMIN_ROLES)])
    for a in ADMIN:
        admin.rows.append([f"`{a.target}`", a.view, *(a.outcome(r) for r in ADMIN_ROLES)])
    scenarios = "\n".join(f"- `{key}`: {text}" for key, text in SCENARIOS.items())
    intro = __doc__.split("\n\n", 1)[1].rsplit("\n\nThis module", 1)[0]
    return f"""# Permissions

Who may do what on the site: every URL, every socket message and every admin view and
action, for each role. The tables are generated from `tests/permissions/matrix.py` (run
`python -m tests.permissions.matrix > docs/permissions.md`), and the tests in
`tests/permissions/` assert every cell. A URL pattern, socket message type, admin model
or admin action that has no row makes those tests fail.

Roles: the player holds a seat of the game (in `guest-bot`, that seat belongs to a guest's
browser session); the opponent holds the other seat; a spectator is a member with no seat;
a guest is a browser session that is not signed in and holds a seat of its own game
against CargoBot, not of this one; signed out is a browser with no session at all; staff
is a member with `is_staff`. On the site, staff and superusers have no powers beyond a
spectator's: their powers are in the admin.

{intro}

Hidden information never reaches a role that may not see it, whatever the outcome: no
response or frame contains a game's bot seed (the Daily Challenge's seed of the day is its
games' bot seed) or a guest's session key (the admin shows neither); a Daily Challenge game
of today is seen by its player only, until the day ends (midnight Pacific), and is
reviewed by no one until then; a refusal to anyone else tells nothing of it (no ply, no
state). Cargo Express is not on the site yet: its seats' hidden
hands will need rows here when its pages come (docs/architecture.md, "Adding a game").

## Scenarios

{scenarios}

## Pages and endpoints

{views.markdown()}

## The API with tokens

The public API (docs/api.md) is opened by a personal access token, sent as
`Authorization: Bearer <token>`, never by a session (above, every API endpoint answers a
browser 401 `no_token`). Here each member role sends a token of their own holding the
`read` scope. Every endpoint's scope, and every refusal of a token (none, malformed,
unknown, revoked, expired, without the scope, over its limit), is asserted for every
endpoint in `tests/api/test_scopes.py` and `tests/api/test_tokens.py`.

{api.markdown()}

## Socket messages

Each message is sent on a socket opened by that role (`connect` is the opening itself).

{sockets.markdown()}

## The admin

Staff with view permissions holds the view permission of every model of the site's apps
(games, daily, puzzles, rankings, accounts, chat), nothing else; staff with change
permissions holds their view and change permissions (no add, no delete): a moderator who
may void games, hide chat messages and silence their authors (and change a silence's end),
and a curator who edits, validates, drafts and publishes puzzles and weeks.
`refused`: the action is not offered, and posting it changes nothing.

{admin.markdown()}
"""


if __name__ == "__main__":
    print(render(), end="")
