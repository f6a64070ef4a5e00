# One entry point for newcomers and CI: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: play serve test check lint format typecheck unit browser clean bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## play: create the environment if needed, start the game server and print its address
play: $(STAMP)
	$(BIN)/snakes serve --host $(HOST) --port $(PORT) --open

## test: lint, type-check, then every test (browser and Redis tests included)
test: check unit

unit: $(STAMP)
	$(BIN)/python -m pytest

## check: ruff lint and format check, mypy --strict
check: lint typecheck

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build *.egg-info src/*.egg-info
