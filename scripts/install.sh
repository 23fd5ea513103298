#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine: Debian packages through apt, then a
# virtual environment in .venv with the project from pyproject.toml. Idempotent: a second run
# only checks. Usage: scripts/install.sh [--test]   (--test adds test tools and chromium)
set -euo pipefail
cd "$(dirname "$0")/.."

# Under `set -e` a false `[ … ]` ends the script inside the "$(…)" of an assignment, and fails it as
# the last statement; only in the middle of an `&&` list is it harmless. So: plain ifs throughout.
with_test=0
case "${1:-}" in
    "") ;;
    --test) with_test=1 ;;
    *) echo "usage: scripts/install.sh [--test]   (unknown argument: $1)" >&2; exit 2 ;;
esac

apt_packages=(libhunspell-dev hunspell-sr hunspell-en-us dict-freedict-hrv-eng dict-freedict-eng-hrv g++ python3-venv)
if [ "$with_test" = 1 ]; then apt_packages+=(chromium); fi
# npm brings axe-core, the accessibility checker the browser tests inject (tests/browser/axe.py).
if [ "$with_test" = 1 ] && ! command -v npm >/dev/null 2>&1; then apt_packages+=(npm); fi

missing=()
for package in "${apt_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing Debian packages: ${missing[*]}"
    sudo_cmd=""
    if [ "$(id -u)" != 0 ]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python_bin="${PYTHON:-}"
if [ -z "$python_bin" ]; then
    for candidate in python3.11 python3.12 python3; do
        if command -v "$candidate" >/dev/null 2>&1; then python_bin="$candidate"; break; fi
    done
fi
if [ ! -x .venv/bin/python ]; then
    echo "creating .venv with $python_bin"
    "$python_bin" -m venv .venv
fi

# One stamp per install kind: the test tools' install includes the plain one.
stamp=".venv/.installed"
extras=""
if [ "$with_test" = 1 ]; then stamp=".venv/.installed-test"; extras="[test]"; fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "installing the project into .venv${extras:+ with test tools}"
    .venv/bin/pip install -q --upgrade pip
    .venv/bin/pip install -q -e ".${extras}"
    touch "$stamp"
    if [ "$with_test" = 1 ]; then touch .venv/.installed; fi
fi
# Bytecode for the project's own modules (an editable install leaves them uncompiled), so that a
# worker starts without compiling them even where PYTHONDONTWRITEBYTECODE is set.
.venv/bin/python -m compileall -q crawlweb frontier evaluation labeling training console >/dev/null
# axe-core for the browser tests' accessibility checks: into .venv, beside the other test tools.
if [ "$with_test" = 1 ] && [ ! -f .venv/axe/node_modules/axe-core/axe.min.js ]; then
    echo "installing axe-core (npm) into .venv/axe"
    npm install --silent --no-audit --no-fund --prefix .venv/axe axe-core@4
fi
