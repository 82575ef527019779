"""What a deployment watches on the live path, in Prometheus's text format (`/metrics`,
on when `METRICS_ENABLED`): turns applied (by the path that stored them), refusals by
code, open sockets, text frames that were not UTF-8, channel-layer sends that failed,
CargoBot's latency (from the moment a game waits on the bot to the bot's turn applied),
flags fallen and, in the ASGI server, the garbage collector's pauses.

The counters are `prometheus_client`'s. Several ASGI processes and Celery workers on one
host share them through its multiprocess mode: set `PROMETHEUS_MULTIPROC_DIR` to an empty
directory for all of them (scripts/topology.sh does) and `/metrics` on any process sums
every process of the host. Without it each process counts for itself (the embedded
default is one process). A process killed with -9 leaves its open-socket count in
that directory until the directory is emptied (the topology's start does).
"""

from __future__ import annotations

import functools
import os
from datetime import datetime

from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

TURNS = Counter("cargo_turns_applied_total", "Turns applied, by the path that stored them "
                "(loop: the warm copy's one conditional write from the event loop; warm: the same "
                "from a thread; locked: the row lock)", ["path"])
REFUSALS = Counter("cargo_refusals_total", "Requests and frames refused, by error code",
                   ["code"])
SOCKETS = Gauge("cargo_open_sockets", "WebSockets open now", ["socket"],
                multiprocess_mode="livesum")
BROADCAST_FAILURES = Counter("cargo_broadcast_failures_total",
                             "Channel-layer sends that failed (the layer was down)")
BOT_LATENCY = Histogram("cargo_bot_turn_latency_seconds", "From a game waiting on CargoBot "
                        "to CargoBot's turn applied",
                        buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300))
FLAGS = Counter("cargo_flags_fallen_total", "Games lost on time")
GC_PAUSES = Histogram("cargo_gc_pause_seconds", "The garbage collector's collections in the "
                      "ASGI server, each stopping its event loop, by generation",
                      ["generation"],
                      buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))

INVALID_UTF8 = Counter("cargo_invalid_utf8_frames_total", "WebSocket text frames that were not "
                       "UTF-8 (each closed with 1007; the log keeps one line a minute)")

CONTENT_TYPE = CONTENT_TYPE_LATEST


def turn_applied(path: str) -> None:
    _turns(path).inc()


@functools.cache
def _turns(path: str) -> Counter:
    """The counter of one path (`labels` looks its child up anew at every call)."""
    return TURNS.labels(path)


def refused(code: str) -> None:
    REFUSALS.labels(code).inc()


def invalid_utf8_frame() -> None:
    INVALID_UTF8.inc()


def bot_played(waiting_since: datetime | None) -> None:
    if waiting_since is not None:
        BOT_LATENCY.observe(max(0.0, (timezone.now() - waiting_since).total_seconds()))


def watch_gc() -> None:
    """Time each of the collector's collections in this process (`GC_PAUSES`): the ASGI
    server's (cargosite/serve.py), where a collection stops every socket of the process."""
    import gc
    import time

    started = [0.0]
    children = [GC_PAUSES.labels(str(g)) for g in range(3)]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            children[info["generation"]].observe(time.perf_counter() - started[0])

    gc.callbacks.append(timed)


def exposition() -> bytes:
    """Every metric, summed over this host's processes in multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry)
    return generate_latest()
