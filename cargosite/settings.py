"""Settings for the Cargo Connect site, read from the environment.

With nothing set you get the embedded default: DEBUG on, a SQLite file, an in-memory channel
layer and Celery tasks run in-process. Production sets DJANGO_DEBUG=0, DJANGO_SECRET_KEY,
DJANGO_ALLOWED_HOSTS, DATABASE_URL and REDIS_URL (see README.md). A value that cannot be
understood stops the process with ImproperlyConfigured naming the variable.
"""

import os
import secrets
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from cargosite.env import envbool, envfloat, envint, envlist

BASE_DIR = Path(__file__).resolve().parent.parent

# The live fast path (games/fast/, docs/fast-path.md): every piece of live play that leaves
# Django's, Channels', channels_redis's or psycopg's usual way, on by default. LIVE_FAST_PATH=0
# turns all of it off: turns take the locked path with Django's ORM, no warm copies or loop
# connections, the session read before each turn, Channels' dispatch and AuthMiddlewareStack,
# channels_redis's own RedisPubSubChannelLayer, Django's `prepare_threshold`, uvicorn's deflate.
LIVE_FAST_PATH = envbool("LIVE_FAST_PATH", True)


def parse_database_url(url: str) -> dict:
    """Turn postgres://user:pass@host:port/name?opt=val or sqlite:///path into DATABASES."""
    parts = urlsplit(url)
    if parts.scheme in ("postgres", "postgresql"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no database")
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # Django turns psycopg's preparing off (`prepare_threshold` None, for poolers in
            # transaction mode), and psycopg then ignores even `execute(prepare=True)`: a
            # threshold no statement reaches prepares the statements that ask (the turn's
            # write, games/fast/statements.py and games/fast/loopdb.py) and no other
            # (Django's own cursors bind on the client and never prepare).
            # (Fast path only: with LIVE_FAST_PATH=0 nothing prepares, Django's default stays.)
            "OPTIONS": {**({"prepare_threshold": 2**31 - 1} if LIVE_FAST_PATH else {}),
                        **dict(parse_qsl(parts.query))},
            "CONN_MAX_AGE": envint("DJANGO_CONN_MAX_AGE", 0),
            # A kept connection is checked before reuse: after a PostgreSQL restart the
            # first request does not fail on a connection the server has closed.
            "CONN_HEALTH_CHECKS": True,
        }
    if parts.scheme == "sqlite":
        # sqlite:///relative/path.sqlite3 or sqlite:////absolute/path.sqlite3
        path = unquote(parts.path[1:] if parts.path.startswith("/") else parts.path)
        if not path:
            raise ImproperlyConfigured(f"DATABASE_URL={url!r} names no file")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / path}
    raise ImproperlyConfigured(
        f"DATABASE_URL={url!r}: unsupported scheme {parts.scheme!r} (use postgres:// or sqlite://)"
    )


def dev_secret_key() -> str:
    """A random key kept in a git-ignored file, so dev sessions survive restarts."""
    path = BASE_DIR / ".dev-secret-key"
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if not key:
        key = secrets.token_urlsafe(50)
        path.write_text(key + "\n")
        path.chmod(0o600)
    return key


DEBUG = envbool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG=0")
    SECRET_KEY = dev_secret_key()

_DEV_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
ALLOWED_HOSTS = envlist("DJANGO_ALLOWED_HOSTS", _DEV_HOSTS if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG=0")
CSRF_TRUSTED_ORIGINS = envlist("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "axes",
    "common",  # the apps' shared layer (common/__init__.py)
    "accounts",
    "games",
    "puzzles.daily",
    "puzzles",
    "rankings",
    "tournaments",
    "chat",
    "notifications",
    "oauth2_provider",  # OAuth 2 with PKCE for third-party apps (api/oauth.py; docs/api.md)
    "api",  # the public API under /api/ (docs/api.md)
]

MIDDLEWARE = [
    # the API's own URLs through API_MIDDLEWARE instead, under WSGI and the test client
    # (under ASGI cargosite/asgi.py sends them there first); gone with API_LEAN_PATH=0
    "cargosite.apipath.ApiRouteMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy (below)
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "games.frames.presence.OnlineMiddleware",  # who is online (games/frames/presence.py)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.bots.SitePlayMiddleware",  # a BOT account plays through the API only
    "common.errors.SiteNotFoundMiddleware",  # every 404 the site's page, DEBUG or not
    "axes.middleware.AxesMiddleware",  # last: turns an axes lockout into its response
]
# The API's lean request path (cargosite/apipath.py; docs/api.md): the NinjaAPI's URLs
# (not the reference page at /api/, nor an unknown /api/… address) take API_MIDDLEWARE,
# the middlewares whose headers and checks the API's answers had through MIDDLEWARE, each
# on the event loop under ASGI. API_LEAN_PATH=0: every request through MIDDLEWARE.
API_LEAN_PATH = envbool("API_LEAN_PATH", True)
API_MIDDLEWARE = [
    "cargosite.apipath.SecurityMiddleware",
    "cargosite.apipath.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "cargosite.apipath.CommonMiddleware",
    "cargosite.apipath.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "cargosite.urls"
ASGI_APPLICATION = "cargosite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "cargosite.context_processors.navigation",
                "cargosite.context_processors.waiting",
                "cargosite.theme.context",
                "notifications.context.bell",
            ],
        },
    },
]

# Database: SQLite file unless DATABASE_URL says otherwise.
DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
DATABASES = {
    "default": parse_database_url(DATABASE_URL)
    if DATABASE_URL
    else {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The game the site offers first (the lobby's first seek form, the home page's quick play,
# a rankings page without ?type=): a registered kind's key (games.kinds.default_kind).
DEFAULT_GAME_KIND = os.environ.get("DEFAULT_GAME_KIND", "cargo-connect").strip()

# Redis: channel layer, Celery broker and results, and the cache, when REDIS_URL is set.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and urlsplit(REDIS_URL).scheme not in ("redis", "rediss", "unix"):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r} is not a redis:// URL")


def redis_db(url: str) -> int:
    """The database number a redis:// URL names (its path, or `?db=`; 0 if neither)."""
    parts = urlsplit(url)
    number = parts.path.strip("/") or dict(parse_qsl(parts.query)).get("db", "0")
    try:
        return int(number)
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL={url!r}: {number!r} is not a database number")\
            from None


# Redis pub/sub ignores the database number: two sites on one Redis are kept apart by the
# channel layer's prefix, which follows the URL's database unless CHANNEL_LAYER_PREFIX
# names one (issue #28, point 9; README.md, "Two sites on one Redis").
CHANNEL_LAYER_PREFIX = os.environ.get("CHANNEL_LAYER_PREFIX", "").strip() or (
    f"cargo{redis_db(REDIS_URL)}" if REDIS_URL else "cargo")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {  # channels_redis's pub/sub layer, its group sends pipelined (fast path)
            "BACKEND": "cargosite.channel_layer.PipelinedPubSubChannelLayer" if LIVE_FAST_PATH
            else "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_LAYER_PREFIX},
        }
    }
    CACHES = {
        "default": {
            # Django's RedisCache, answered from this process's memory while Redis is down
            # (allauth's rate limits live here: sign-in must not answer 500 then).
            "BACKEND": "cargosite.cache.FallbackRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cargo",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The public API's limits (api/limits.py; docs/api.md): (requests, seconds), per address
# (every request, before its token is read) and per token.
API_LIMIT_PER_ADDRESS = (envint("API_LIMIT_PER_ADDRESS", 600), 60)
API_LIMIT_PER_TOKEN = (envint("API_LIMIT_PER_TOKEN", 300), 60)
# The NDJSON export's rows fetched per round trip (a server-side cursor on PostgreSQL).
API_EXPORT_CHUNK = envint("API_EXPORT_CHUNK", 200)
# A live stream's keep-alive: an empty line after this many seconds of quiet (api/live.py).
API_STREAM_KEEPALIVE = envfloat("API_STREAM_KEEPALIVE", 7.0)
# Open live streams at once (api/slots.py), per token and per member: the next one is 429.
API_STREAMS_PER_TOKEN = envint("API_STREAMS_PER_TOKEN", 8)
API_STREAMS_PER_MEMBER = envint("API_STREAMS_PER_MEMBER", 16)

# OAuth 2 for third-party apps (django-oauth-toolkit; api/oauth.py, docs/api.md): public
# clients registered in the admin (api/oauth_admin.py: https, or http on loopback only, so
# W008 is silenced), the code grant with PKCE S256 only, the API's scopes, tokens kept as
# SHA-256, the consent page every time: every RFC 9700 gate of the toolkit's on but W008.
OAUTH2_PROVIDER = {
    "SCOPES_BACKEND_CLASS": "api.oauth.SiteScopes",
    "APPLICATION_ADMIN_CLASS": "api.oauth_admin.AppAdmin",
    "ACCESS_TOKEN_GENERATOR": "api.oauth.new_access_token", "REFRESH_TOKEN_GENERATOR":
    "api.oauth.new_refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": envint("API_OAUTH_TOKEN_SECONDS", 30 * 86400),
    # A refresh token is dead this long after its access token expired (an app unused for
    # that long asks the member again), and `clear_expired` (the beat's
    # `api-clear-expired-tokens`) deletes it then: without a lifetime the toolkit keeps
    # every refresh token, revoked ones included, for ever (docs/api.md).
    "REFRESH_TOKEN_EXPIRE_SECONDS": envint("API_OAUTH_REFRESH_SECONDS", 90 * 86400),
    # RFC 8414's document: every app is a public client, which authenticates with nothing.
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none"],
    "PKCE_REQUIRED": True, "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http"], "ALLOW_LOCALHOST_LOOPBACK": True,
    **{f"COMPLIANT_BCP_RFC9700_{gate}": True for gate in ("IMPLICIT_GRANT", "PASSWORD_GRANT",
        "PKCE_METHOD", "ACCESS_TOKEN_TRANSPORT", "AUTHZ_RESPONSE_ISS", "TOKEN_STORAGE",
        "REFRESH_TOKEN", "REDIRECT_URI_MATCHING", "PKCE_REQUIRED")},
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"], "OAUTH2_GRANT_TYPES_SUPPORTED": [
        "authorization_code", "refresh_token"]}
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

HEALTHZ_TIMEOUT_SECONDS = envint("HEALTHZ_TIMEOUT_SECONDS", 3)
# /metrics (games/frames/metrics.py): off unless asked for; with a token, only for a bearer of it.
METRICS_ENABLED = envbool("METRICS_ENABLED", False)
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
# Live play: threads per process for WebSocket service calls on PostgreSQL
# (games/sockets/runtime.py).
LIVE_DB_THREADS = envint("LIVE_DB_THREADS", 4)
# Connections per process's event loop for the common turn's write, made without leaving the
# loop (games/fast/loopdb.py); 0 sends every turn to the threads. A finer switch under
# LIVE_FAST_PATH (off, there are none).
LIVE_LOOP_CONNECTIONS = envint("LIVE_LOOP_CONNECTIONS", 4)
# Games a process keeps loaded between turns (games.fast.warm), the least recently played
# dropped; 0 keeps none. A finer switch under LIVE_FAST_PATH (off, none are kept).
LIVE_WARM_GAMES = envint("LIVE_WARM_GAMES", 5000)
# Game frames after a socket's first state carry a diff of the state its client holds
# (games.frames.diffs, issue #45); 0 sends every frame's state whole (the page takes both).
# Measured (docs/logs/live-play.md, session 26): Cargo Express's bytes a decision a socket
# 5,283 -> 471, its ASGI CPU a decision 3.3-3.4 -> 4.5-4.9 ms.
LIVE_FRAME_DIFFS = envbool("LIVE_FRAME_DIFFS", True)
# Finished games' replays kept per process as JSON text (games.records.history,
# `finished_replays`), in bytes; 0 keeps none.
REPLAY_CACHE_BYTES = envint("REPLAY_CACHE_BYTES", 64 * 1024 * 1024)
# The production server's garbage collector (cargosite/serve.py, `tune_gc`): the objects
# made while starting frozen out of the collector's sight, and a young generation this many
# container objects wide (Python's own: 700). 0 leaves Python's defaults. A finer switch
# under LIVE_FAST_PATH (off, Python's defaults).
LIVE_GC_YOUNG = envint("LIVE_GC_YOUNG", 50_000)
# What one client address may ask of one process (games/sockets/limits.py): units a second shared by
# its sockets (a frame costs 1, a `sync` more by what it sends back), and how many anonymous
# spectator sockets it, and one game, may have open.
LIVE_ADDRESS_UNITS_PER_SECOND = envint("LIVE_ADDRESS_UNITS_PER_SECOND", 60)
LIVE_ANONYMOUS_PER_ADDRESS = envint("LIVE_ANONYMOUS_PER_ADDRESS", 20)
LIVE_ANONYMOUS_PER_GAME = envint("LIVE_ANONYMOUS_PER_GAME", 500)

# PostgreSQL connections: a bound per process, whatever the load (issue #42, point 1;
# docs/production.md, "Database connections"). Under ASGI every request runs on a thread of
# its own and Django's connections are per thread: kept (CONN_MAX_AGE > 0) they piled up, one
# per thread, until PostgreSQL refused everyone. With the pool (psycopg_pool, through
# Django's OPTIONS["pool"]; on by default when DEBUG is off) a request borrows a connection
# and gives it back when it ends, and a process never holds more than DJANGO_DB_POOL_MAX_SIZE
# of them, plus the live fast path's LIVE_LOOP_CONNECTIONS on its event loop. A request
# that finds every connection busy for DJANGO_DB_POOL_TIMEOUT seconds is answered 503 with
# Retry-After (cargosite/unavailable.py), a socket's call an `unavailable` error. Celery's
# processes take no pool (cargosite/celery.py: Celery closes the connection after each task,
# one task at a time per child).
DB_POOL = envbool("DJANGO_DB_POOL", not DEBUG)
DB_POOL_MIN_SIZE = envint("DJANGO_DB_POOL_MIN_SIZE", 2)
DB_POOL_MAX_SIZE = envint("DJANGO_DB_POOL_MAX_SIZE", 10)
DB_POOL_TIMEOUT = envfloat("DJANGO_DB_POOL_TIMEOUT", 2.0)
# A connection lost (PostgreSQL restarted) is tried again after 1, 2, 4 ... s; after this
# many seconds of failures the pool gives the attempt up, and the next request that needs a
# connection makes a new one at once: the site is back within a request of PostgreSQL.
DB_POOL_RECONNECT_SECONDS = 5.0


def database_pool(database: dict) -> None:
    """Put the pool into the default database's OPTIONS, or refuse what would leave a
    process's connections unbounded (PostgreSQL only: SQLite has no server to exhaust)."""
    if database["ENGINE"] != "django.db.backends.postgresql":
        return
    max_age = database["CONN_MAX_AGE"]
    if DB_POOL:
        if max_age != 0:
            raise ImproperlyConfigured(
                f"DJANGO_CONN_MAX_AGE={max_age} with the connection pool (DJANGO_DB_POOL): the "
                "pool keeps the connections; set DJANGO_CONN_MAX_AGE=0")
        if DB_POOL_MAX_SIZE <= LIVE_DB_THREADS:
            raise ImproperlyConfigured(
                f"DJANGO_DB_POOL_MAX_SIZE={DB_POOL_MAX_SIZE} must be more than "
                f"LIVE_DB_THREADS={LIVE_DB_THREADS}: each live-db thread keeps a connection, "
                "and pages need some too")
        if not 0 <= DB_POOL_MIN_SIZE <= DB_POOL_MAX_SIZE:
            raise ImproperlyConfigured(
                f"DJANGO_DB_POOL_MIN_SIZE={DB_POOL_MIN_SIZE} must be between 0 and "
                f"DJANGO_DB_POOL_MAX_SIZE={DB_POOL_MAX_SIZE}")
        if not 0 < DB_POOL_TIMEOUT <= 30:
            raise ImproperlyConfigured(
                f"DJANGO_DB_POOL_TIMEOUT={DB_POOL_TIMEOUT} must be more than 0 and at most 30 "
                "(seconds a request waits for a connection before its 503)")
        database["OPTIONS"]["pool"] = {
            "min_size": DB_POOL_MIN_SIZE, "max_size": DB_POOL_MAX_SIZE,
            "timeout": DB_POOL_TIMEOUT, "reconnect_timeout": DB_POOL_RECONNECT_SECONDS,
            "name": "cargo"}
    elif max_age != 0 and not DEBUG:
        raise ImproperlyConfigured(
            f"DJANGO_CONN_MAX_AGE={max_age} without the connection pool (DJANGO_DB_POOL=0): "
            "under ASGI each thread would keep a connection of its own, without bound; "
            "use the pool (DJANGO_DB_POOL=1, DJANGO_CONN_MAX_AGE=0)")


database_pool(DATABASES["default"])


# The most PostgreSQL connections one ASGI process can hold: the pool's and the fast path's
# on its one event loop (cargosite/serve.py says it at start; None: nothing bounds them).
DB_CONNECTIONS_PER_PROCESS = (
    DB_POOL_MAX_SIZE + (LIVE_LOOP_CONNECTIONS if LIVE_FAST_PATH else 0)
    if DB_POOL and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" else None)


# Celery (cargosite/celery.py reads every CELERY_* setting).
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = envint("CELERY_TASK_SOFT_TIME_LIMIT", 60)
CELERY_TASK_TIME_LIMIT = envint("CELERY_TASK_TIME_LIMIT", 90)
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_CONSUMER = "cargosite.celery:PromptConsumer"  # a lost broker is retried every second
# A broker outage, however long, is waited out (Celery's default gives up after 100 tries
# and the worker exits); it is one line when it starts and one when it ends, in the worker
# (PromptConsumer) and in beat (OneLineScheduler): cargosite/celery.py.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BEAT_SCHEDULER = "cargosite.celery:OneLineScheduler"
# After a reconnect Celery lowers the prefetch count for a while, and with Redis's
# per-consumer QoS it cannot, and says so at every reconnect: with one task prefetched per
# child (above) there is nothing to lower.
CELERY_WORKER_ENABLE_PREFETCH_COUNT_REDUCTION = False
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # Games whose CargoBot turn was lost (no worker, broker down, a worker died mid-turn)
    # get it sent again; the task plays once per ply however often it is sent.
    "sweep-bot-games": {"task": "games.sweep_bot_games", "schedule": 30.0},
    # Clocks whose flag is due fall (each game once): the backstop of the process that
    # watches each game's flag (games.timing.timeouts, docs/clocks.md).
    "flag-clocks": {"task": "games.flag_clocks", "schedule": 5.0},
    # Untimed games nobody has moved in for IDLE_AFTER are aborted (games.timing.abandonment).
    "sweep-idle-games": {"task": "games.sweep_idle_games", "schedule": 600.0},
    # The Weekly Puzzles: a generated week goes live if Monday comes without a published one.
    "puzzles-ensure-week": {"task": "puzzles.ensure_week", "schedule": 300.0},
    # The Daily Challenge's end-of-day resign: every minute, in UTC (the task compares
    # Pacific dates, so daylight-saving changes need nothing special).
    "daily-end-of-day": {"task": "daily.resign_expired", "schedule": crontab(minute="*")},
    # Notification emails (notifications/mail.py, docs/notifications.md): the daily digest
    # is tried every hour (one a day per member: a day stamp), the deadline alarms every 10
    # minutes (one per decision: a row each).
    "notifications-digest": {"task": "notifications.send_digests", "schedule": 3600.0},
    "notifications-alarms": {"task": "notifications.send_alarms", "schedule": 600.0},
    # Tournaments (tournaments/rounds.py): due ones start, rounds whose games have all
    # ended finish and the next starts, absent players forfeit; each exactly once, under
    # the tournament's lock, however many beat processes run it.
    "tournaments-tick": {"task": "tournaments.tick", "schedule": 15.0},
    # OAuth 2 (api/tasks.py): the toolkit's expired rows (grants, access tokens, refresh
    # tokens past their lifetime) and the revoked app tokens' checksums kept past the
    # time their tokens would have expired anyway; once a night.
    "api-clear-expired-tokens": {"task": "api.clear_expired_tokens",
                                 "schedule": crontab(minute=17, hour=4)},
}
# Without REDIS_URL (no worker, no beat) the serving process runs CELERY_BEAT_SCHEDULE itself
# from its lifespan startup (cargosite/beat.py; `make run`): the digest, the alarms and the
# sweeps happen in development too. One process's scheduler: with REDIS_URL, run a worker
# with beat (`make worker`) and leave this off.
EMBEDDED_BEAT = envbool("EMBEDDED_BEAT", not REDIS_URL)
# The Daily Challenge's seeds are derived from this secret (default: from SECRET_KEY).
DAILY_SEED_SECRET = os.environ.get("DAILY_SEED_SECRET", "")

# Accounts (django-allauth): sign up with username and email, sign in with either.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out sign-ins
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Mandatory verification: the only way allauth's sign-up can hide whether an email is
# registered (ACCOUNT_PREVENT_ENUMERATION): both answers are "we sent you a link", and the
# address's owner gets a notice instead of a second account (issue #28, point 8).
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
if ACCOUNT_EMAIL_VERIFICATION not in ("none", "optional", "mandatory"):
    raise ImproperlyConfigured(
        f"ACCOUNT_EMAIL_VERIFICATION={ACCOUNT_EMAIL_VERIFICATION!r}: use none/optional/mandatory"
    )
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_PREVENT_ENUMERATION = True
# A password sign-in is not held back for an unconfirmed address; an address is taken only
# once confirmed: an unconfirmed claim keeps nobody out (accounts/forms.py, accounts/emails.py).
ACCOUNT_FORMS = {"login": "accounts.forms.SignInForm", "signup": "accounts.forms.SignUpForm"}
# allauth's own failed sign-in limit is per login name as well as per address by default
# ("5/300s/key"): five wrong passwords from anywhere locked the member out everywhere.
# It is off; django-axes locks pairs and addresses (below), in the database. allauth's
# other limits (sign-in attempts 30/m per address, sign-up, password reset) stay.
ACCOUNT_RATE_LIMITS = {"login_failed": None}
# Usernames: NFKC, unique without regard to case, look-alikes refused (accounts/usernames.py).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

# Failed sign-ins (django-axes), never counted per name alone (issue #28, point 2): 5
# failures for one account from one address lock that pair out, and
# AXES_ADDRESS_FAILURE_LIMIT failures from one address, whatever the names, lock the
# address, each for AXES_COOLOFF_MINUTES; a success clears that pair's failures only
# (accounts/axes.py). A username and its email count as the same account.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_ADDRESS_FAILURE_LIMIT = envint("AXES_ADDRESS_FAILURE_LIMIT", 30)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "accounts.axes.PairAndAddressHandler"
AXES_USERNAME_CALLABLE = "accounts.axes.login_username"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Email: SMTP when EMAIL_HOST names a server; otherwise the console in development and, in
# production, nothing at all (cargosite/mail.py): a console backend would write password-
# reset links into the ASGI processes' logs (check --deploy refuses it: common.checks).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", False)
    EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 10)
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "cargosite.mail.NoMailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cargo Connect <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's address as the notification emails' links start (notifications/mail.py).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# Web push (notifications/push.py): the VAPID key pair (RFC 8292), each base64url (the
# private key's 32 raw bytes or its DER; the public key's 65-byte uncompressed point, as
# browsers take it), and a contact for the push services (mailto: or https:). Without both
# keys push is not offered: the settings page says so. `manage.py webpush_keys` makes a pair.
WEBPUSH_VAPID_PRIVATE_KEY = os.environ.get("WEBPUSH_VAPID_PRIVATE_KEY", "").strip()
WEBPUSH_VAPID_PUBLIC_KEY = os.environ.get("WEBPUSH_VAPID_PUBLIC_KEY", "").strip()
WEBPUSH_CONTACT = os.environ.get("WEBPUSH_CONTACT", "").strip() or \
    "mailto:" + parseaddr(DEFAULT_FROM_EMAIL)[1]

# Time: stored in UTC; the site's days (daily puzzle, streaks) turn over in SITE_DAY_TZ.
USE_TZ = True
TIME_ZONE = "UTC"
SITE_DAY_TZ = os.environ.get("SITE_DAY_TZ", "America/Los_Angeles")
LANGUAGE_CODE = "en-us"
USE_I18N = True

# Static files: WhiteNoise serves them from the ASGI app. In DEBUG straight from static/
# (no collectstatic needed); in production from STATIC_ROOT with hashed, compressed names.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Security: strict when DEBUG is off; each switch can be turned off for a proxy that needs it.
SECURE_SSL_REDIRECT = envbool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = envint("DJANGO_SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = envbool("DJANGO_SECURE_HSTS_PRELOAD", not DEBUG)
SESSION_COOKIE_SECURE = envbool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
if envbool("DJANGO_BEHIND_PROXY", not DEBUG):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts only from our own files (ES modules; the
# page data is inline JSON from json_script, which is not executed), no inline script or
# style, sockets and fetches to our own origin only. Checked by tests/faults/test_headers.py.
_SELF, _NONE = "'self'", "'none'"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [_SELF],
        "script-src": [_SELF],
        "style-src": [_SELF],
        "img-src": [_SELF, "data:"],
        "font-src": [_SELF],
        "connect-src": [_SELF],  # 'self' covers ws:/wss: to the same host (CSP Level 3)
        "object-src": [_NONE],
        "base-uri": [_NONE],
        "form-action": [_SELF],
        "frame-ancestors": [_NONE],
    }
}
# Permissions-Policy (django-permissions-policy): the site uses none of these features.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: [] for feature in (
        "accelerometer", "autoplay", "camera", "display-capture", "encrypted-media",
        "fullscreen", "geolocation", "gyroscope", "magnetometer", "microphone", "midi",
        "payment", "picture-in-picture", "publickey-credentials-get", "screen-wake-lock",
        "serial", "usb", "xr-spatial-tracking",
    )
}
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        # psycopg_pool logs every connection it adds (INFO) and every failed attempt while
        # PostgreSQL is down (WARNING, several a second): the 503s and /healthz say that.
        "psycopg.pool": {"level": "ERROR"},
    },
}
