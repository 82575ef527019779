# The two commands: `make run` (serve the site at http://127.0.0.1:8000/) and `make test`
# (ruff, mypy, then pytest, which ends with its 30 slowest tests: where CI's time goes).
# The production topology for a trial: `make topology-start`,
# `topology-status`, `topology-stop` (scripts/topology.sh; DATABASE_URL and REDIS_URL set),
# and `make faults` (scripts/faults.py: the fault trials, with their own PostgreSQL and Redis).
VENV ?= .venv
PYTHON ?= python3
HOST ?= 127.0.0.1
PORT ?= 8000
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

.PHONY: run test worker venv topology-start topology-stop topology-status faults test-fast-path-off

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
	fi
	@echo "==> Serving Cargo Connect at http://$(HOST):$(PORT)/ with uvicorn (Ctrl-C stops)"
	exec $(VENV)/bin/uvicorn cargosite.asgi:application --host $(HOST) --port $(PORT)

worker: $(STAMP)
	@echo "==> Starting the Celery worker with beat"
	exec $(VENV)/bin/celery -A cargosite worker -B -l info

test: $(STAMP)
	@echo "==> ruff check ."
	$(VENV)/bin/ruff check .
	@echo "==> mypy (django-stubs; engine, express and the apps: pyproject.toml [tool.mypy])"
	$(VENV)/bin/mypy
	@echo "==> pytest tests/ (database: $${DATABASE_URL:-SQLite}; channel layer: $${REDIS_URL:-in-memory})"
	$(VENV)/bin/pytest tests/ --durations=30

# The live path's tests with the live fast path off (games/fast/, docs/fast-path.md); CI runs
# it on PostgreSQL and Redis after `make test` (.ci/run).
LIVE_PATH_TESTS = tests/games tests/clocks tests/faults tests/platform tests/permissions/test_sockets.py
test-fast-path-off: $(STAMP)
	@echo "==> pytest the live path with LIVE_FAST_PATH=0 (database: $${DATABASE_URL:-SQLite}; channel layer: $${REDIS_URL:-in-memory})"
	LIVE_FAST_PATH=0 $(VENV)/bin/pytest $(LIVE_PATH_TESTS)

topology-start: $(STAMP)
	scripts/topology.sh start

topology-stop:
	scripts/topology.sh stop

topology-status:
	scripts/topology.sh status

faults: $(STAMP)
	$(PY) scripts/faults.py
