"""The production ASGI server: uvicorn with the options the live protocol needs.

    python -m cargosite.serve --port 8001          # or --uds /run/cargo/asgi-1.sock

- `ws_max_size` is the protocol's frame limit (games.sockets.limits.MAX_FRAME_BYTES): a bigger
  WebSocket message is refused by the server (close 1009) before it is read, instead of
  being buffered up to uvicorn's default 16 MiB;
- `proxy_headers` with `forwarded_allow_ips`: behind nginx, the client's address and
  scheme come from X-Forwarded-For / X-Forwarded-Proto (the per-address budgets and the
  Origin check use them), trusted only from the addresses in FORWARDED_ALLOW_IPS;
- WebSocket keep-alive pings find dead connections; a graceful shutdown gives open
  sockets a few seconds to finish the frame they are handling;
- no per-message deflate: the protocol's frames are small (a turn frame is 1 to 4 KB),
  and compressing them cost each socket its zlib contexts (about 45 KB of memory with
  uvicorn's settings, kept for the socket's life) and each frame sent about 26 µs of CPU,
  measured alone (docs/live-play.md has what it gave under load). That is the fast path's
  (docs/fast-path.md): with LIVE_FAST_PATH=0 uvicorn's default (deflate offered) stays.
"""

from __future__ import annotations

import argparse
import os
from typing import Any


def uvicorn_options() -> dict[str, Any]:
    from django.conf import settings

    from games.sockets.limits import MAX_FRAME_BYTES

    return {
        "ws_max_size": MAX_FRAME_BYTES,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "ws_per_message_deflate": not settings.LIVE_FAST_PATH,
        "proxy_headers": True,
        "forwarded_allow_ips": os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        "timeout_graceful_shutdown": 5,
        "log_level": os.environ.get("UVICORN_LOG_LEVEL", "info"),
    }


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--uds", help="serve on this Unix socket instead of host:port")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cargosite.settings")
    where: dict[str, Any] = {"uds": args.uds} if args.uds else {"host": args.host,
                                                                 "port": args.port}
    from django.conf import settings

    from cargosite.asgi import application  # Django set up: what `tune_gc` freezes

    warm_up()
    say_connection_bound()
    tune_gc()
    if settings.METRICS_ENABLED:
        from games.frames.metrics import watch_gc

        watch_gc()
    uvicorn.run(application, lifespan="off", **where, **uvicorn_options())


def warm_up() -> None:
    """Load, before the first request, what that request would otherwise load on its own
    time: the URLconf and every view module it names (the API's django-ninja site, its
    routers and endpoints among them), each pattern compiled for resolving and reversing.
    Measured before this (docs/api.md, "The export's figures"): a process's first request
    took 832-1,522 ms, a warm one's first line 52-160 ms. Done before `tune_gc`, so the
    modules it loads are frozen with the rest of start-up."""
    from django.urls import get_resolver

    resolver = get_resolver()
    resolver.reverse_dict  # noqa: B018  (populates: imports the URLconf, its views and includes)
    for pattern in resolver.url_patterns:
        getattr(pattern, "url_patterns", None)  # an include's own URLconf, imported now


def say_connection_bound() -> None:
    """One line at start: how many PostgreSQL connections this process may hold (its pool's
    and the fast path's on the event loop; cargosite/settings.py, issue #42), to size
    PostgreSQL's max_connections by (docs/production.md, "Database connections")."""
    import logging

    from django.conf import settings

    log = logging.getLogger("cargosite.serve")
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return
    bound = settings.DB_CONNECTIONS_PER_PROCESS
    if bound is None:
        log.warning("no connection pool (DJANGO_DB_POOL=0): each request opens a PostgreSQL "
                    "connection of its own; only a pooler in front of PostgreSQL bounds them")
        return
    loop = settings.LIVE_LOOP_CONNECTIONS if settings.LIVE_FAST_PATH else 0
    log.info("PostgreSQL: this process holds at most %d connections (a pool of %d to %d, "
             "and %d on the event loop)", bound, settings.DB_POOL_MIN_SIZE,
             settings.DB_POOL_MAX_SIZE, loop)


def tune_gc() -> None:
    """Keep the garbage collector's pauses out of live play's tail (fast path,
    docs/fast-path.md, "cargosite/serve.py: the collector").

    Measured under Cargo Express's load (2026-12-03, `GAME=cargo-express
    scripts/load_run.sh 100 40`, Python's defaults, a busy machine): per process in about a
    minute, 430 young collections (2 s in all, the longest 0.17 s), 40 middle ones (1.2 s,
    up to 0.15 s) and 4 full ones (1.3-1.9 s, up to 1.1 s), each stopping the event loop
    and every socket it serves. Most objects a server holds are made at start (Django, the
    URLconf, the apps, the engines' tables) and live forever: `gc.freeze` takes them out of
    every collection. A young generation of `LIVE_GC_YOUNG` objects instead of 700 makes
    collections rare; the older generations keep Python's ratios. Off with
    LIVE_FAST_PATH=0 or LIVE_GC_YOUNG=0: Python's defaults."""
    import gc

    from django.conf import settings

    if not settings.LIVE_FAST_PATH or settings.LIVE_GC_YOUNG <= 0:
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(settings.LIVE_GC_YOUNG, middle, old)


if __name__ == "__main__":
    main()
