# The Castillo kit. `make run` and `make test` do all set-up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: setup run test lint typecheck unit bench clean hardware openscad

# A local virtualenv, refreshed whenever the dependency lists change.
$(STAMP): pyproject.toml requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt -e .
	touch $@

setup: $(STAMP)

run: setup
	$(VENV)/bin/castillo run

lint: setup
	$(VENV)/bin/ruff check engine host tests hardware
	$(VENV)/bin/ruff format --check engine host tests hardware

typecheck: setup
	$(VENV)/bin/mypy

# pytest exits 5 when it collected nothing: that is a broken suite, not a pass.
unit: setup openscad
	@$(PY) -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

test: lint typecheck unit

# OpenSCAD renders the chute model (the tests render it too); Debian's package, installed once.
openscad:
	@command -v openscad >/dev/null || (apt-get update -qq && apt-get install -y -qq openscad)

# The build pack: regenerate tables, diagrams and the Wokwi project from the data, render STLs.
hardware: setup openscad
	$(PY) -m hardware.tools.generate
	$(PY) -m hardware.tools.render

bench: setup
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
