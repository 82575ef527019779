"""The upgrade to a BOT account, lichess's `POST /api/bot/account/upgrade`: with a
`bot:play` token of an account that has never played, once and for good (`api.bots`: the
rule, and every refusal's code)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router

from games.titles import BOT

from .. import bots, examples
from ..auth import bearer
from ..errors import Code
from ..operations import endpoint
from ..schemas import UpgradeOut
from ..scopes import Scope
from .shapes import iso

router = Router(tags=["Bot play"])


@router.post("/bot/account/upgrade", operation_id="botAccountUpgrade",
             url_name="bot_upgrade", **endpoint(
    Scope.BOT_PLAY, "Make this account a BOT account",
    "The token's account becomes a BOT account, for good: marked BOT before its name "
    "everywhere, it plays through the bot endpoints only (`/api/bot/…`, never the board "
    "endpoints nor the site's game pages), takes challenges and seats at open tables "
    "(`challenge:write`), plays rated games against people, and is refused by tournaments "
    "that bar bots. Only an account that has never played a game (of any kind, in any "
    "mode), sits at no open table and is entered in no tournament may: otherwise 409 with "
    "`already_bot`, `has_played`, `seated` or `in_tournament`, and nothing changes. The "
    "only bot endpoint a person's token may call.",
    UpgradeOut, examples.UPGRADED, Code.ALREADY_BOT))
def upgrade(request: HttpRequest) -> dict[str, Any]:
    user = bearer(request).user
    since = bots.upgrade(user)
    return {"ok": True, "username": user.get_username(), "title": BOT, "bot_since": iso(since)}
