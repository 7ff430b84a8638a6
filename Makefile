# Two commands for a fresh machine (Python 3.11+ and git):  make run  ·  make test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Test processes for test / test-fast (pytest-xdist; each has its own test database). Test files
# are shared out whole (--dist loadfile): a module's tests run in order in one process, and what
# a module builds once (module_transaction, tests/conftest.py) is built once per run.
WORKERS ?= 2
# The test targets keep compiled bytecode (and pytest's rewritten test modules) between runs,
# even where the environment turns it off (PYTHONDONTWRITEBYTECODE, as container images often
# do): compiling ~450 modules again costs every test process ~5 s at each run.
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

.PHONY: run test test-fast test-serial install lint format messages worker bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

install: $(BIN)/.installed

## Serve the app on the embedded default (SQLite file, Celery tasks in-process, demo content).
## DEBUG=true lets every step use the development SECRET_KEY (settings refuse it otherwise).
run: export DEBUG = true
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py bootstrap_demo
	@echo ""
	@echo "  Annúminas is running: open http://$(HOST):$(PORT)/"
	@echo "  Demo login: demo / annuminas-demo"
	@echo "  An admin for /admin/: DEBUG=true $(BIN)/python manage.py createsuperuser"
	@echo ""
	DEBUG=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

## Install and run the whole test suite in WORKERS processes (pytest-xdist; each has its own
## test database, Celery queue and cache prefix). SQLite here; PostgreSQL + Redis when
## DATABASE_URL/REDIS_URL are set.
test: install
	$(PYTEST) -n $(WORKERS) --dist loadfile $(PYTEST_ARGS)

## The fast loop: everything but the browser (e2e) and real-worker tests, in WORKERS processes.
test-fast: install
	$(PYTEST) -n $(WORKERS) --dist loadfile -m "not e2e and not worker" $(PYTEST_ARGS)

## The whole suite in one process (to read a failure's output in order, or bisect one).
test-serial: install
	$(PYTEST) $(PYTEST_ARGS)

## ruff (lint and format) and mypy (strict on rules/engine, see pyproject.toml).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Regenerate and compile the translation catalogues (needs GNU gettext).
messages: export DEBUG = true
messages: install
	$(BIN)/python manage.py makemessages -l es -l en --ignore=.venv --ignore=staticfiles --ignore=static
	$(BIN)/python manage.py compilemessages --ignore=.venv

## A Celery worker for a deployment with REDIS_URL set.
worker: install
	$(BIN)/celery -A annuminas worker --loglevel=INFO

bench: install
	$(BIN)/python bench/bench_engine.py

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
	rm -rf "$${TMPDIR:-/tmp}/annuminas-tests-$$(id -u)"
