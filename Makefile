# Two commands set everything up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
LOWEST := requirements-lowest.lock

.PHONY: play serve test lint typecheck pytest soak bench lock dist clean

# Everything the make targets use, at the exact versions (and hashes) of the
# lock, then the project itself, editable and without resolving anything.
$(STAMP): pyproject.toml $(LOCK) src/dicehall/__init__.py
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

play: $(STAMP)  ## A game of Kariki in the terminal against bots
	$(BIN)/dicehall play kariki

HOST ?= 127.0.0.1
PORT ?= 8000
# the standing bot ladder's rated games a minute (docs/server.md; 0 turns it off):
# one a minute costs about 0.4% of a core (benchmarks/ladder.py)
LADDER ?= 1

serve: $(STAMP)  ## Online tables and the browser page, on SQLite under data/ (HOST=, PORT=, LADDER=)
	DICEHALL_LADDER_GAMES_PER_MINUTE=$(LADDER) $(BIN)/dicehall serve --host $(HOST) --port $(PORT)

test: lint typecheck pytest  ## ruff, mypy and pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

soak: $(STAMP)  ## the slow soak tests
	$(BIN)/pytest -m slow

bench: $(STAMP)  ## random-playout speed of every game
	$(BIN)/python benchmarks/playouts.py

# After changing a range in pyproject.toml: the tested set for every supported
# Python and platform, and the lowest bounds CI also tests (Linux, oldest Python).
# The first keeps the pins it can (uv prefers the file's versions); the second
# starts afresh (--upgrade), or a bound lowered since would keep its old pin.
lock: $(STAMP)  ## regenerate requirements.lock and requirements-lowest.lock from pyproject.toml
	$(BIN)/uv pip compile --quiet pyproject.toml --all-extras --universal \
	    --python-version 3.11 --generate-hashes --custom-compile-command "make lock" --output-file $(LOCK)
	$(BIN)/uv pip compile --quiet pyproject.toml --all-extras --resolution lowest-direct \
	    --python-version 3.11 --python-platform x86_64-manylinux_2_28 --upgrade \
	    --generate-hashes --custom-compile-command "make lock" --output-file $(LOWEST)

dist: $(STAMP)  ## the sdist and wheel under dist/, checked by twine
	rm -rf dist build  # build/: compiled modules of an earlier build
	$(BIN)/python -m build --outdir dist
	$(BIN)/twine check --strict dist/*

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache dist build
