# Set-up is part of every target: a fresh clone needs only Python 3.11+ and make.
# `make play` installs the game alone; the other targets add the test and research tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.core-installed
TEST := $(VENV)/.test-installed
DEV := $(VENV)/.dev-installed
WEB := $(VENV)/.web-installed

.PHONY: play serve test check bench lint clean translations sanitize

$(CORE): pyproject.toml setup.py $(wildcard src/red7/native/*.c src/red7/native/*.h)
	@$(PYTHON) -c 'import sys; sys.exit("red7 needs Python 3.11+, found " + sys.version.split()[0] + ": run make PYTHON=python3.11 ...") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@# the build's own requirements (pyproject.toml's build-system: the setuptools the venv's pip
	@# brings is too old for it), so that setup.py runs in .venv too (make sanitize, setup.py build_ext)
	$(BIN)/pip install --quiet $$($(BIN)/python -c 'import tomllib; print(*tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"])')
	$(BIN)/pip install --quiet -e .
	touch $(CORE)

# The fast tier's tools (the test extra: what its tests import).
$(TEST): $(CORE)
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(TEST)

# The full tier's (the test-full extra: Playwright, the cluster's clients, training, Ray) and the linters.
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

# The fast tier: every test module but the browser's and the services' (tests/web/browser, tests/web/services),
# each check at a size for every change (tests/support/tiers.py).
test: $(TEST)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto

# The full tier, what CI runs: every test at its release size, training, PostgreSQL, Redis,
# nginx and Chromium included (Debian packages, which .ci/run installs); the fast tier again
# on the Python engine alone (RED7_NATIVE=0); the linters; the compiled core under the
# sanitizers (make sanitize).
check: $(DEV)
	$(BIN)/python -m pytest --full -n auto
	RED7_NATIVE=0 $(BIN)/python -m pytest -n auto
	$(MAKE) lint
	$(MAKE) sanitize

bench: $(TEST)
	$(BIN)/red7 bench
	$(BIN)/python -m benchmarks.env_speed
	$(BIN)/python -m benchmarks.solver_speed
	@if command -v valgrind >/dev/null; then $(BIN)/python -m benchmarks.instructions; \
	else echo "valgrind is not installed: instruction counts skipped (apt-get install valgrind)"; fi

lint: $(DEV)
	$(BIN)/ruff check src tests examples benchmarks
	$(BIN)/ruff format --check src tests examples benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	# The compiled module's stub (src/red7/native/_core.pyi) against the module built in .venv.
	$(BIN)/python -m mypy.stubtest red7.native._core

# The compiled core under AddressSanitizer and UndefinedBehaviorSanitizer (CI runs it): a
# copy of the package in build/sanitize, its extension built instrumented there (the
# build in .venv is left alone), runs the compiled-versus-Python tests (the fast tier's
# sizes) and the boundary tests and fuzz of every entry point (tests/native/test_native_fuzz.py,
# hypothesis's full budgets). Any finding (a read or write out of bounds, a use after
# free, undefined behaviour) prints its report and fails the run. Leaks are not looked
# for: CPython keeps its own allocations to the end. Needs gcc.
SANITIZE := build/sanitize
SANITIZE_TESTS := tests/native/test_native.py tests/native/test_native_engine.py tests/native/test_native_greedy.py tests/envs/test_env_vector.py \
	tests/core/test_playthroughs.py
SANITIZE_FUZZ := tests/native/test_native_boundary.py tests/native/test_native_fuzz.py
SANITIZED := PYTHONPATH=$(SANITIZE) PYTHONMALLOC=malloc LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" \
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1:strict_string_checks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

sanitize: $(TEST)
	rm -rf $(SANITIZE)
	$(BIN)/python -c 'import shutil; shutil.copytree("src/red7", "$(SANITIZE)/red7", ignore=shutil.ignore_patterns("*.so", "__pycache__"))'
	CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g" \
		LDFLAGS="-fsanitize=address,undefined" \
		$(BIN)/python setup.py --quiet build_ext --build-lib $(SANITIZE) --build-temp $(SANITIZE)/objects
	@# the extension is optional to the package's build: here its absence is a failure
	$(SANITIZED) $(BIN)/python -c 'import sys, red7.native._core as c; "/$(SANITIZE)/" in c.__file__ or sys.exit("not the sanitized build: " + c.__file__)'
	$(SANITIZED) $(BIN)/python -m pytest -n auto -p no:cacheprovider $(SANITIZE_TESTS)
	$(SANITIZED) $(BIN)/python -m pytest -n auto -p no:cacheprovider --full $(SANITIZE_FUZZ)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build src/red7/native/*.so

# Messages: extract from the code, merge into the catalogs, compile the .mo files (Babel).
translations: $(TEST)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project red7 --version 0.1.0 \
		--msgid-bugs-address "" --copyright-holder "red7 contributors" --width 120 -o src/red7/ui/locale/red7.pot .
	$(BIN)/pybabel update --width 120 --no-fuzzy-matching --ignore-obsolete -i src/red7/ui/locale/red7.pot -d src/red7/ui/locale -D red7
	$(BIN)/pybabel compile --statistics -d src/red7/ui/locale -D red7
