# Every target sets itself up from nothing: a virtual environment with the pinned Python packages, and the pinned
# npm packages (Pyodide, Vega) that the build vendors into the site.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve build test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.site-deps: pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e .
	touch $@

$(VENV)/.test-deps: $(VENV)/.site-deps
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## serve: build and serve on http://127.0.0.1:8000, rebuilding on edits to pages, calculators or the plugin. Not strict:
## a mistake is printed and shown in the page while the server keeps going (make build and CI are strict).
serve: $(VENV)/.site-deps node_modules/.installed
	$(BIN)/mkdocs serve --no-strict --dev-addr $(HOST):$(PORT)

## build: strict build into site/
build: $(VENV)/.site-deps node_modules/.installed
	$(BIN)/mkdocs build --strict

## test: lint, type-check, then every test layer (unit, conformance, build, browser)
test: lint
	$(BIN)/python -m pytest

lint: $(VENV)/.test-deps node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/mypy

## bench: the figures of the design brief (T2, T3, T6), measured in one run
bench: $(VENV)/.test-deps node_modules/.installed
	$(BIN)/python -m bench

clean:
	rm -rf site .bench
