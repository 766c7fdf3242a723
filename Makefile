# Tablescore: `make run` serves the demo, `make test` runs every check. Both start from nothing. `make dist` builds
# the wheel and sdist that organisers install (`uv tool install` or `pipx install`, then `tablescore`).
# `make run` serves with gunicorn (config/gunicorn.conf.py), the app server the load benchmark measures; `make dev`
# with Django's development server, which reloads on every code change.
# `make run HOST=0.0.0.0` serves the venue's network: it prints the address phones should use, lets Django answer
# there (ALLOWED_HOSTS) and prints it on QR codes (PUBLIC_URL, unless set already).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Every core runs tests (pytest-xdist), a test file to a worker so that its fixtures are made once.
PYTEST := $(BIN)/python -m pytest -p no:cacheprovider --durations=15 -n auto --dist loadfile

.PHONY: run dev prepare test install install-dev messages dist lint migrations-check test-sqlite test-postgres test-redis system-packages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

install: $(VENV)/.installed

# The laptop's own secret key, made once (manage.py and config/wsgi.py make it too); never committed.
.secret_key: | $(BIN)/python
	$(BIN)/python -c "from config.env import ensure_secret_key; ensure_secret_key()"

install-dev: $(VENV)/.installed-dev

# The development tools from npm: the handwriting fonts the paper reader is trained and measured on.
node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

# The compiled catalogues are kept in git: after editing a django.po, `make messages` compiles it (no msgfmt needed).
messages: install-dev
	$(BIN)/python scripts/compile_messages.py

# The wheel and sdist, in dist/: what `uv tool install` and `pipx install` take.
dist: install-dev
	$(BIN)/python -m build --outdir dist .

# What both servers need first: the database migrated, the demo in an empty one, the organiser's login printed.
prepare: install
	$(BIN)/python manage.py migrate --noinput --verbosity 0
	$(BIN)/python manage.py load_demo --if-empty
	$(BIN)/python manage.py ensure_organiser --address http://$(if $(filter 0.0.0.0,$(HOST)),127.0.0.1,$(HOST)):$(PORT)
ifeq ($(HOST),0.0.0.0)
	@$(BIN)/python manage.py network_addresses --port $(PORT)
endif

# On the venue's network, Django answers at the laptop's addresses and QR codes carry the first of them.
VENUE_ENV := $(if $(filter 0.0.0.0,$(HOST)),ALLOWED_HOSTS="$$($(BIN)/python manage.py network_addresses --allowed-hosts)" \
	PUBLIC_URL="$${PUBLIC_URL:-$$($(BIN)/python manage.py network_addresses --public-url --port $(PORT))}")

run: prepare
	$(VENUE_ENV) $(BIN)/python -m gunicorn --config config/gunicorn.conf.py --bind $(HOST):$(PORT)

dev: prepare
	$(VENUE_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

system-packages:
	scripts/system-packages.sh gettext postgresql redis-server poppler-utils zbar-tools chromium npm

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

migrations-check: install-dev
	$(BIN)/python manage.py makemigrations --check --dry-run

test-sqlite: install-dev .secret_key node_modules/.installed
	$(PYTEST) --cov --cov-report=term

test-postgres: install-dev .secret_key node_modules/.installed
	scripts/with-postgres.sh $(PYTEST) -m "(django_db or postgres) and not browser"

# The rate limits and the login throttle again, with every cache in a Redis server (CACHE_URL).
test-redis: install-dev .secret_key
	scripts/with-redis.sh $(PYTEST) -m cache

test: system-packages lint migrations-check test-sqlite test-postgres test-redis

clean:
	rm -rf $(VENV) staticfiles .coverage dist
