# Two commands set everything up on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play serve test lint typecheck pytest soak bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres]'
	touch $(STAMP)

play: $(STAMP)  ## A game of Kariki in the terminal against bots
	$(BIN)/dicehall play kariki

serve: $(STAMP)  ## Online tables and the browser page, on SQLite under data/
	$(BIN)/dicehall serve

test: lint typecheck pytest  ## ruff, mypy and pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

soak: $(STAMP)  ## the slow soak tests
	$(BIN)/pytest -m slow

bench: $(STAMP)  ## random-playout speed of every game
	$(BIN)/python benchmarks/playouts.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
