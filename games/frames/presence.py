"""Who is here: the spectators of each game and the members online, shared by every process.

**Spectators.** A game's spectator count is the number of open game sockets of viewers who
hold no seat in it (members, guests and anonymous visitors alike; two tabs are two). Each
such socket is a member of the sorted set `presence:watch:<game>`, scored by when its entry
expires (`SPECTATOR_TTL` after it joined or last pinged; the page pings every 25 s). A
socket leaving removes itself; a process that dies without closing its sockets leaves
entries that expire within `SPECTATOR_TTL`. The count is what has not expired.

**Online.** A member is online if they loaded a page (`OnlineMiddleware`, at most one write
a minute per member and process) or their open socket connected or pinged in the last
`ONLINE_SECONDS`: one sorted set `presence:online`, member id scored by when last seen.

With REDIS_URL set the sets live in Redis (the same server as the channel layer and the
cache), so several ASGI processes add up to one count; without it they live in this
process, which is all there is in development and tests. docs/front-end.md has the
decisions.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from django.conf import settings
from django.http import HttpRequest, HttpResponse

SPECTATOR_TTL = 90  # seconds; the page pings every 25 s
ONLINE_SECONDS = 300
TOUCH_EVERY = 60  # a member's page loads write "seen" at most this often
MAX_ONLINE_SHOWN = 50


def now() -> float:
    return time.time()


class Store(Protocol):
    def put(self, key: str, member: str, score: float, ttl: int) -> None: ...
    def remove(self, key: str, member: str) -> None: ...
    def count_above(self, key: str, floor: float) -> int: ...
    def members_above(self, key: str, floor: float, limit: int) -> list[str]: ...
    def clear(self) -> None: ...


class MemoryStore:
    """Sorted sets in this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sets: dict[str, dict[str, float]] = {}

    def put(self, key: str, member: str, score: float, ttl: int) -> None:
        with self.lock:
            self.sets.setdefault(key, {})[member] = score

    def remove(self, key: str, member: str) -> None:
        with self.lock:
            members = self.sets.get(key)
            if members is not None:
                members.pop(member, None)
                if not members:
                    del self.sets[key]

    def _prune(self, key: str, floor: float) -> dict[str, float]:
        members = self.sets.get(key, {})
        for member in [m for m, score in members.items() if score < floor]:
            del members[member]
        return members

    def count_above(self, key: str, floor: float) -> int:
        with self.lock:
            return len(self._prune(key, floor))

    def members_above(self, key: str, floor: float, limit: int) -> list[str]:
        with self.lock:
            members = self._prune(key, floor)
            return [m for m, _ in sorted(members.items(), key=lambda kv: -kv[1])][:limit]

    def clear(self) -> None:
        with self.lock:
            self.sets.clear()


class RedisStore:
    """Sorted sets in Redis; each key expires when nothing has refreshed it for `ttl`."""

    PREFIX = "cargo:presence:"

    def __init__(self, url: str) -> None:
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    def put(self, key: str, member: str, score: float, ttl: int) -> None:
        pipe = self.client.pipeline()
        pipe.zadd(self.PREFIX + key, {member: score})
        pipe.expire(self.PREFIX + key, ttl)
        pipe.execute()

    def remove(self, key: str, member: str) -> None:
        self.client.zrem(self.PREFIX + key, member)

    def count_above(self, key: str, floor: float) -> int:
        pipe = self.client.pipeline()
        pipe.zremrangebyscore(self.PREFIX + key, "-inf", f"({floor}")
        pipe.zcard(self.PREFIX + key)
        return int(pipe.execute()[1])

    def members_above(self, key: str, floor: float, limit: int) -> list[str]:
        self.client.zremrangebyscore(self.PREFIX + key, "-inf", f"({floor}")
        found = self.client.zrevrange(self.PREFIX + key, 0, limit - 1)
        return [m.decode() if isinstance(m, bytes) else str(m) for m in found]

    def clear(self) -> None:
        for key in self.client.scan_iter(self.PREFIX + "*"):
            self.client.delete(key)


_store: Store | None = None
_store_lock = threading.Lock()


def store() -> Store:
    global _store
    with _store_lock:
        if _store is None:
            url = getattr(settings, "REDIS_URL", "")
            _store = RedisStore(url) if url else MemoryStore()
        return _store


def reset(new: Store | None = None) -> None:
    """Forget everything (tests), or use `new` as the store."""
    global _store
    _touched.clear()
    with _store_lock:
        if new is not None:
            _store = new
        elif _store is not None:
            _store.clear()


def _watch_key(game_id: str) -> str:
    return f"watch:{game_id}"


# --- spectators --------------------------------------------------------------------------


def watch(game_id: str, socket_id: str) -> int:
    """A spectator's socket opened (or pinged): the game's count after it."""
    store().put(_watch_key(game_id), socket_id, now() + SPECTATOR_TTL, SPECTATOR_TTL)
    return spectators(game_id)


def unwatch(game_id: str, socket_id: str) -> int:
    store().remove(_watch_key(game_id), socket_id)
    return spectators(game_id)


def spectators(game_id: str) -> int:
    return store().count_above(_watch_key(game_id), now())


def spectators_frame(game_id: str, count: int) -> dict[str, Any]:
    return {"type": "spectators", "game": game_id, "count": count}


# --- members online ----------------------------------------------------------------------


ONLINE_KEY = "online"


def seen(user_id: int) -> None:
    store().put(ONLINE_KEY, str(user_id), now(), ONLINE_SECONDS)


def online_ids(limit: int = MAX_ONLINE_SHOWN) -> list[int]:
    """Members seen in the last ONLINE_SECONDS, most recent first."""
    return [int(m) for m in store().members_above(ONLINE_KEY, now() - ONLINE_SECONDS, limit)]


def online_count() -> int:
    return store().count_above(ONLINE_KEY, now() - ONLINE_SECONDS)


_touched: dict[int, float] = {}  # member id -> when this process last wrote "seen"


def touch(user_id: int) -> None:
    """`seen`, at most once a TOUCH_EVERY per member and process."""
    moment = now()
    if moment - _touched.get(user_id, float("-inf")) < TOUCH_EVERY:
        return
    if len(_touched) > 10_000:
        _touched.clear()
    _touched[user_id] = moment
    seen(user_id)


class OnlineMiddleware:
    """Marks a signed-in member as seen on each page (`touch`). A failing store never
    fails the page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                touch(user.pk)
            except Exception:  # Redis down: presence is a nicety
                pass
        return self.get_response(request)
