# Two entry points (see README): `make play` and `make test`.
# Both create .venv and install the package into it when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SOURCES := pyproject.toml $(shell find src -type f -not -name '*.pyc' 2>/dev/null)

.PHONY: play solo test lint bench

$(STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/novaluna play

solo: $(STAMP)
	$(BIN)/novaluna solo

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/novaluna bench
