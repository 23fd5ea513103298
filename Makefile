# The two set-up commands of the README: `make demo` and `make test`.
PY := .venv/bin/python
PORT ?= 8000
DEMO_ARGS ?=

.PHONY: install install-test demo test docs screenshots migrate bench clean

install:
	bash scripts/install.sh

install-test:
	bash scripts/install.sh --test

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo --port $(PORT) $(DEMO_ARGS)

test: install-test
	bash scripts/test.sh

# The docs site (mkdocs.yml) into site/; `make test` builds it too, with --strict.
docs: install-test
	.venv/bin/mkdocs build --strict

# The pictures of the README and the docs (docs/*.png), taken by the browser tests that show those pages (embedded mode).
screenshots: install-test
	UPDATE_SCREENSHOTS=1 VAR_DIR=$(CURDIR)/var/screenshots env -u DATABASE_URL -u REDIS_URL \
		$(PY) -m pytest -q tests/browser/test_demo_dashboard.py tests/browser/test_labeling_session.py \
		tests/browser/test_operator_journey.py

bench: install-test
	for script in bench/*.py; do $(PY) $$script --quick || exit 1; done

clean:
	rm -rf var/test
