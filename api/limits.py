"""How often the API may be asked: per address (every request, before its token is read,
so guessing tokens is slow too) and per token. A refusal is 429 `rate_limited` with
`Retry-After`, and the request is not run.

Fixed windows counted in the site's cache (Redis in production, through
`cargosite.cache.FallbackRedisCache`, which keeps counting in memory while Redis is down):
one atomic count per limit (`FallbackRedisCache.count`: `SET NX EX` and `INCR` in one
MULTI, one round trip; `add` then `incr` on other caches), so two processes never both
spend the last request of a window. Not allauth's limiter (internal to allauth, POST only,
it says no wait) nor django-ninja's throttles (they read a history and write it back
without a lock): docs/api.md, "Limits"."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from .errors import ApiError, Code


@dataclass(frozen=True)
class Limit:
    name: str
    requests: int
    seconds: int


def per_address() -> Limit:
    requests, seconds = settings.API_LIMIT_PER_ADDRESS
    return Limit("address", requests, seconds)


def per_token() -> Limit:
    requests, seconds = settings.API_LIMIT_PER_TOKEN
    return Limit("token", requests, seconds)


def address_of(request: HttpRequest) -> str:
    """The asker's address (uvicorn sets REMOTE_ADDR from X-Forwarded-For when the proxy
    is trusted, cargosite/serve.py)."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def charge(limit: Limit, who: str, now: float | None = None) -> None:
    """Count one request of `who` against `limit`, or refuse it (nothing else done)."""
    moment = time.time() if now is None else now
    window = int(moment // limit.seconds)
    count = _counted(f"api:rl:{limit.name}:{who}:{window}", limit.seconds + 1)
    if count > limit.requests:
        wait = max(1, math.ceil((window + 1) * limit.seconds - moment))
        raise ApiError(Code.RATE_LIMITED, f"Too many requests from this {limit.name}: at "
                       f"most {limit.requests} in {limit.seconds} seconds. Try again in "
                       f"{wait} seconds.", retry_after=wait)


def _counted(key: str, timeout: int) -> int:
    """One more request in the window's counter: the cache's `count` where it has one
    (`FallbackRedisCache`: one round trip), else `add` and `incr` (each atomic)."""
    count = getattr(cache, "count", None)
    if count is not None:
        return int(count(key, timeout))
    cache.add(key, 0, timeout=timeout)
    try:
        return int(cache.incr(key))
    except ValueError:  # the key expired between the two calls: a new window
        cache.add(key, 1, timeout=timeout)
        return 1


def clear(limit: Limit, who: str, now: float | None = None) -> None:
    """Forget this window's count (the tests' fresh start)."""
    moment = time.time() if now is None else now
    cache.delete(f"api:rl:{limit.name}:{who}:{int(moment // limit.seconds)}")
