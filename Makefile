# The two commands a new user needs:  `make run`  and  `make test`.
# Each creates the virtualenv (.venv) and installs requirements-test.txt (production's
# requirements.txt plus test tools) first when needed.

VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.requirements-installed
# Where `make run` serves (host:port), e.g. `make run ADDR=0.0.0.0:8001`; emailed links
# point there too, unless SITE_URL is set.
ADDR ?= 127.0.0.1:8000
# `make run FAST=1`: the fast clock for trying deadlines, a turn hour lasts a minute
# (TURN_HOUR_SECONDS=60, unless set; DEBUG only; see docs/testing.md).
ifeq ($(FAST),1)
run: export TURN_HOUR_SECONDS ?= 60
endif

.DEFAULT_GOAL := help
.PHONY: help run test conformance faults lint format bench bench-api bench-peer clean-venv

help:  ## List the commands.
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 14

$(INSTALLED): requirements.txt requirements-test.txt bin/bootstrap-venv
	bin/bootstrap-venv $(VENV)

run: export SITE_URL ?= http://$(ADDR)
run: $(INSTALLED)  ## Run web server + worker + beat on the embedded defaults (SQLite, files under var/); ADDR=host:port to serve elsewhere (default 127.0.0.1:8000); FAST=1: turn hours are minutes.
	DEBUG=$${DEBUG:-true} $(PY) manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(PY) manage.py createcachetable
	DEBUG=$${DEBUG:-true} VENV=$(VENV) bin/run-local $(ADDR)

# `make test` runs on every core (pytest-xdist; progress is a line of dots per 72 tests);
# PYTEST_ARGS replaces that, e.g. PYTEST_ARGS="-x tests/api" for one folder in one process.
PYTEST_ARGS ?= -n auto
# Bytecode is written (into the gitignored __pycache__ folders) even where the environment
# says not to: each worker imports ~600 test modules, and pytest keeps its rewritten form
# only as bytecode (13 s of a core a worker without it, 5 s with), as does every process
# a test starts (gunicorn, Celery, manage.py).
test: $(INSTALLED)  ## Run the whole test suite on every core (DATABASE_URL=postgres://... for PostgreSQL; PYTEST_ARGS=... to choose).
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest $(PYTEST_ARGS)

# The whole API conformance run: schemathesis with every phase and many more examples than
# CI's bounded run (docs/api.md "Conformance"); it takes much longer.
conformance: $(INSTALLED)  ## Run the long API conformance run (schemathesis, 200 examples an operation; MAX_EXAMPLES=N) on SQLite or CONFORMANCE_DATABASE_URL.
	$(PY) tests/conformance/run.py --max-examples=$${MAX_EXAMPLES:-200}

# The fault suite (tests/faults/, docs/operating.md "Faults we test") is part of `make test` too; this
# runs only it, on PostgreSQL (its processes share the test database).
faults: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/piratz
faults: $(INSTALLED)  ## Run only the fault suite (real gunicorn, Celery, Redis, PostgreSQL, SMTP).
	$(PY) -m pytest -m faults -s -p no:cacheprovider tests/faults $(PYTEST_ARGS)

lint: $(INSTALLED)  ## Check style (ruff), the floors (import-linter) and types (mypy).
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

format: $(INSTALLED)  ## Reformat the code with ruff.
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(INSTALLED)  ## Run the engine benchmark (see BENCHMARKS.md).
	$(PY) bench/engine.py

bench-api: $(INSTALLED)  ## Run the HTTP benchmark (needs PostgreSQL on 127.0.0.1:5432).
	$(PY) bench/api.py

PAIRS ?= 3
bench-peer: $(INSTALLED)  ## The service against boardgame.io in PAIRS interleaved pairs (default 3; installs node and npm if missing; PostgreSQL, Redis on 127.0.0.1).
	$(PY) bench/versus_peer.py --pairs $(PAIRS)

clean-venv:  ## Remove the virtualenv.
	rm -rf $(VENV)
