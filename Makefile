# Two commands for a fresh machine with Python 3.11+ and make: `make build`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test test-fast check lint format bench pictures clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/pnp build

test: $(STAMP)
	$(BIN)/ruff check generator tests benchmarks docs
	$(BIN)/ruff format --check generator tests benchmarks docs
	$(BIN)/mypy generator
	$(BIN)/python -m pytest

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m unit

check: $(STAMP)
	$(BIN)/pnp check

lint: $(STAMP)
	$(BIN)/ruff check generator tests benchmarks

format: $(STAMP)
	$(BIN)/ruff format generator tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_cards.py
	$(BIN)/python benchmarks/bench_art.py
	$(BIN)/python benchmarks/bench_bundled.py
	$(BIN)/python benchmarks/bench_scale.py
	$(BIN)/python benchmarks/bench_cli.py

pictures: $(STAMP)
	$(BIN)/python docs/make_pictures.py

clean:
	rm -rf output $(VENV)
