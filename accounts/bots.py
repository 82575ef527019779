"""BOT accounts (issue #47; docs/api.md, "BOT accounts"): the flag (`Player.bot_since`),
set once and never cleared (`mark`, called by the API's upgrade, `api.bots.upgrade`, which
holds the rule of who may), and read two ways:

- for rules (`is_bot`): from the database, every time;
- for display (`titles`, `titles_by_name`: the "BOT" before a name on every page, in the
  lobby's rows and the live protocol's holders) and the site's pages' refusal: from one
  map of every BOT account (id → username) in the site's cache (Redis in production,
  shared by the processes), kept `CACHED_FOR` seconds and dropped when an upgrade commits,
  and held `HELD_FOR` seconds in each process. BOT accounts are few, and a name is looked
  up per page by the hundred (a ranking board, a tournament's standings), so one read of
  the map beats a query per name.

Registered as the platform's title keeper (`games.titles`) when the app loads.
`SitePlayMiddleware` keeps a BOT account's browser off play's pages (docs/api.md)."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterable
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from common.errors import error_page
from games.titles import BOT

from .models import Player

CACHE_KEY = "accounts:bot-accounts:v1"
CACHED_FOR = 300  # seconds, in the site's cache
HELD_FOR = 5.0  # seconds, in this process (a page of a hundred names reads the cache once)
_held: dict[str, Any] = {}
_lock = threading.Lock()


def is_bot(user_id: int) -> bool:
    return Player.objects.filter(user_id=user_id, bot_since__isnull=False).exists()


def bot_since(user: Any) -> dt.datetime | None:
    """When the member became a BOT account (None: a person), from the database."""
    return Player.objects.filter(user_id=user.pk).values_list("bot_since", flat=True).first()


def mark(user: Any) -> Player:
    """Make `user` a BOT account now (the caller checked that it may, under a lock of the
    member's row); the display map is dropped at once and again when this commits."""
    player, _ = Player.objects.get_or_create(user=user)
    if player.bot_since is None:
        player.bot_since = timezone.now()
        player.save(update_fields=["bot_since"])
    forget()
    transaction.on_commit(forget)
    return player


def forget() -> None:
    """Drop the display map (read again at the next look-up)."""
    with _lock:
        _held.clear()
    try:
        cache.delete(CACHE_KEY)
    except Exception:  # pragma: no cover - the cache is down: it holds nothing to drop
        pass


def bot_accounts() -> dict[int, str]:
    """Every BOT account, id → username (cached)."""
    with _lock:
        if _held and time.monotonic() - _held["at"] < HELD_FOR:
            return dict(_held["map"])
    found = _read()
    with _lock:
        _held.update(map=found, at=time.monotonic())
    return dict(found)


def _read() -> dict[int, str]:
    try:
        known = cache.get(CACHE_KEY)
    except Exception:  # pragma: no cover - the cache is down: read the table
        known = None
    if isinstance(known, dict):
        return known
    found = dict(Player.objects.filter(bot_since__isnull=False)
                 .values_list("user_id", "user__username"))
    try:
        cache.set(CACHE_KEY, found, CACHED_FOR)
    except Exception:  # pragma: no cover
        pass
    return found


class Titles:
    """`games.titles.TitleKeeper`: the accounts app's answers."""

    def titles(self, user_ids: Iterable[int]) -> dict[int, str]:
        bots = bot_accounts()
        return {i: BOT for i in user_ids if i in bots}

    def titles_by_name(self, usernames: Iterable[str]) -> dict[str, str]:
        names = {name.casefold() for name in bot_accounts().values()}
        return {name: BOT for name in usernames if name.casefold() in names}

    def is_bot(self, user_id: int) -> bool:
        return is_bot(user_id)


# The site's pages: a BOT account plays through the API only (lichess's rule). Its browser
# session may read every page and keep its account (tokens, notifications, password), but
# every POST of play's namespaces is refused with the 403 page saying why; the game socket
# takes it for a spectator (`games.actors`: its actor is None on the site). Entering a
# tournament is not playing (the API has no door to it yet): the tournament's own rule
# refuses a BOT account where bots are barred, and its games are played through the API.
PLAY_NAMESPACES = frozenset({"games", "daily", "puzzles"})
REFUSED = ("This is a BOT account: it plays through the API (/api/bot/…), not on the "
           "site's pages.")


class SitePlayMiddleware:
    """Refuse a BOT account's POSTs to play's pages (games and tables, the Daily
    Challenge, the puzzles), nothing changed."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        return self.get_response(request)

    def process_view(self, request: Any, view: Any, args: Any, kwargs: Any) -> Any:
        if request.method != "POST" or not request.user.is_authenticated:
            return None
        match = request.resolver_match
        if match is None or match.namespace not in PLAY_NAMESPACES:
            return None
        if request.user.pk not in bot_accounts():
            return None
        return error_page(request, 403, REFUSED)
