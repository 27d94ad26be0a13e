# Two entry points (see README): `make serve` (the web app) and `make test`.
# Both create .venv and install the package into it when needed: `make serve` the
# package alone, `make test` with the extra `test` (the tools and every optional extra,
# the research ones included, so that their tests run). `make test`
# also installs Debian's Chromium (chromium-headless-shell and chromium) for the browser
# tests when it is missing, Debian's
# postgresql (only its binaries: the tests run a throw-away cluster of their own, and
# no system service is started), Debian's nginx (only its binary: the deployment
# test runs its own unprivileged nginx from deploy/nginx/tabletop.conf) and axe-core
# (npm, pinned in package-lock.json) for the accessibility test.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# --no-compile: pip would compile every module it installs to bytecode (15 of the 51 s
# of `make test`'s install, mostly torch's and Ray's), where Python compiles the few a
# run imports when it first does (about 6 CPU-s for the suite).
# One stamp per install: `.[test]` includes the base, so it stamps both, and a
# `make serve` after `make test` installs nothing again.
BASE_STAMP := $(VENV)/.installed-base
TEST_STAMP := $(VENV)/.installed-test
SOURCES := pyproject.toml setup.py $(shell find src -type f -not -name '*.pyc' 2>/dev/null)

PORT ?= 8000
CHROMIUM := /usr/bin/chromium-headless-shell
FULL_CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve play solo test lint bench load coachbench browser axe catalogues postgres nginx fuzz screenshots

$(BASE_STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile .
	touch $(BASE_STAMP)

$(TEST_STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile '.[test]'
	touch $(BASE_STAMP) $(TEST_STAMP)

serve: $(BASE_STAMP)
	$(BIN)/novaluna serve --port $(PORT)

play: $(BASE_STAMP)
	$(BIN)/novaluna play

solo: $(BASE_STAMP)
	$(BIN)/novaluna solo

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests scripts examples
	$(BIN)/ruff format --check src tests scripts examples
	$(BIN)/mypy

# Playwright drives Debian's Chromium (browser downloads from elsewhere fail here): its
# headless shell, a third of the full browser's CPU a page, and the full browser for
# the modules that test notifications (tests/browser_support.py, FULL_CHROMIUM).
browser:
	test -x $(CHROMIUM) -a -x $(FULL_CHROMIUM) || { $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium-headless-shell chromium; }

# The server suite runs on PostgreSQL too, on a throw-away cluster of its own
# (tests/pg_support.py): only the binaries are needed, never the system's cluster.
PG_INITDB := /usr/lib/postgresql/15/bin/initdb
postgres:
	test -x $(PG_INITDB) || { $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q postgresql; }

# nginx in front of a test server (tests/platform/test_deploy_nginx.py), run from the
# documented configuration in a directory of the test's own. The test needs only the
# binary; where systemd runs, Debian starts the package's own service on port 80 too
# (`systemctl disable --now nginx` stops it for good).
NGINX := /usr/sbin/nginx
nginx:
	test -x $(NGINX) || { $(SUDO) apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q nginx; }

# axe-core, injected into the pages by tests/novaluna/test_browser_axe.py
AXE := node_modules/axe-core/axe.min.js
axe:
	test -f $(AXE) || npm ci --no-audit --no-fund

# The suite in TEST_WORKERS processes (pytest-xdist; tests/parallel_support.py keeps a
# module's server or browser in one worker and starts the longest first). Most of a
# test's time is spent waiting (servers, browsers, PostgreSQL), so more workers than
# cores pay; each may run a Chromium and a PostgreSQL of its own (README, "Running the
# tests").
#
# Every worker collects the whole suite, and pytest rewrites the asserts of each test
# module it imports; it keeps the rewritten modules as bytecode, which it does not write
# where PYTHONDONTWRITEBYTECODE is set (as on some CI machines): a collection took 14.5
# CPU-s without that cache and 6.3 with it. So the variable is emptied for the suite,
# and one collection fills the cache before the workers start.
TEST_WORKERS ?= 6
test: export PYTHONDONTWRITEBYTECODE =
test: $(TEST_STAMP) lint browser axe postgres nginx
	$(BIN)/python -m pytest --collect-only -q > /dev/null 2>&1 || true
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

# schemathesis against a live server from the OpenAPI document, far longer than in
# `make test` (docs/web.md, "The OpenAPI document"): FUZZ_EXAMPLES cases per operation
# and mode, drawn the same way on every run
FUZZ_EXAMPLES ?= 500
fuzz: $(TEST_STAMP)
	TABLETOP_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest -m openapi tests/platform/test_openapi.py

# the browser tests with their screenshots (test-output/screenshots/), to look at the
# pages at both sizes and in each language; `make test` takes none (tests/browser_support.py)
screenshots: $(TEST_STAMP) browser axe postgres
	TABLETOP_SCREENSHOTS=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) -k browser tests

bench: $(BASE_STAMP)
	$(BIN)/novaluna bench

load: $(TEST_STAMP)
	$(BIN)/python scripts/loadtest.py

# what a casual game's coach costs (docs/web.md, "The coach")
coachbench: $(TEST_STAMP)
	$(BIN)/python scripts/coachbench.py

# The page's message catalogues (docs/web.md, "Languages"): extract every text of the
# Python and JavaScript into a template, then merge it into the German and Dutch .po
# files (new texts arrive untranslated, gone ones are dropped; tests/platform/test_i18n.py
# fails until every text is translated).
LOCALES := src/tabletop/locale
EXTRACT := --no-default-keywords -k t -k tn:1,2 -k tp:1c,2 -k N_ -k ApiError:2 -k IllegalActionError -k InvalidActionError --no-location --sort-output
catalogues: $(BASE_STAMP)
	$(BIN)/pybabel extract -F babel.cfg $(EXTRACT) --project=tabletop -o $(LOCALES)/messages.pot src
	$(BIN)/pybabel update -i $(LOCALES)/messages.pot -d $(LOCALES) --no-fuzzy-matching --ignore-obsolete --no-wrap
