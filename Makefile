# One entry point for newcomers and CI: `make play` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: schema test-js play serve test test-fast test-changed hunt check lint format typecheck unit serial browser clean bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

## play: create the environment if needed, start the game server and print its address
play: $(STAMP)
	$(BIN)/snakes serve --host $(HOST) --port $(PORT) --open

# Test processes side by side. Most tests wait on servers, browsers and Redis rather
# than compute, so three share two cores well; each binds ephemeral ports and keys of
# its own, and starts its own browser.
TEST_WORKERS ?= 3

## test: lint, type-check, then every test (the page's in Node, browser and Redis tests included)
test: check test-js unit serial

## test-js: the page's modules in Node (Debian's nodejs): the reducer, the page's shape
test-js:
	node --test tests/js/

## unit: every test but those that must run alone, spread over $(TEST_WORKERS) processes
unit: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup -m "not serial"

## serial: the tests that measure time or memory, one at a time on a quiet machine
serial: $(STAMP)
	$(BIN)/python -m pytest -m serial || test $$? -eq 5  # 5: no test is marked serial

## test-fast: the in-process tests (engine, rooms, runtime, analysis, docs, doctests)
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m "not processes and not serial"

## test-changed: each test file changed since BASE (default: the previous commit on
## main, HEAD^1) run three times over, side by side: a test red by chance shows here
BASE ?= HEAD^1
test-changed: $(STAMP)
	$(BIN)/python -m tests.changed $(BASE) --runs 3 --workers $(TEST_WORKERS)

## hunt: every test that starts processes, RUNS times over while a core is kept busy,
## and a table of what went red (docs/TESTING.md)
RUNS ?= 10
hunt: $(STAMP)
	$(BIN)/python -m tests.hunt --runs $(RUNS) --workers $(TEST_WORKERS)

## schema: write the protocol's JSON Schema again (docs/protocol.schema.json)
schema: $(STAMP)
	$(BIN)/python -m snakes.server.transport.protocol_schema docs/protocol.schema.json

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
