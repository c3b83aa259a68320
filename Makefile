# Two commands for a newcomer (see README.md):
#   make run    set up .venv and run the companion on mock hardware (virtual board, emulated handhelds);
#               PORT=8080 serves the web page there, ARGS="--edition doctor_who" adds options to `run`
#   make test   set up .venv and run the type check and the whole test suite (in parallel: WORKERS=3 processes)
#   make test-pico  the board twin's tests alone (the real firmware on MicroPython's rp2 port on an emulated
#               RP2040); fails when the image is missing: build it first with tools/build-pico-image.sh
#   make test-image  the Pi card image built and booted under qemu (root; 30-45 minutes), as CI runs it after make test
#   make check  the inner loop: the type check and the fast tests (conftest.py marks the browser, firmware,
#               subprocess and real-server tests slow and leaves them to make test), in under a minute
# Needs python3 (with venv; on Debian: apt install python3-venv), make, and for the
# firmware tests Node.js with npm (the MicroPython interpreter they run on is an npm package).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SAMPLE ?= examples/classic-sample.jsonl
FIRMWARE_NODE := tests/firmware/node_modules/.installed
PAGES_NODE := tests/web/node_modules/.installed
PICO_NODE := tests/pico/node_modules/.installed
# The board twin's images (tools/build-pico-image.sh): outside the repository, in the user's cache. The tests
# run with a temporary HOME, so they are told where it is. Without the image the twin's tests are skipped.
CLUE_PICO_CACHE ?= $(HOME)/.cache/clue-companion/pico
export CLUE_PICO_CACHE
# pytest-xdist processes for make test; each test file stays in one process (--dist loadfile), so a module's
# browser and servers start once. Three on two cores: the suite waits on browsers, servers and subprocesses
# about half the time (measured: pytest 5:31 with 2, 4:22 with 3, on this project's 2-core machine)
WORKERS ?= 3
# Files are handed out in the order conftest.py sorts them (slow ones first), not by their number of tests.
PYTEST := $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder
# Python may cache what it compiles (and pytest its rewritten test modules) even where the shell says not to:
# the workers and the next run import them instead of compiling every module again
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-pico test-image check typecheck bench screenshots clean

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -m venv $(VENV) || { echo "python3 -m venv failed: on Debian or Raspberry Pi OS run 'sudo apt install python3-venv'"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

run: $(BIN)/.installed
	$(BIN)/clue-companion run --mock$(if $(PORT), --port $(PORT))$(if $(ARGS), $(ARGS))

$(FIRMWARE_NODE): tests/firmware/package.json tests/firmware/package-lock.json
	@command -v npm >/dev/null || { echo "npm not found: the firmware tests need Node.js (on Debian: apt install nodejs npm)"; exit 1; }
	cd tests/firmware && npm ci --silent --no-audit --no-fund
	@touch $@

# axe-core, which the page tests inject into Chromium to check each page's accessibility.
$(PAGES_NODE): tests/web/package.json tests/web/package-lock.json
	@command -v npm >/dev/null || { echo "npm not found: the page tests need Node.js (on Debian: apt install nodejs npm)"; exit 1; }
	cd tests/web && npm ci --silent --no-audit --no-fund
	@touch $@

# rp2040js, the RP2040 emulator the board twin runs on.
$(PICO_NODE): tests/pico/package.json tests/pico/package-lock.json
	@command -v npm >/dev/null || { echo "npm not found: the board twin needs Node.js (on Debian: apt install nodejs npm)"; exit 1; }
	cd tests/pico && npm ci --silent --no-audit --no-fund
	@touch $@

typecheck: $(BIN)/.installed
	$(BIN)/python -m mypy --strict companion hardware web

test: typecheck $(FIRMWARE_NODE) $(PAGES_NODE) $(PICO_NODE)
	$(PYTEST) --durations=15

test-pico: $(BIN)/.installed $(FIRMWARE_NODE) $(PICO_NODE)
	CLUE_PICO_REQUIRED=1 $(PYTEST) tests/pico tests/firmware/test_fw_pinmap.py

# The Raspberry Pi card image built (tools/build-image.sh) and booted under qemu-system-aarch64: the hardened
# service, a phone's turn, the virtual board as a USB ACM device, doctor, ten power cuts (tools/test-image-qemu.sh;
# as root: it installs its own host packages; about 27 min with the base system cached, 45 from nothing)
test-image: $(BIN)/.installed
	tools/test-image-qemu.sh

check: typecheck
	$(PYTEST) -m "not slow"

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/board_link.py
	$(BIN)/python benchmarks/session.py
	$(BIN)/python benchmarks/web.py --quick
	$(BIN)/python benchmarks/deduction.py --quick
	$(BIN)/python benchmarks/bots.py --games 200
	$(BIN)/python benchmarks/abuse.py --quick
	$(BIN)/python benchmarks/handhelds.py
	$(BIN)/python benchmarks/camera.py --quick

screenshots: $(BIN)/.installed
	$(BIN)/python tools/screenshots.py docs/screenshots

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .hypothesis tests/firmware/node_modules tests/web/node_modules tests/pico/node_modules
