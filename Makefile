# Two commands for a fresh machine with Python 3.11+ and make: `make build`, `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test test-slow test-fast test-loaded check lint format bench pictures docs site clean browser gettext

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/pnp build

# pnp serve's browser tests drive Debian's chromium and chromedriver: installed here when
# missing and apt-get is there (CI runs as root; elsewhere through sudo)
browser:
	@if { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; } && command -v apt-get >/dev/null; then \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq chromium chromium-driver; \
	fi

# the catalog tests check every PO file with GNU msgfmt -c --check-format: gettext is
# installed here the same way when msgfmt is missing
gettext:
	@if ! command -v msgfmt >/dev/null && command -v apt-get >/dev/null; then \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -qq && $$sudo apt-get install -y -qq gettext; \
	fi

# make test: lint, types, the unit and e2e tiers and the docs (a few minutes); the acceptance
# tier (every bundled game in every print mode, language and shop, hostile input, fuzzers,
# the browser) is make test-slow, which CI runs after it (.ci/run)
# the tiers run on every core (pytest-xdist); a module's tests stay together on one worker, so
# a module's fixtures (a built game, a server) are made once. PYTEST_JOBS=0 runs in one process
PYTEST_JOBS ?= auto
XDIST = -n $(PYTEST_JOBS) --dist loadscope

test: $(STAMP) browser gettext
	$(BIN)/ruff check generator tests benchmarks docs
	$(BIN)/ruff format --check generator tests benchmarks docs
	$(BIN)/mypy generator
	$(BIN)/python -m pytest -m "not acceptance" $(XDIST)
	$(MAKE) docs

test-slow: $(STAMP) browser gettext
	$(BIN)/python -m pytest -m acceptance $(XDIST)

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m unit

# make test-loaded: the e2e and acceptance tiers with LOAD_JOBS builds of the bundled games
# running beside them over and over (a busy machine), RUNS times in a row: a test that waits
# on a fixed time instead of on its condition fails here first (issue 43: RUNS=5 before a
# change to how tests wait lands)
LOAD_JOBS ?= 2
RUNS ?= 1
test-loaded: $(STAMP) browser gettext
	$(BIN)/python benchmarks/under_load.py --jobs $(LOAD_JOBS) --runs $(RUNS) -- \
		$(BIN)/python -m pytest -m "e2e or acceptance" $(XDIST)

check: $(STAMP)
	$(BIN)/pnp check

lint: $(STAMP)
	$(BIN)/ruff check generator tests benchmarks

format: $(STAMP)
	$(BIN)/ruff format generator tests benchmarks

# every benchmark, then a table of each goal beside its figure (CPU first, the load beside)
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_all.py

pictures: $(STAMP) browser
	$(BIN)/python docs/make_pictures.py

# The documentation site, into build/site: its pictures are made from the example games (again
# only when those changed) and --strict fails on a broken link, snippet or picture. (Material
# for MkDocs announces its end of life, May 2027, on every build: its successor Zensical reads
# the same mkdocs.yml.)
docs: $(STAMP) browser
	$(BIN)/python docs/reference.py
	$(MAKE) site

# the site alone, from SITE_CONFIG: --strict fails on any warning mkdocs logs (a broken link
# or anchor, a missing snippet or picture). Never --quiet: it hides the warnings from the
# count, and the build passes (tests/test_docs_site.py builds a broken tree with this rule)
SITE_CONFIG ?= mkdocs.yml
site:
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --config-file $(SITE_CONFIG)

clean:
	rm -rf output $(VENV) build/site docs/stock-templates/art
