"""The live fast path: every piece of live play that leaves Django's, Channels',
channels_redis's or psycopg's usual way to take CPU off a turn, in one place, behind one
setting. docs/fast-path.md lists each piece, what it replaces, the library internals it
relies on and what it was measured to save; each module here says the same in short.

The pieces (each module's docstring carries its note):
- `games.fast.warm`: games kept loaded between turns (`keep`, `get`, `follow`'s copies).
- `games.fast.statements`: the turn's one hand-built conditional write (`write_turn`,
  `awrite_turn`, `NewTurn`), prepared on PostgreSQL.
- `games.fast.loopdb`: PostgreSQL from the event loop through libpq (`execute`).
- `games.fast.guard`: `SessionGuard`'s conditions as SQL inside the write (`in_sql`,
  `sql`) and `now_for`.
- `games.fast.turns`: the common turn from a warm copy (`apply_warm`, on a thread;
  `apply_turn_on_loop`, on the event loop) and `follow` (a copy brought up to a turn
  another process wrote).
- `games.fast.runtime`: the consumers' runtime (`FastDispatch`: dispatch without
  Channels' per-message connection hop, one task per message source; `on_pool`: a
  live-db thread that keeps its connection).
- Outside this package, where Django's settings or the ASGI entry point need them, switched
  by the same setting: `cargosite/channel_layer.py` (the pipelined pub/sub layer; the
  settings pick channels_redis's own `RedisPubSubChannelLayer` when off),
  `cargosite/socket_session.py` (the socket's session without Channels' send wrapper;
  Channels' `AuthMiddlewareStack` when off), `cargosite/serve.py` (uvicorn without
  per-message deflate; uvicorn's default when off) and `cargosite/settings.py`
  (psycopg's `prepare_threshold` for the prepared write; Django's default when off).

The switch: `LIVE_FAST_PATH` (environment `LIVE_FAST_PATH=0/1`, default on;
cargosite/settings.py). Off, every turn takes the locked path (`games.turns.play._apply_locked`:
Django's transaction, row lock and `Turn` model), no game is kept warm, no loop connection
is opened, a socket's session is read with Django's session store before each turn
(`SessionGuard.holds`), consumers dispatch as Channels does, and the settings choose the
libraries' own classes. Finer switches under it, for measuring one piece: with it on,
`LIVE_LOOP_CONNECTIONS=0` turns off the loop's write alone and `LIVE_WARM_GAMES=0` the warm
copies (and with them every piece that writes from a copy).

`PINNED` is the version of each library whose internals these pieces use, as they were
written and measured against; tests/platform/test_fast_path_pins.py fails when an
installed version or requirements.txt differs, so an upgrade makes someone read the pieces
again against the new version (docs/fast-path.md, "The versions it was written against").

Outside this package only public names (no leading underscore) are used
(tests/platform/test_boundaries.py).
"""

from __future__ import annotations

from django.conf import settings

# Distribution name (as requirements.txt spells it) -> the exact version the fast path's
# pieces were read against. hiredis is pinned too but only parses replies (no internals).
PINNED: dict[str, str] = {
    "Django": "5.2.19",
    "channels": "4.3.2",
    "channels_redis": "4.3.0",
    "redis": "8.1.0",
    "psycopg": "3.3.9",
    "psycopg-binary": "3.3.9",
    "asgiref": "3.13.0",
    "uvicorn": "0.54.0",
    "orjson": "3.13.0",
}


def enabled() -> bool:
    """Is the fast path on? (`LIVE_FAST_PATH`, read by the settings; tests may override.)"""
    return bool(getattr(settings, "LIVE_FAST_PATH", True))
