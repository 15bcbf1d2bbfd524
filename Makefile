# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed

.PHONY: install run test bench evaluate clean

# torch==2.13.0 (the CPU build) must be pip-installed BEFORE the project: the test extra pulls
# stanza, which would otherwise fetch a multi-GB CUDA torch.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e ".[test,export]"
	touch $(STAMP)

install: $(STAMP)

# The main job: process the bundled sample texts (the five seeds) into out/.
run: install
	mkdir -p out
	$(BIN)/yili process --samples -o out/samples.jsonl

# two workers (pytest-xdist): the suite takes about half the time it takes on one core
test: install
	$(BIN)/python -m pytest -n 2

evaluate: install
	$(BIN)/yili evaluate all

bench: install
	$(BIN)/python bench/process_bench.py
	$(BIN)/python bench/train_layers.py

clean:
	rm -rf $(VENV) out .pytest_cache
