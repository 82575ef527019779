"""The test run's settings: cargosite.settings, with each pytest-xdist worker on services
of its own (issue #43).

`make test` runs the suite on several processes (pytest-xdist, `-n`). Each worker is one
Django process with its own test database (pytest-django names it after the worker:
`test_test_gw0`, `test_test_gw1` on PostgreSQL; an in-memory SQLite database per process
otherwise), its own free ports (the browser and fault tests bind port 0) and, here, its own
Redis database: worker N takes the database number of `REDIS_URL` plus N, so that the
channel layer (whose prefix follows the number, `cargo0`, `cargo1`), the cache, Celery's
queue and the presence sets of one worker never meet another's. A `CHANNEL_LAYER_PREFIX`
set by hand gets the worker's number appended for the same reason (worker 0 keeps both).

This module is named by pyproject.toml's `DJANGO_SETTINGS_MODULE` for pytest only: the
production settings know nothing of tests. The environment is rewritten before
cargosite.settings reads it, so the processes a test starts (a Celery worker with the
repository as its working directory) inherit this worker's services.
"""

import os
import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit


def worker_index() -> int:
    """This process's pytest-xdist worker number (gw0 → 0), or 0 without xdist."""
    match = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    return int(match[1]) if match else 0


def redis_url_for_worker(url: str, index: int) -> str:
    """`url` with its database number (path or `?db=`) raised by `index`."""
    if index == 0:
        return url
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    if "db" in query and not parts.path.strip("/"):
        query["db"] = str(int(query["db"]) + index)
        return urlunsplit(parts._replace(query=urlencode(query)))
    number = int(parts.path.strip("/") or "0") + index
    return urlunsplit(parts._replace(path=f"/{number}"))


_index = worker_index()
# Once per worker: the processes a test starts (a Celery worker, a second server process)
# inherit the rewritten environment and this module's name, and must not shift again.
if os.environ.get("CARGO_TEST_WORKER_ENV") != os.environ.get("PYTEST_XDIST_WORKER", ""):
    os.environ["CARGO_TEST_WORKER_ENV"] = os.environ.get("PYTEST_XDIST_WORKER", "")
    if _index and os.environ.get("REDIS_URL", "").strip():
        os.environ["REDIS_URL"] = redis_url_for_worker(os.environ["REDIS_URL"].strip(), _index)
    if _index and os.environ.get("CHANNEL_LAYER_PREFIX", "").strip():
        os.environ["CHANNEL_LAYER_PREFIX"] += f"w{_index}"

from cargosite.settings import *  # noqa: E402, F403

# SQLite's shared-cache test database fails a statement that meets another connection's
# table lock at once; the test run's backend waits it out as a database file's busy
# timeout would (tests/sqlite_backend/base.py). Its test database stays in memory, named
# so: pytest-django gives each worker's test database a suffix unless the engine is
# Django's own SQLite or the name is ":memory:" (each worker is its own process).
for _database in DATABASES.values():  # noqa: F405
    if _database["ENGINE"] == "django.db.backends.sqlite3":
        _database["ENGINE"] = "tests.sqlite_backend"
        _database.setdefault("TEST", {}).setdefault("NAME", ":memory:")

# PostgreSQL: the tests hold their connections in a pool as production does
# (cargosite.settings.database_pool; DEBUG, which the tests import under, leaves it off).
# Without it every `database_sync_to_async` call and every request of a live server opened a
# new connection (CONN_MAX_AGE 0): a backend started and configured each time, 25 % of a
# whole four-seat Express game over sockets (20.5 → 15.5 s, session 35). Larger and more
# patient than production's, for a loaded test machine; `CARGO_TEST_DB_POOL=0` turns it off.
_default = DATABASES["default"]  # noqa: F405
if (_default["ENGINE"] == "django.db.backends.postgresql" and "pool" not in _default["OPTIONS"]
        and os.environ.get("CARGO_TEST_DB_POOL", "1") != "0"):
    _default["CONN_MAX_AGE"] = 0
    _default["OPTIONS"]["pool"] = {
        "min_size": 0, "max_size": 20, "timeout": 10.0,
        "reconnect_timeout": DB_POOL_RECONNECT_SECONDS, "name": "cargo-test"}  # noqa: F405
