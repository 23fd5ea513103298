#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian machine: Debian packages through apt, then a
# virtual environment in .venv with the project from pyproject.toml. Idempotent: a second run
# only checks. Usage: scripts/install.sh [--test]   (--test adds test tools and chromium)
set -euo pipefail
cd "$(dirname "$0")/.."

with_test=0
[ "${1:-}" = "--test" ] && with_test=1

apt_packages=(libhunspell-dev hunspell-sr hunspell-en-us g++ python3-venv)
[ "$with_test" = 1 ] && apt_packages+=(chromium)

missing=()
for package in "${apt_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing Debian packages: ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" != 0 ] && sudo_cmd="sudo"
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

stamp=".venv/.installed$([ "$with_test" = 1 ] && echo -test)"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    .venv/bin/pip install -q --upgrade pip
    extras=""
    [ "$with_test" = 1 ] && extras="[test]"
    .venv/bin/pip install -q -e ".${extras}"
    touch "$stamp"
fi
# Bytecode for the project's own modules (an editable install leaves them uncompiled), so that a
# worker starts without compiling them even where PYTHONDONTWRITEBYTECODE is set.
.venv/bin/python -m compileall -q crawlweb frontier evaluation >/dev/null
