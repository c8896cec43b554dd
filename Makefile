# Versenyportál: `make run` serves the portal on the embedded default, `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
DEV := DEBUG=1

.PHONY: run test install migrate demo lint format messages e2e clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# requirements/dev.lock: runtime + test + dev + load tools, every version pinned and hash-checked (`make lock`).
$(VENV)/.installed: requirements/dev.lock | $(BIN)/python
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/pip install --require-hashes -r requirements/dev.lock
	touch $@

# The browser tests' tools (axe-core), exactly as package-lock.json pins them; the portal itself needs no Node.
# Without npm the step is skipped with a warning and the accessibility test skips (CI has npm, and fails then).
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund && touch $@; \
	else echo "!! npm not found: node_modules (axe-core for tests/e2e) not installed" >&2; fi

install: $(VENV)/.installed node_modules/.installed

migrate: install
	$(DEV) $(BIN)/python manage.py migrate --noinput

demo: migrate
	$(DEV) $(BIN)/python manage.py seed_demo

run: demo
	$(DEV) $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: install
	$(BIN)/pytest -n auto --dist loadfile -q

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Needs GNU gettext (xgettext/msgfmt); the compiled .mo files are committed so `make run` does not.
messages: install
	# One pass from the root: Django puts each file's strings in the nearest app's locale/ folder, the rest
	# (templates/, config/, federation/) in the project's locale/.
	$(DEV) $(BIN)/python manage.py makemessages -l hu --no-obsolete -i ".venv/*" -i "var/*" -i "tests/*" -i "bench/*"
	$(DEV) $(BIN)/python manage.py compilemessages -i ".venv"

# Re-resolve the lock files from pyproject.toml (runtime dependencies and the test / dev / load groups), keeping
# the versions already locked unless pyproject.toml asks for others; hashes for every file of each release.
lock: install
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes --no-header -q -o requirements/runtime.lock
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --extra test --extra dev --extra load --generate-hashes --no-header -q -o requirements/dev.lock

clean:
	rm -rf $(VENV) var node_modules
