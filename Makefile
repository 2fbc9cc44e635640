# Two commands set everything up on a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCK := requirements.lock
LOWEST := requirements-lowest.lock

.PHONY: play serve test lint typecheck pytest docs soak bench lock dist clean

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
# the standing bot ladder's rated games a minute (docs/operators/settings.md; 0 turns it off):
# one a minute costs about 0.4% of a core (benchmarks/ladder.py)
LADDER ?= 1

serve: $(STAMP)  ## Online tables and the browser page, on SQLite under data/ (HOST=, PORT=, LADDER=)
	DICEHALL_LADDER_GAMES_PER_MINUTE=$(LADDER) $(BIN)/dicehall serve --host $(HOST) --port $(PORT)

test: lint typecheck pytest docs  ## ruff, mypy, pytest and the documentation site

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples docs/hooks.py
	$(BIN)/ruff format --check src tests benchmarks examples docs/hooks.py

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

# The site of docs/ (mkdocs.yml), built strictly: a broken link, a page left out
# of the nav or an API page that does not render fails it. Into site/ (ignored).
docs: $(STAMP)  ## build the documentation site into site/
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

soak: $(STAMP)  ## the slow soak tests
	$(BIN)/pytest -m slow

bench: $(STAMP)  ## random-playout speed of every game
	$(BIN)/python benchmarks/playouts.py

# After changing a range in pyproject.toml: the tested set for every supported
# Python and platform, and the lowest bounds CI also tests (Linux, oldest Python).
# The first keeps the pins it can (uv prefers the file's versions); the second
# starts afresh (--upgrade), or a bound lowered since would keep its old pin.
# every extra but train, which brings PyTorch (pyproject.toml)
LOCKED_EXTRAS := $(foreach e,server postgres rl openspiel plot cluster dev,--extra $(e))

lock: $(STAMP)  ## regenerate requirements.lock and requirements-lowest.lock from pyproject.toml
	$(BIN)/uv pip compile --quiet pyproject.toml $(LOCKED_EXTRAS) --universal \
	    --python-version 3.11 --generate-hashes --custom-compile-command "make lock" --output-file $(LOCK)
	$(BIN)/uv pip compile --quiet pyproject.toml $(LOCKED_EXTRAS) --resolution lowest-direct \
	    --python-version 3.11 --python-platform x86_64-manylinux_2_28 --upgrade \
	    --generate-hashes --custom-compile-command "make lock" --output-file $(LOWEST)

# .ci/dists.sh: the compiled wheel of every CPython >= 3.11 here, repaired to a manylinux
# tag, and the pure-Python wheel, each built from the sdist (CONTRIBUTING.md, Releases)
dist: $(STAMP)  ## the sdist and the wheels under dist/, checked by auditwheel and twine
	VENV_BIN=$(BIN) .ci/dists.sh dist

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache dist build site
