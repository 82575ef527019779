"""The settings module switches backing services on the environment, and refuses bad values."""

import json

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
