"""The cache over Redis that keeps answering while Redis is down (issue #28, point 3).

allauth's rate limits (sign-in, sign-up, password reset) take a lock and read a history in
the default cache; Django's `RedisCache` raises `ConnectionError` when Redis is down and
those pages answered 500. `FallbackRedisCache` does every operation in this process's
memory instead while Redis does not answer: the limits still hold, per process, during an
outage (their histories start empty, and what was counted in memory is forgotten when
Redis is back). After a failure Redis is tried again only after `RETRY_SECONDS`, so an
outage costs one refused (or timed-out) connection per process every few seconds, not one
per operation. One warning line per outage, then at most one a minute; the first
operation that succeeds again logs that Redis is back.

One Redis client (and so one connection pool) per process and server: Django makes a cache
object per asyncio context, so per request under ASGI, and `RedisCache` gives each object
its own client and pool, so every request opened a new TCP connection to Redis (with
redis-py's handshake) and dropped it; the API's limits, asked on every request, paid that
each time (docs/api.md, "The bot games' figures"). The client is thread-safe (redis-py's
pool is), so the objects share it (`_shared_client`).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
T = TypeVar("T")
_CLIENTS: dict[str, Any] = {}  # servers and options -> the process's RedisCacheClient
_CLIENTS_LOCK = threading.Lock()
RETRY_SECONDS = 5.0
LOG_EVERY_SECONDS = 60.0


def _falls_back(method: Callable[..., T]) -> Callable[..., T]:
    """`RedisCache`'s `method`, done in memory while Redis does not answer."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> T:
        if time.monotonic() < self._down_until:
            return getattr(self._memory, name)(*args, **kwargs)
        try:
            result: T = getattr(RedisCache, name)(self, *args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError) as error:
            self._went_down(error)
            return getattr(self._memory, name)(*args, **kwargs)
        if self._down_since is not None:
            self._came_back()
        return result

    return wrapper


class FallbackRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        # Django makes a cache object per thread; LocMemCache objects of one name share
        # their store, so every thread of the process sees the same limits.
        self._memory = LocMemCache(f"cargo-fallback-{server}", {
            "KEY_PREFIX": params.get("KEY_PREFIX", ""), "TIMEOUT": params.get("TIMEOUT", 300),
            "OPTIONS": {"MAX_ENTRIES": 10_000}})
        self._down_until = float("-inf")
        self._down_since: float | None = None
        self._last_log = float("-inf")
        self._quiet = 0
        self._lock = threading.Lock()

    @functools.cached_property
    def _cache(self) -> Any:  # RedisCache's own, one per object: a pool per request
        return _shared_client(self)

    def _went_down(self, error: BaseException) -> None:
        with self._lock:
            now = time.monotonic()
            self._down_until = now + RETRY_SECONDS
            if self._down_since is None:
                self._down_since = now
            if now - self._last_log < LOG_EVERY_SECONDS:
                self._quiet += 1
                return
            self._last_log, quiet, self._quiet = now, self._quiet, 0
        log.warning("the cache's Redis is not answering (%s: %s); using this process's "
                    "memory, Redis tried again every %.0f s%s", type(error).__name__, error,
                    RETRY_SECONDS, f" ({quiet} more failures since the last)" if quiet else "")

    def _came_back(self) -> None:
        with self._lock:
            since, self._down_since = self._down_since, None
            self._last_log, self._quiet = float("-inf"), 0
        if since is not None:
            log.warning("the cache's Redis answers again after %.0f s",
                        time.monotonic() - since)

    def count(self, key: str, timeout: int) -> int:
        """One more in the counter `key`, made at 0 to last `timeout` seconds if it is not
        there: its new value. One round trip, atomic (`SET … NX EX` and `INCR` in one
        MULTI), where `add` then `incr` take three (`incr` asks `EXISTS` first); in this
        process's memory while Redis does not answer, as every operation here."""
        if time.monotonic() >= self._down_until:
            try:
                made = self.make_and_validate_key(key)
                pipe = self._cache.get_client(made, write=True).pipeline(transaction=True)
                counted = int(pipe.set(made, 0, ex=timeout, nx=True).incr(made).execute()[1])
            except (RedisConnectionError, RedisTimeoutError) as error:
                self._went_down(error)
            else:
                if self._down_since is not None:
                    self._came_back()
                return counted
        self._memory.add(key, 0, timeout=timeout)
        return int(self._memory.incr(key))

    add = _falls_back(RedisCache.add)
    get = _falls_back(RedisCache.get)
    set = _falls_back(RedisCache.set)
    touch = _falls_back(RedisCache.touch)
    delete = _falls_back(RedisCache.delete)
    get_many = _falls_back(RedisCache.get_many)
    has_key = _falls_back(RedisCache.has_key)
    incr = _falls_back(RedisCache.incr)
    set_many = _falls_back(RedisCache.set_many)
    delete_many = _falls_back(RedisCache.delete_many)
    clear = _falls_back(RedisCache.clear)


def _shared_client(cache: Any) -> Any:
    """The process's client for `cache`'s servers and options, made once."""
    key = repr((cache._servers, sorted(cache._options.items())))
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(key)
        if client is None:
            client = _CLIENTS[key] = cache._class(cache._servers, **cache._options)
        return client
