# Every target sets itself up from nothing: a virtual environment with the pinned Python packages, and the pinned
# npm packages (Pyodide, Vega) that the build vendors into the site.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Where `make serve` and `make preview` listen: `make preview PORT=8001 HOST=0.0.0.0`.
HOST ?= 127.0.0.1
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1
# Python keeps what it compiles (some machines, this one among them, set PYTHONDONTWRITEBYTECODE=1): pytest then keeps
# its rewritten test modules too, which was half of every run's collection (61 of 107 s under load, cProfile), and each
# build's subprocesses stop compiling the plugin and the book from source.
export PYTHONDONTWRITEBYTECODE :=
# One line instead of a traceback when something already listens on HOST:PORT (expanded as the recipe starts).
PORT_FREE = $(if $(shell $(BIN)/python -c "import socket; print(socket.socket().connect_ex(('$(HOST)', $(PORT))) == 0 or '')"),\
	$(error $(HOST):$(PORT) is in use: stop what runs there or pick another port (make $@ PORT=8001)))
# One line saying what to install when a tool a recipe needs is missing (.ci/prerequisites, which .ci/run uses too),
# instead of a traceback halfway through it; Chromium is installed where it can be (as root, from Debian).
REQUIRE = $(eval missing := $(shell PYTHON='$(PYTHON)' .ci/prerequisites $(1)))$(if $(missing),$(error $(missing)))
# Node.js 22 or 24: where the system's is older, .ci/prerequisites installs Node 22 into NODE_HOME (a cache outside the
# clone), and every recipe finds it first on PATH from then on (expanded as each recipe runs: REQUIRE may install it).
NODE_HOME := $(shell .ci/prerequisites --node-home)
SYSTEM_PATH := $(PATH)
export PATH = $(if $(wildcard $(NODE_HOME)/bin/node),$(NODE_HOME)/bin:)$(SYSTEM_PATH)

.PHONY: serve build preview check test test-busy durations coverage lint bench bench-t7 clean

$(BIN)/python:
	$(call REQUIRE,python)
	$(PYTHON) -m venv $(VENV)

# The packages are installed by uv (pinned in constraints.txt, itself installed by pip): from its cache outside the
# clone (~/.cache/uv) a fresh clone's set-up takes seconds, where pip took half a minute of a 10-minute CI run.
UV = $(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt
$(BIN)/uv: constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt uv
	touch $@

# The plugin (plugins/, its own distribution) and the book that depends on it, both editable.
$(VENV)/.site-deps: pyproject.toml plugins/pyproject.toml constraints.txt | $(BIN)/uv
	$(UV) -e ./plugins -e .
	touch $@

$(VENV)/.test-deps: $(VENV)/.site-deps
	$(UV) -e ./plugins -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	$(call REQUIRE,node)
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## serve: build and serve on http://$(HOST):$(PORT), rebuilding on edits to pages, calculators or the plugin. Not
## strict: a mistake is printed and shown in the page while the server keeps going (make build and CI are strict).
serve: $(VENV)/.site-deps node_modules/.installed
	$(PORT_FREE)
	$(BIN)/mkdocs serve --no-strict --dev-addr $(HOST):$(PORT)

## build: strict build into site/
build: $(VENV)/.site-deps node_modules/.installed
	$(BIN)/mkdocs build --strict

## preview: build site/ for http://$(HOST):$(PORT)/ and serve it there, as a static host would (service worker,
## memory snapshot and instant navigation included: they need the address the site was built for)
preview: $(VENV)/.site-deps node_modules/.installed
	$(PORT_FREE)
	SITE_URL=http://$(HOST):$(PORT)/ $(BIN)/mkdocs build --strict
	@echo "Serving site/ on http://$(HOST):$(PORT)/ (Ctrl-C stops)"
	$(BIN)/python -m http.server --directory site --bind $(HOST) $(PORT)

# Two pytest-xdist workers, a test file at a time (its module's fixtures, a warm browser context or a shared build,
# are made once); each worker makes the session fixtures it needs (the built book, a browser). Not --dist loadgroup:
# pytest-xdist 3.8 renames a grouped test through an attribute pytest 9 no longer reads, so groups are ignored. The
# files go out longest first, by .test_durations (tests/conftest.py's longest_first), not by their number of tests.
PARALLEL := -n 2 --dist loadfile --no-loadscope-reorder

## check: the pre-flight for a change to the book (docs/, calculators/), before a pull request: lint, the strict
## build with every author check (no memory snapshot: that is the plugin's concern, and CI builds it), and the
## content's unit tests. No browser. About a minute once set up. worksteal: the fuzzed calculators' tests take seconds
## each and the rest milliseconds, so a worker that runs out of tests takes some from the other.
check: lint
	CALCULATORS_SNAPSHOT=false $(BIN)/mkdocs build --strict --quiet --site-dir .cache/check-site
	$(BIN)/python -m pytest -m content -n 2 --dist worksteal -q

## test: lint, type-check, then every test layer (unit, conformance, build, browser), on two workers
test: lint
	$(BIN)/python -m pytest $(PARALLEL)

## test-busy: the same with every core kept busy beside it, as on a loaded CI machine (pytest --busy, tests/busy.py);
## TESTS narrows it: make test-busy TESTS=tests/browser
test-busy: lint
	$(BIN)/python -m pytest $(PARALLEL) --busy $(TESTS)

## durations: run every test and record how long each took in .test_durations (pytest-split), which orders make test's
## files and splits GitHub's browser shards; commit it when the suite's shape has changed
durations: lint
	$(BIN)/python -m pytest $(PARALLEL) --store-durations --clean-durations

## coverage: line and branch coverage of the plugin, calckit and the book's package over the Python layers (unit,
## conformance, build; the builds' subprocesses included), ending with a TOTAL line; HTML in .cache/coverage/html
coverage: $(VENV)/.test-deps node_modules/.installed
	rm -rf .cache/coverage
	$(BIN)/python -m pytest -m "not browser" $(PARALLEL) -q --cov --cov-report=term --cov-report=html:.cache/coverage/html

## lint: ruff, mypy --strict, and the browser's scripts type-checked from their JSDoc (tsconfig.json: the page's
## scripts; tsconfig.workers.json: the workers') against the types generated from Python's (mkdocs_calculators.runtime.twins),
## which must be as committed
# mypy keeps what it learnt of the standard library and the packages' types outside the clone, as uv keeps its
# packages: a fresh clone's type-check takes a fraction of a second instead of six (it checks each file's hash).
MYPY_CACHE := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/course-book/mypy
lint: $(VENV)/.test-deps node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy --cache-dir $(MYPY_CACHE)
	$(BIN)/python -m mkdocs_calculators.runtime.twins --check
	node_modules/.bin/tsc --checkJs --noEmit -p tsconfig.json
	node_modules/.bin/tsc --checkJs --noEmit -p tsconfig.workers.json

## bench: the figures of the design brief (T2-T7), measured in one run; ONLY=t2,t3 measures those alone
bench: $(VENV)/.test-deps node_modules/.installed
	$(call REQUIRE,chromium)
	$(BIN)/python -m bench $(if $(ONLY),--only $(ONLY))

bench-t7: $(VENV)/.test-deps node_modules/.installed
	$(call REQUIRE,chromium)
	$(BIN)/python -m bench.t7 $(PAGES)

clean:
	rm -rf site .bench .cache
