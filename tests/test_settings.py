"""The settings module switches backing services on the environment, and refuses bad values."""

import json
import os
from urllib.parse import urlsplit, urlunsplit

import pytest

DUMP = """
import json
from django.conf import settings
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "db_host": settings.DATABASES["default"].get("HOST"),
    "db_user": settings.DATABASES["default"].get("USER"),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "layer_hosts": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "email": settings.EMAIL_BACKEND,
    "secret_len": len(settings.SECRET_KEY),
    "secret": settings.SECRET_KEY,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "hsts": settings.SECURE_HSTS_SECONDS,
    "time_zone": settings.TIME_ZONE,
    "use_tz": settings.USE_TZ,
    "fast_path": settings.LIVE_FAST_PATH,
    "db_options": settings.DATABASES["default"].get("OPTIONS", {}),
    "conn_max_age": settings.DATABASES["default"].get("CONN_MAX_AGE"),
    "db_bound": settings.DB_CONNECTIONS_PER_PROCESS,
    "hashers": settings.PASSWORD_HASHERS,
}))
"""


def settings_under(run_python, **env):
    result = run_python(DUMP, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_it_uses_the_embedded_default_when_nothing_is_set(run_python):
    s = settings_under(run_python)
    assert s["debug"] is True
    assert s["engine"] == "django.db.backends.sqlite3"
    assert s["db_name"].endswith("db.sqlite3")
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert s["eager"] is True
    # Django's default, PBKDF2 first (the test run's MD5 is tests/conftest.py's alone).
    assert s["hashers"][0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    assert s["broker"] == "memory://"
    assert s["email"] == "django.core.mail.backends.console.EmailBackend"
    assert s["time_zone"] == "UTC" and s["use_tz"] is True


def test_it_keeps_the_dev_secret_key_across_restarts(run_python):
    first = settings_under(run_python)
    second = settings_under(run_python)
    assert first["secret_len"] >= 50
    assert first["secret"] == second["secret"]


def test_it_uses_postgres_and_redis_from_urls(run_python):
    s = settings_under(
        run_python,
        DATABASE_URL="postgres://cargo:p%40ss@db.internal:5433/cargo",
        REDIS_URL="redis://cache.internal:6379/2",
    )
    assert s["engine"] == "django.db.backends.postgresql"
    assert (s["db_name"], s["db_host"], s["db_user"]) == ("cargo", "db.internal", "cargo")
    assert s["layer"] == "cargosite.channel_layer.PipelinedPubSubChannelLayer"
    assert s["layer_hosts"] == ["redis://cache.internal:6379/2"]
    assert s["eager"] is False
    assert s["broker"] == "redis://cache.internal:6379/2"


def test_the_live_fast_path_is_on_unless_live_fast_path_0(run_python):
    """LIVE_FAST_PATH=0 (games/fast/, docs/fast-path.md): channels_redis's own pub/sub
    layer instead of the pipelined one, and Django's default for psycopg's preparing."""
    urls = {"DATABASE_URL": "postgres://cargo@db.internal:5433/cargo",
            "REDIS_URL": "redis://cache.internal:6379/2"}
    on = settings_under(run_python, **urls)
    assert on["fast_path"] is True
    assert on["db_options"] == {"prepare_threshold": 2**31 - 1}
    off = settings_under(run_python, LIVE_FAST_PATH="0", **urls)
    assert off["fast_path"] is False
    assert off["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert off["db_options"] == {}


def test_it_switches_to_production_mode(run_python):
    s = settings_under(
        run_python,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="x" * 60,
        DJANGO_ALLOWED_HOSTS="cargo.example",
        EMAIL_HOST="smtp.example",
    )
    assert s["debug"] is False
    assert s["ssl_redirect"] is True
    assert s["hsts"] >= 31536000
    assert s["email"] == "django.core.mail.backends.smtp.EmailBackend"


def test_it_passes_check_deploy_in_production_mode(run_python):
    result = run_python(
        "import sys; from django.core.management import execute_from_command_line; "
        "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="k3y-" + "abcdefghij" * 6,
        DJANGO_ALLOWED_HOSTS="cargo.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_fails_loudly_on_bad_values(run_python):
    cases = {
        "DJANGO_DEBUG": {"DJANGO_DEBUG": "maybe"},
        "DATABASE_URL": {"DATABASE_URL": "mysql://root@localhost/cargo"},
        "REDIS_URL": {"REDIS_URL": "localhost:6379"},
        "DJANGO_SECRET_KEY": {"DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "cargo.example"},
        "DJANGO_ALLOWED_HOSTS": {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 60},
        "EMAIL_PORT": {"EMAIL_HOST": "smtp.example", "EMAIL_PORT": "submission"},
        "LIVE_FAST_PATH": {"LIVE_FAST_PATH": "fast"},
    }
    for name, env in cases.items():
        result = run_python(DUMP, **env)
        assert result.returncode != 0, name
        assert "ImproperlyConfigured" in result.stderr, result.stderr
        assert name in result.stderr, result.stderr


PREFIX = ("import json; from django.conf import settings; "
          "print(json.dumps(settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']))")


def layer_prefix(run_python, **env):
    result = run_python(PREFIX, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_two_sites_on_one_redis_have_their_own_channel_prefix(run_python):
    """Pub/sub ignores the database number: the layer's prefix follows it, or is set
    (issue #28, point 9)."""
    site = layer_prefix(run_python, REDIS_URL="redis://127.0.0.1:6379/0")
    other = layer_prefix(run_python, REDIS_URL="redis://127.0.0.1:6379/5")
    assert site != other
    assert layer_prefix(run_python, REDIS_URL="redis://127.0.0.1:6379") == site
    assert layer_prefix(run_python, REDIS_URL="redis://127.0.0.1:6379/5",
                        CHANNEL_LAYER_PREFIX="staging") == "staging"


PRODUCTION = {"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 60,
              "DJANGO_ALLOWED_HOSTS": "cargo.example",
              "DATABASE_URL": "postgres://cargo@db.internal:5433/cargo"}


def test_production_bounds_each_process_with_a_connection_pool(run_python):
    """Issue #42, point 1: with DEBUG off, PostgreSQL's connections come from psycopg's
    pool (Django's OPTIONS["pool"]), not one kept per thread; the bound of a process is the
    pool's size and the fast path's loop connections."""
    s = settings_under(run_python, **PRODUCTION)
    assert s["conn_max_age"] == 0
    assert s["db_options"]["pool"] == {"min_size": 2, "max_size": 10, "timeout": 2.0,
                                       "reconnect_timeout": 5.0, "name": "cargo"}
    assert s["db_bound"] == 10 + 4  # the pool, and LIVE_LOOP_CONNECTIONS on the one loop
    sized = settings_under(run_python, **PRODUCTION, DJANGO_DB_POOL_MAX_SIZE="20",
                           DJANGO_DB_POOL_MIN_SIZE="0", DJANGO_DB_POOL_TIMEOUT="0.5",
                           LIVE_LOOP_CONNECTIONS="2")
    assert (sized["db_options"]["pool"]["max_size"], sized["db_options"]["pool"]["min_size"],
            sized["db_options"]["pool"]["timeout"]) == (20, 0, 0.5)
    assert sized["db_bound"] == 22
    assert settings_under(run_python, **PRODUCTION, LIVE_FAST_PATH="0")["db_bound"] == 10
    # Without the pool (an outside pooler such as PgBouncer), connections are not kept.
    pooler = settings_under(run_python, **PRODUCTION, DJANGO_DB_POOL="0")
    assert "pool" not in pooler["db_options"] and pooler["db_bound"] is None
    # Development and the tests keep Django's plain connections unless asked.
    development = settings_under(run_python, DATABASE_URL=PRODUCTION["DATABASE_URL"])
    assert "pool" not in development["db_options"]


def test_it_refuses_settings_that_leave_connections_unbounded(run_python):
    cases = {
        # The setting: one connection kept per ASGI thread, without bound.
        "DJANGO_CONN_MAX_AGE": [{"DJANGO_CONN_MAX_AGE": "60"},
                                {"DJANGO_CONN_MAX_AGE": "60", "DJANGO_DB_POOL": "0"},
                                {"DJANGO_CONN_MAX_AGE": "-1", "DJANGO_DB_POOL": "0"}],
        "DJANGO_DB_POOL_MAX_SIZE": [{"DJANGO_DB_POOL_MAX_SIZE": "4"},
                                    {"DJANGO_DB_POOL_MAX_SIZE": "lots"}],
        "DJANGO_DB_POOL_MIN_SIZE": [{"DJANGO_DB_POOL_MIN_SIZE": "11"},
                                    {"DJANGO_DB_POOL_MIN_SIZE": "-1"}],
        "DJANGO_DB_POOL_TIMEOUT": [{"DJANGO_DB_POOL_TIMEOUT": "0"},
                                   {"DJANGO_DB_POOL_TIMEOUT": "120"},
                                   {"DJANGO_DB_POOL_TIMEOUT": "soon"}],
        "DJANGO_DB_POOL": [{"DJANGO_DB_POOL": "perhaps"}],
    }
    for name, envs in cases.items():
        for env in envs:
            result = run_python(DUMP, **PRODUCTION, **env)
            assert result.returncode != 0, env
            assert "ImproperlyConfigured" in result.stderr, result.stderr
            assert name in result.stderr.splitlines()[-1], (env, result.stderr)


def _reachable_postgres() -> str:
    """The test run's PostgreSQL server (its `postgres` database), or skip."""
    import psycopg

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        url = "postgres://postgres@127.0.0.1:5432/postgres"
    url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    try:
        psycopg.connect(url, connect_timeout=2).close()
    except psycopg.Error:
        pytest.skip("no PostgreSQL server to take connections from")
    return url


EXHAUST = """
import json
import django
django.setup()
from django.db import connections
from django.test import Client
from django.test.utils import override_settings

override_settings(STORAGES={  # no collectstatic here
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}).enable()
pool = connections["default"].pool
pool.open()
held = [pool.getconn() for _ in range(pool.max_size)]  # every connection busy
client = Client(raise_request_exception=False)
page = client.get("/rankings/", HTTP_ACCEPT="text/html")
data = client.get("/rankings/", HTTP_ACCEPT="application/json")
stats = pool.get_stats()
for conn in held:
    pool.putconn(conn)
print(json.dumps({"page": page.status_code, "retry": page.get("Retry-After"),
                  "text": page.content.decode(), "json": json.loads(data.content),
                  "pool_size": stats["pool_size"]}))
"""


def test_an_exhausted_pool_is_a_503_not_a_hang(run_python):
    """Every connection of the pool busy: a request waits DJANGO_DB_POOL_TIMEOUT and is
    answered 503 with Retry-After, the page and the JSON error saying so; the pool opened
    no connection past its size."""
    url = _reachable_postgres()
    result = run_python(EXHAUST, **{**PRODUCTION, "DATABASE_URL": url,
                                    "DJANGO_ALLOWED_HOSTS": "testserver",
                                    "DJANGO_SECURE_SSL_REDIRECT": "0",
                                    "LIVE_DB_THREADS": "1", "DJANGO_DB_POOL_MAX_SIZE": "2",
                                    "DJANGO_DB_POOL_TIMEOUT": "0.3"})
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["page"] == 503 and found["retry"] == "5"
    assert "The database is not answering" in found["text"]
    assert found["json"]["code"] == "unavailable"
    assert found["pool_size"] == 2


def test_celery_processes_take_no_pool(run_python):
    """Celery closes the connections around every task, one task at a time per child: its
    processes open theirs without the pool (cargosite/celery.py, `no_pool`)."""
    code = ("import django; django.setup(); from django.db import connections; "
            "from cargosite.celery import no_pool; "
            "print(connections['default'].pool is not None); no_pool(); "
            "print(connections['default'].pool is None, "
            "'pool' in connections['default'].settings_dict['OPTIONS'])")
    result = run_python(code, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "False"]


def test_the_asgi_server_says_its_connection_bound_at_start(run_python):
    code = ("import django, logging; django.setup(); "
            "from cargosite.serve import say_connection_bound; say_connection_bound()")
    said = run_python(code, **PRODUCTION).stderr
    assert "PostgreSQL: this process holds at most 14 connections (a pool of 2 to 10, and 4 " \
           "on the event loop)" in said
    said = run_python(code, **PRODUCTION, DJANGO_DB_POOL="0").stderr
    assert "no connection pool (DJANGO_DB_POOL=0)" in said
