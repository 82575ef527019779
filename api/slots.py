"""How many live streams are open at once: at most `API_STREAMS_PER_TOKEN` a key (a
personal token or an app's token) and `API_STREAMS_PER_MEMBER` a member over all their
keys. The next stream is refused 429 `too_many_streams` with `Retry-After`, before its
answer starts.

A stream holds one slot of each: a key of the site's cache (Redis in production, so every
ASGI process sees the same slots), taken with one atomic `add` and leased for
`lease_seconds()`. The stream renews its lease as its lines go out (a keep-alive at least
every `API_STREAM_KEEPALIVE` seconds) and deletes its slots when it ends, in a `finally`
that runs when the client goes too (Django cancels the body's iterator). A slot whose
process died before that `finally`, or whose answer never started, is free when its lease
runs out: the count cannot leak for longer than a lease."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from .errors import ApiError, Code

PREFIX = "api:streams"


@dataclass
class Held:
    """The slots one open stream holds (cache keys), and when their lease was renewed."""

    keys: list[str] = field(default_factory=list)
    renewed: float = 0.0


def lease_seconds() -> int:
    """A slot's lease: three keep-alives, at least a minute."""
    return max(60, math.ceil(3 * float(settings.API_STREAM_KEEPALIVE)))


def retry_after() -> int:
    """The wait a refusal asks for: a keep-alive's span, in which a stream whose client
    left has written (and found it gone) at least once."""
    return max(1, math.ceil(float(settings.API_STREAM_KEEPALIVE)))


def _take(prefix: str, cap: int) -> str | None:
    lease = lease_seconds()
    for number in range(cap):
        key = f"{prefix}:{number}"
        if cache.add(key, 1, timeout=lease):
            return key
    return None


def take(key: str, member_id: int) -> Held:
    """A slot of this key's and of the member's for a stream about to open, or the
    refusal (nothing held)."""
    per_key, per_member = settings.API_STREAMS_PER_TOKEN, settings.API_STREAMS_PER_MEMBER
    mine = _take(f"{PREFIX}:key:{key}", per_key)
    if mine is None:
        raise ApiError(Code.TOO_MANY_STREAMS, f"This token has {per_key} streams open, the "
                       "most at once: close one first.", retry_after=retry_after())
    theirs = _take(f"{PREFIX}:member:{member_id}", per_member)
    if theirs is None:
        cache.delete(mine)
        raise ApiError(Code.TOO_MANY_STREAMS, f"This account has {per_member} streams open "
                       "over its tokens and apps, the most at once: close one first.",
                       retry_after=retry_after())
    return Held([mine, theirs], time.monotonic())


def due(held: Held) -> bool:
    """Has a third of the lease passed since the slots were renewed?"""
    return time.monotonic() - held.renewed >= lease_seconds() / 3


def renew(held: Held) -> None:
    """Extend the slots' lease."""
    lease = lease_seconds()
    held.renewed = time.monotonic()
    for key in held.keys:
        if not cache.touch(key, lease):
            cache.add(key, 1, timeout=lease)  # lapsed (a stalled process): taken again


def release(held: Held) -> None:
    if held.keys:
        cache.delete_many(held.keys)
        held.keys = []


def open_count(key: str) -> int:
    """How many slots of this key are held now (the tests' and the figures' reading)."""
    return sum(cache.has_key(f"{PREFIX}:key:{key}:{number}")
               for number in range(settings.API_STREAMS_PER_TOKEN))


async def holding(held: Held, lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """A stream's lines, its slots renewed as they go and released when it ends, however
    it ends (the game over, the token revoked, the client gone)."""
    try:
        async for out in lines:
            yield out
            if due(held):  # the cache is asked only then, not for every line
                await sync_to_async(renew)(held)
    finally:
        await asyncio.shield(_closed(held, lines))


async def _closed(held: Held, lines: AsyncIterator[bytes]) -> None:
    try:
        # ended, cancelled (the client gone: the lines' own `finally` ran) or closed here;
        # the loop may be closing it already (a dropped response): then that one finishes
        with contextlib.suppress(RuntimeError):
            await lines.aclose()  # type: ignore[attr-defined]
    finally:
        await sync_to_async(release)(held)
