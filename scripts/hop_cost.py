"""The CPU a request spends crossing between the event loop and a thread (docs/api.md,
"The API's lean request path"): Django's ASGI handler opens a ThreadSensitiveContext a
request (its first thread-sensitive call makes a new one-thread executor, and its end a
second thread to join it), and each `sync_to_async` in it is one crossing. Empty requests
of 0 to 6 crossings of a function returning at once, twice; `time.process_time` counts
every thread of the process.

    .venv/bin/python scripts/hop_cost.py [REQUESTS]    # 2,000 a row by default
"""
import asyncio
import sys
import time

from asgiref.sync import ThreadSensitiveContext, sync_to_async

try:
    import uvloop
except ImportError:  # pragma: no cover
    uvloop = None


def work() -> int:
    return 1


async def request(hops: int) -> None:
    async with ThreadSensitiveContext():
        for _ in range(hops):
            await sync_to_async(work)()


async def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for _ in range(2):
        for hops in (0, 1, 2, 3, 6):
            t0 = time.process_time()
            for _ in range(n):
                await request(hops)
            print(f"{hops} crossings: {(time.process_time() - t0) / n * 1e6:.0f} µs CPU a request")


(uvloop.run if uvloop else asyncio.run)(main())
