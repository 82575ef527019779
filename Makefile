# The two commands: `make run` (serve the site at http://127.0.0.1:8000/; `make run PORT=8001`
# for another port, whose address the emails' links then use: SITE_URL) and `make test`
# (ruff, mypy, then pytest, which ends with its 50 slowest tests: where CI's time goes).
# The production topology for a trial: `make topology-start`,
# `topology-status`, `topology-stop` (scripts/topology.sh; DATABASE_URL and REDIS_URL set),
# and `make faults` (scripts/faults.py: the fault trials, with their own PostgreSQL and Redis).
VENV ?= .venv
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed
# The suite runs on every core (pytest-xdist; tests/settings.py gives each worker its own
# database, Redis database and ports). TEST_WORKERS=0 runs it in this one process; the test order
# is random (pytest-randomly), its seed printed at the top: --randomly-seed=N replays it.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --dist worksteal
# The test runs write Python's bytecode caches even where the environment says not to
# (PYTHONDONTWRITEBYTECODE=1, as containers often set): else every worker compiles the
# whole project and rewrites every test module again, and so does every process a test
# starts (a Django process 1.7 s without them, 1.3 s with; collecting the suite 12.9 s →
# 5.5 s a worker; docs/testing.md, session 34), in the usual __pycache__ folders, which
# git ignores (a PYTHONPYCACHEPREFIX elsewhere would compile the installed packages
# again too).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(VENV)/bin/pytest

.PHONY: run test test-quick worker venv topology-start topology-stop topology-status faults test-fast-path-off test-api-lean-off

venv: $(STAMP)

$(PY):
	@echo "==> Creating the virtualenv $(VENV) ($(PYTHON) -m venv)"
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt is newer than the stamp.
$(STAMP): requirements.txt | $(PY)
	@echo "==> Installing requirements.txt into $(VENV)"
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	@touch $(STAMP)

run: $(STAMP)
	@echo "==> Applying migrations"
	$(PY) manage.py migrate --noinput
	@echo "==> Demo users (DEBUG only)"
	$(PY) manage.py seed_demo
	@if DJANGO_SETTINGS_MODULE=cargosite.settings $(PY) -c 'from django.conf import settings; raise SystemExit(settings.DEBUG)'; then \
		echo "==> Collecting static files (DEBUG is off)"; \
		$(PY) manage.py collectstatic --noinput -v 0; \
	fi
	@if [ -n "$${REDIS_URL:-}" ]; then \
		echo "==> REDIS_URL is set: Celery tasks go to Redis. Start a worker with beat in another shell:"; \
		echo "      make worker    (runs: $(VENV)/bin/celery -A cargosite worker -B -l info)"; \
	else \
		echo "==> No REDIS_URL: Celery tasks and the periodic ones (the email digest and alarms, the sweeps)"; \
		echo "    run in this process (EMBEDDED_BEAT, cargosite/beat.py): each once now, then on its schedule"; \
	fi
	@if [ -z "$${EMAIL_HOST:-}" ]; then \
		echo "==> No EMAIL_HOST: mail is printed in this terminal, not sent (sign-up confirmation and"; \
		echo "    password-reset links, the digest): look here for the links"; \
	fi
	@echo "==> Serving Cargo Connect at http://$(HOST):$(PORT)/ with uvicorn (Ctrl-C stops; another port: make run PORT=8001)"
	export SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}"; exec $(VENV)/bin/uvicorn cargosite.asgi:application --host $(HOST) --port $(PORT)

worker: $(STAMP)
	@echo "==> Starting the Celery worker with beat"
	exec $(VENV)/bin/celery -A cargosite worker -B -l info

test: $(STAMP)
	@echo "==> ruff check ."
	$(VENV)/bin/ruff check .
	@echo "==> mypy (django-stubs; engine, express and the apps: pyproject.toml [tool.mypy])"
	$(VENV)/bin/mypy
	@echo "==> pytest tests/ on $(TEST_WORKERS) workers (database: $${DATABASE_URL:-SQLite}; channel layer: $${REDIS_URL:-in-memory})"
	$(PYTEST) tests/ $(XDIST) --durations=50

# The inner loop's tier: the engines, the units and the platform, without the browser tests,
# the fault tests, the topology and the modules tests/conftest.py lists as slow
# (SLOW_MODULES; docs/testing.md, "The quick tier"). `make test` stays the whole suite.
QUICK_IGNORE = --ignore=tests/browser --ignore=tests/faults
test-quick: $(STAMP)
	@echo "==> pytest the quick tier on $(TEST_WORKERS) workers (no browser, no faults)"
	$(PYTEST) tests/ $(QUICK_IGNORE) $(XDIST) -m "not slow" --durations=20

# The live path's tests with the live fast path off (games/fast/, docs/fast-path.md); CI runs
# it on PostgreSQL and Redis after `make test` (.ci/run).
LIVE_PATH_TESTS = tests/games tests/clocks tests/faults tests/platform tests/permissions/test_sockets.py
test-fast-path-off: $(STAMP)
	@echo "==> pytest the live path with LIVE_FAST_PATH=0 (database: $${DATABASE_URL:-SQLite}; channel layer: $${REDIS_URL:-in-memory})"
	LIVE_FAST_PATH=0 $(PYTEST) $(LIVE_PATH_TESTS) $(XDIST) --durations=20

# The API's tests with its lean request path off (cargosite/apipath.py, docs/api.md): every
# /api/ request through the site's whole MIDDLEWARE; CI runs it on PostgreSQL and Redis.
API_PATH_TESTS = tests/api tests/permissions/test_api.py
test-api-lean-off: $(STAMP)
	@echo "==> pytest the API with API_LEAN_PATH=0 (database: $${DATABASE_URL:-SQLite}; channel layer: $${REDIS_URL:-in-memory})"
	API_LEAN_PATH=0 $(PYTEST) $(API_PATH_TESTS) $(XDIST) --durations=20

topology-start: $(STAMP)
	scripts/topology.sh start

topology-stop:
	scripts/topology.sh stop

topology-status:
	scripts/topology.sh status

faults: $(STAMP)
	$(PY) scripts/faults.py
