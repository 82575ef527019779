"""BOT accounts over the API (issue #47; docs/api.md, "BOT accounts"), after lichess's: an
account becomes a BOT account through the API alone (`POST /api/bot/account/upgrade` with
a `bot:play` token), once, only while it has played nothing, and for good. The flag is the
accounts app's (`accounts.bots`: `Player.bot_since`); the rule of who may is here, since
the API is its only door.

- `upgrade(user)`: under a lock of the member's row, refused (409, with a code, nothing
  changed) for a BOT account already (`already_bot`), an account that holds a seat of any
  game of any kind and mode, finished, aborted or going on (`has_played`), one seated at
  an open table (`seated`: the table would start with a BOT in a person's seat), or one
  entered in a tournament not over (`in_tournament`: tournaments that bar bots would have
  one).
- The doors' account checks, run by `TokenAuth` after the token's own: the bot door
  (`/api/bot/…` but the upgrade) takes BOT accounts only (`bots_only`: a person's
  `bot:play` token is refused `403 not_a_bot`); the board door people only (`people_only`:
  a BOT account's `board:play` token is refused `403 bot_account`), as lichess keeps them
  apart."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction

from accounts import bots as accounts_bots
from games.models import Challenge, Seat, TableSeat
from tournaments.models import Entry, Tournament

from .errors import ApiError, Code

UPGRADE_DOC = "POST /api/bot/account/upgrade"


def _is_bot(user: Any) -> bool:
    """`accounts.bots.is_bot` from the member's player row, which the token's check loaded
    with the token (api.tokens, api.oauth: no query of its own on a decision); a query if
    it was not loaded."""
    try:
        return user.player.bot_since is not None
    except ObjectDoesNotExist:  # no player row: a person
        return False


def bots_only(user: Any) -> None:
    """The bot door: a BOT account's token only."""
    if not _is_bot(user):
        raise ApiError(Code.NOT_A_BOT, "The bot endpoints play for BOT accounts only, and "
                       "this is a person's account: play through /api/board/… with a "
                       "'board:play' token, or make an account that has never played a "
                       f"BOT account ({UPGRADE_DOC}).")


def people_only(user: Any) -> None:
    """The board door: a person's token only."""
    if _is_bot(user):
        raise ApiError(Code.BOT_ACCOUNT, "This is a BOT account: it plays through "
                       "/api/bot/… with a 'bot:play' token, never through the board "
                       "endpoints.")


def upgrade(user: Any) -> dt.datetime:
    """Make `user` a BOT account, or refuse (nothing changed) saying why; when it became
    one."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if accounts_bots.is_bot(user.pk):
            raise ApiError(Code.ALREADY_BOT, "This account is a BOT account already.")
        played = Seat.objects.filter(user=user).count()
        if played:
            raise ApiError(Code.HAS_PLAYED, f"This account has played: it holds a seat of "
                           f"{played} game{'s' if played > 1 else ''}. Only an account that "
                           "has never played a game may become a BOT account: make a new "
                           "account for the bot.")
        if TableSeat.objects.filter(user=user, challenge__status=Challenge.Status.OPEN
                                    ).exists():
            raise ApiError(Code.SEATED, "This account sits at an open table or challenge: "
                           "leave it (or cancel it) first.")
        if Entry.objects.filter(user=user, withdrew_round__isnull=True, tournament__status__in=(
                Tournament.Status.SCHEDULED, Tournament.Status.RUNNING)).exists():
            raise ApiError(Code.IN_TOURNAMENT, "This account is entered in a tournament "
                           "that is not over: withdraw from it first.")
        player = accounts_bots.mark(user)
    assert player.bot_since is not None
    return player.bot_since
