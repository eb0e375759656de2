# Set-up is part of every target: a fresh clone needs only Python 3.11+ and make.
# `make play` installs the game alone; the other targets add the test and research tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.core-installed
TEST := $(VENV)/.test-installed
DEV := $(VENV)/.dev-installed
WEB := $(VENV)/.web-installed

.PHONY: play serve test check bench lint clean translations

$(CORE): pyproject.toml setup.py $(wildcard src/red7/native/*.c src/red7/native/*.h)
	@$(PYTHON) -c 'import sys; sys.exit("red7 needs Python 3.11+, found " + sys.version.split()[0] + ": run make PYTHON=python3.11 ...") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(CORE)

$(TEST): $(CORE)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(TEST)

$(DEV): $(TEST)
	# PyTorch for the training examples' tests: 2.13.0 is the CPU build machines of this
	# project keep on disk (any torch>=2.3 works; a bare "torch" may pull a GPU build of GBs).
	$(BIN)/pip install --quiet 'torch==2.13.0'
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(DEV)

$(WEB): $(CORE) pyproject.toml
	$(BIN)/pip install --quiet -e '.[web]'
	touch $(WEB)

play: $(CORE)
	$(BIN)/red7 play

serve: $(WEB)
	$(BIN)/red7 serve

# The fast tier: every test module, each check at a size for every change (tests/tiers.py).
test: $(TEST)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto

# The full tier, what CI runs: every test at its release size, training, PostgreSQL, Redis,
# nginx and Chromium included (Debian packages, which .ci/run installs); the fast tier again
# on the Python engine alone (RED7_NATIVE=0); the linters.
check: $(DEV)
	$(BIN)/python -m pytest --full -n auto
	RED7_NATIVE=0 $(BIN)/python -m pytest -n auto
	$(MAKE) lint

bench: $(TEST)
	$(BIN)/red7 bench
	$(BIN)/python benchmarks/env_speed.py
	$(BIN)/python benchmarks/solver_speed.py
	@if command -v valgrind >/dev/null; then $(BIN)/python benchmarks/instructions.py; \
	else echo "valgrind is not installed: instruction counts skipped (apt-get install valgrind)"; fi

lint: $(DEV)
	$(BIN)/ruff check src tests examples benchmarks experiments
	$(BIN)/ruff format --check src tests examples benchmarks experiments
	$(BIN)/mypy
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/red7/native/*.so

# Messages: extract from the code, merge into the catalogs, compile the .mo files (Babel).
translations: $(TEST)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project red7 --version 0.1.0 \
		--msgid-bugs-address "" --copyright-holder "red7 contributors" --width 120 -o src/red7/ui/locale/red7.pot .
	$(BIN)/pybabel update --width 120 --no-fuzzy-matching --ignore-obsolete -i src/red7/ui/locale/red7.pot -d src/red7/ui/locale -D red7
	$(BIN)/pybabel compile --statistics -d src/red7/ui/locale -D red7
