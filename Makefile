# Two commands for a newcomer (see README.md):
#   make run    set up .venv and replay the sample game, narrated
#   make test   set up .venv and run the type check and the whole test suite
# Needs only python3 (with venv; on Debian: apt install python3-venv) and make.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
SAMPLE ?= examples/classic-sample.jsonl

.PHONY: run test typecheck bench clean

$(BIN)/.installed: pyproject.toml
	@$(PYTHON) -m venv $(VENV) || { echo "python3 -m venv failed: on Debian or Raspberry Pi OS run 'sudo apt install python3-venv'"; exit 1; }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

run: $(BIN)/.installed
	$(BIN)/clue-companion replay --narrate $(SAMPLE)

typecheck: $(BIN)/.installed
	$(BIN)/python -m mypy --strict companion

test: typecheck
	$(BIN)/python -m pytest -q

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .hypothesis
