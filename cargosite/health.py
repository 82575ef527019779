"""Checks behind /healthz: each one raises on failure and returns None when healthy.

The answer names a failing check only ("failed"): the error's text (a host and port, a
driver's message) goes to the log, never to whoever asked (issue #28, point 10)."""

import asyncio
import contextlib
import logging
import uuid
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection

log = logging.getLogger(__name__)


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        (value,) = cursor.fetchone()
    if value != 1:
        raise RuntimeError(f"SELECT 1 returned {value!r}")


async def check_channel_layer() -> None:
    """Send a message to a fresh channel through the configured layer and read it back."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    try:
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await layer.receive(channel)
    finally:
        await _release(layer, channel)
    if message.get("token") != token:
        raise RuntimeError(f"read back {message!r}, expected token {token}")


async def _release(layer: Any, channel: str) -> None:
    # Channels has no delete_channel(); the layers drop a channel (the Redis pub/sub layer
    # unsubscribes) when a pending receive() on it is cancelled. Without this every check
    # would leave a subscription behind in a long-running server.
    pending = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(0)
    pending.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await pending


async def run_checks(timeout: float) -> dict[str, str]:
    """Run every check with a timeout; map check name to "ok", "timeout" or "failed". Why
    a check failed is logged (one line, no traceback), not answered."""
    checks = {
        "database": sync_to_async(check_database),
        "channel_layer": check_channel_layer,
    }
    results = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check(), timeout)
        except TimeoutError:
            log.warning("healthz: %s timed out after %ss", name, timeout)
            results[name] = "timeout"
        except Exception as exc:
            log.warning("healthz: %s failed: %s: %s", name, type(exc).__name__, exc)
            results[name] = "failed"
        else:
            results[name] = "ok"
    return results
