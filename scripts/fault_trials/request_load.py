"""GET requests through nginx from a process of their own, so that the requesting threads
do not share an interpreter lock with the trial's event loop (whose sockets they starved:
fault trial 9 saw 41-49 of 500 sockets time out while opening, 0 without the requests).

    python -m fault_trials.request_load BASE COUNT THREADS PATH [PATH ...]

prints the status of each request, in order, as a JSON list (0: no answer at all)."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from live_client import insecure_context


def status_of(base: str, path: str) -> int:
    accept = "application/json" if path.endswith("after=0") else "text/html"
    request = urllib.request.Request(base + path, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=15, context=insecure_context()) as answer:
            answer.read()
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except Exception:
        return 0


def main(argv: list[str]) -> None:
    base, count, threads, paths = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    with ThreadPoolExecutor(threads) as pool:
        statuses = list(pool.map(lambda n: status_of(base, paths[n % len(paths)]),
                                 range(count)))
    print(json.dumps(statuses))


if __name__ == "__main__":
    main(sys.argv[1:])
