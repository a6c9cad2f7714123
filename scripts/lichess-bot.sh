#!/usr/bin/env bash
# Run the real lichess-bot against a local Kibitz server and have it play challenge after
# challenge, two at a time, in one process (docs/BOT_API.md, "Pointing lichess-bot at Kibitz").
#
# lichess-bot is not part of Kibitz and never committed: put a checkout of the public
# lichess-bot-devs/lichess-bot repository in $LICHESS_BOT_DIR (LICHESS_BOT_REF: a commit or
# branch to check out; measured with 2026.8.2.1); this script installs its requirements.txt
# into a virtualenv of its own ($LICHESS_BOT_DIR/.venv).
#
# It starts `kibitz serve` on a free port with a fresh embedded Redis, makes the bot account
# LichessBot (a bot:play token; lichess-bot's -u upgrades it) and three people, starts
# lichess-bot with concurrency 2 and Stockfish, and has the people challenge the bot GAMES
# times in all (each playing black and resigning once the bot has moved: the game's id is the
# challenge's, so they know it at once). It fails unless every game was played to its end.
#
# Usage: scripts/lichess-bot.sh [GAMES]        (default 6; GAMES >= 3 shows the queue)
# Environment: LICHESS_BOT_DIR (default .cache/lichess-bot), LICHESS_BOT_REF, KIBITZ_PYTHON
# (a python with Kibitz installed; default .venv/bin/python), ENGINE (default
# /usr/games/stockfish), KEEP=1 keeps the work directory.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GAMES=${1:-6}
LB=${LICHESS_BOT_DIR:-$ROOT/.cache/lichess-bot}
KIBITZ_PYTHON=${KIBITZ_PYTHON:-$ROOT/.venv/bin/python}
ENGINE=${ENGINE:-/usr/games/stockfish}
WORK=$(mktemp -d -t kibitz-lichess-bot.XXXXXX)
PASSWORD=lichess-bot-run-1
PIDS=()

cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [[ -z ${KEEP:-} ]]; then rm -rf "$WORK"; else echo "kept $WORK"; fi
}
trap cleanup EXIT

say() { printf '== %s\n' "$*"; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

# -- lichess-bot, checked out --------------------------------------------------------------------
if [[ ! -f $LB/lichess-bot.py ]]; then
    echo "lichess-bot.sh: no lichess-bot in $LB: put a checkout of lichess-bot-devs/lichess-bot" \
        "there (or set LICHESS_BOT_DIR)" >&2
    exit 2
fi
if [[ -n ${LICHESS_BOT_REF:-} ]]; then git -C "$LB" checkout --quiet "$LICHESS_BOT_REF"; fi
if [[ ! -x $LB/.venv/bin/python ]]; then
    say "installing lichess-bot's requirements into $LB/.venv"
    python3 -m venv "$LB/.venv"
    "$LB/.venv/bin/pip" install --quiet -r "$LB/requirements.txt"
fi
say "lichess-bot $(sed -n 's/^lichess_bot_version: *//p' "$LB/lib/versioning.yml")"

# -- Kibitz ----------------------------------------------------------------------------------
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT/
(cd "$ROOT" && exec "$KIBITZ_PYTHON" -m server serve --port "$PORT" --data "$WORK/data" --access-log) \
    >"$WORK/kibitz.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do curl -sf "${URL}healthz" >/dev/null && break; sleep 0.2; done
curl -sf "${URL}healthz" >/dev/null || { cat "$WORK/kibitz.log"; exit 1; }
say "Kibitz at $URL"

post() {  # post PATH TOKEN [curl args...]: the JSON answer
    local path=$1 token=$2
    shift 2
    curl -s -X POST "$URL$path" -H "Authorization: Bearer $token" "$@"
}
account() {  # account NAME SCOPES-JSON: an API token of a new account
    local name=$1 scopes=$2 login
    curl -sf -X POST "${URL}api/register" -d "{\"name\": \"$name\", \"password\": \"$PASSWORD\"}" >/dev/null
    login=$(curl -sf -X POST "${URL}api/login" -d "{\"name\": \"$name\", \"password\": \"$PASSWORD\"}" | json 'd["token"]')
    post api/tokens "$login" -d "{\"description\": \"lichess-bot run\", \"scopes\": $scopes}" | json 'd["token"]'
}
BOT_TOKEN=$(account LichessBot '["bot:play"]')
declare -A TOKENS
for name in Ann Ben Cat; do TOKENS[$name]=$(account "$name" '["board:play", "challenge:write"]'); done

# -- lichess-bot's config: concurrency 2, Stockfish, PGNs saved (the export route) -------------
"$LB/.venv/bin/python" - "$LB/config.yml.default" "$WORK/config.yml" <<EOF
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
config["token"], config["url"] = "$BOT_TOKEN", "$URL"
config["engine"].update(dir="$(dirname "$ENGINE")", name="$(basename "$ENGINE")")
config["engine"].setdefault("uci_options", {}).update(
    Threads=1, Hash=16, go_commands={"movetime": 300}  # quick moves: the games are the test
)
# no tablebases here: the default's SyzygyPath makes Stockfish say "Found 0 tablebases",
# which python-chess logs as a warning
config["engine"]["uci_options"].pop("SyzygyPath", None)
config["challenge"].update(concurrency=2, accept_bot=True, modes=["casual", "rated"])
config["matchmaking"]["allow_matchmaking"] = False
config["pgn_directory"] = "$WORK/pgn"
yaml.safe_dump(config, open(sys.argv[2], "w"))
EOF
(cd "$WORK" && exec "$LB/.venv/bin/python" "$LB/lichess-bot.py" -u --config "$WORK/config.yml" \
    --disable_auto_logging -l "$WORK/lichess-bot.log") >/dev/null 2>&1 &
PIDS+=($!)
for _ in $(seq 150); do
    online=$(curl -s "${URL}api/users/status?ids=LichessBot" | json '"online" in d[0]')
    [[ $online == True ]] && break
    sleep 0.2
done
[[ $online == True ]] || { tail -40 "$WORK/lichess-bot.log"; exit 1; }
say "lichess-bot is online (its event stream is open)"

# -- the challenges: each person challenges, waits for the bot's first move, resigns ---------
play() {  # play NAME ROUNDS DELAY
    local name=$1 rounds=$2 token=${TOKENS[$1]} id state
    # the people do not challenge in the same instant: lichess-bot 2026.8.2.1 starts each
    # game's process from one shared argument dict (start_game_thread sets its "game_id",
    # then pool.apply_async), so two gameStart events read back to back can both start the
    # second game and leave the first one's slot busy for good (docs/BOT_API.md)
    sleep "$3"
    for _ in $(seq "$rounds"); do
        id=$(post api/challenge/LichessBot "$token" -d clock.limit=120 -d clock.increment=1 \
             -d color=black -d rated=false | json 'd["id"]')
        echo "$name challenged: $id"
        state=
        for _ in $(seq 600); do  # the game of the challenge's id, once the bot has moved
            state=$(curl -s -H "Accept: application/json" "${URL}game/export/$id" \
                    | json 'd.get("moves", "")' 2>/dev/null || true)
            [[ -n $state ]] && break
            sleep 0.2
        done
        [[ -n $state ]] || { echo "$name: game $id never started"; return 1; }
        post "api/board/game/$id/resign" "$token" >/dev/null
        for _ in $(seq 100); do
            state=$(curl -s -H "Accept: application/json" "${URL}game/export/$id" | json 'd["status"]')
            [[ $state != started ]] && break
            sleep 0.2
        done
        echo "$name: game $id over ($state)"
        echo "$id" >>"$WORK/games"
    done
}
PLAYERS=()
names=(Ann Ben Cat)
for i in 0 1 2; do
    rounds=$(( GAMES / 3 + (i < GAMES % 3 ? 1 : 0) ))
    (( rounds > 0 )) || continue
    play "${names[$i]}" "$rounds" "$i" &
    PLAYERS+=($!)
done
failed=0
for pid in "${PLAYERS[@]}"; do wait "$pid" || failed=1; done

# -- what happened -----------------------------------------------------------------------------
played=$(sort -u "$WORK/games" 2>/dev/null | wc -l)
say "$played of $GAMES games played to their end"
grep -E "Process (Queued|Used|Freed)" "$WORK/lichess-bot.log" | sed 's/^.*Process/  Process/' || true
ls "$WORK/pgn" 2>/dev/null | sed 's/^/  PGN saved: /' || true
say "what lichess-bot and the people asked, by answer (the access log)"
sed -n 's/^.*kibitz.access: \([A-Z]*\) \(.*\) \([0-9-]*\) [0-9]* bytes.*$/\3 \1 \2/p' "$WORK/kibitz.log" \
    | sed -E "s#/($(paste -sd'|' "$WORK/games"))(/|\$)#/{id}\\2#g; s#/move/[a-h1-8qrbn]{4,5}#/move/{uci}#" \
    | sort | uniq -c | sort -k2,2 -k1,1nr | sed 's/^/  /'

warnings=$(grep -cE " (WARNING|ERROR|CRITICAL) " "$WORK/lichess-bot.log" || true)
say "lichess-bot's log: $warnings warnings or errors"
grep -E " (WARNING|ERROR|CRITICAL) " "$WORK/lichess-bot.log" | sed 's/^/  /' || true
overlap=$(grep -c "Process Used. Count: 2" "$WORK/lichess-bot.log" || true)
say "times two games ran at once: $overlap"

if (( failed || played != GAMES || warnings > 0 )); then
    tail -40 "$WORK/lichess-bot.log"
    exit 1
fi
say "lichess-bot played challenge after challenge, two at a time, in one process"
