# The two set-up commands of the README: `make demo` and `make test`.
PY := .venv/bin/python
PORT ?= 8000
DEMO_ARGS ?=

.PHONY: install install-test demo test migrate bench clean

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

bench: install-test
	for script in bench/*.py; do $(PY) $$script --quick || exit 1; done

clean:
	rm -rf var/test
