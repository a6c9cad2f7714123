#!/bin/sh
# The saturated load bench of the work tree against an earlier revision, in one sitting.
#
#   scripts/bench-ab.sh REV [PAIRS]     PAIRS rounds (default 4) of: REV, then the work tree
#   ARGS="--connections 300 --rooms 100 --duration 20 --saturate" scripts/bench-ab.sh REV
#
# Each `kibitz bench` run measures Kibitz and the plain-websockets ceiling one after the
# other, so every ratio has its own anchor; alternating the two codes spreads the machine's
# drift (on a shared machine the ceiling's own cost can swing by half) over both. REV is
# checked out into a temporary worktree and its compiled parts built there; both run on
# this checkout's virtualenv. Prints each run's CPU per delivery (Kibitz, the ceiling),
# their ratio and the deliveries as % of the ceiling's, then the medians.
set -eu
cd "$(dirname "$0")/.."
REV="${1:?usage: scripts/bench-ab.sh REV [PAIRS]}"
PAIRS="${2:-4}"
ARGS="${ARGS:---connections 300 --rooms 100 --duration 20 --saturate}"
PY="$(pwd)/.venv/bin/python"
HERE="$(pwd)"
TMP="$(mktemp -d)"
trap 'git -C "$HERE" worktree remove --force "$TMP/old" >/dev/null 2>&1 || true; rm -rf "$TMP"' EXIT

git worktree add --detach -q "$TMP/old" "$REV"
# REV's extensions, built from its setup.py's list alone (`setup.py build_ext` reads
# pyproject.toml too, which this setuptools refuses for its licence field)
if ! (cd "$TMP/old" && "$PY" - >/dev/null 2>&1 <<'EOF'
import setuptools

captured = {}
setuptools.setup = lambda **kw: captured.update(kw)
exec(open("setup.py").read())
dist = setuptools.Distribution(
    {"ext_modules": captured["ext_modules"], "script_args": ["build_ext", "--inplace", "-q"]}
)
dist.parse_command_line()
dist.run_commands()
EOF
); then
    # each extension whose C sources (its .c and the headers beside it) are the work tree's
    # runs the work tree's build; one whose sources differ runs REV's pure Python
    (cd "$HERE" && find server -name '*.so') | while read -r so; do
        stem="${so%%.cpython*}"
        if git -C "$HERE" diff --quiet "$REV" -- "$stem.c" "$(dirname "$so")/*.h"; then
            cp "$HERE/$so" "$TMP/old/$so"
            echo "note: $REV's $stem did not build here; its sources are the work tree's, whose build it runs"
        else
            echo "note: $REV's $stem did not build here and its sources differ: it runs its pure Python"
        fi
    done
fi

i=1
while [ "$i" -le "$PAIRS" ]; do
    for side in old new; do
        dir="$HERE"
        [ "$side" = old ] && dir="$TMP/old"
        echo "pair $i of $PAIRS: $side" >&2
        # -m server from the checkout's own directory: that checkout's code is the one run
        # shellcheck disable=SC2086
        (cd "$dir" && "$PY" -m server bench $ARGS) > "$TMP/$side.$i.txt" 2>&1
    done
    i=$((i + 1))
done

"$PY" - "$TMP" "$PAIRS" <<'EOF'
import re, statistics, sys
tmp, pairs = sys.argv[1], int(sys.argv[2])
for side in ("old", "new"):
    rows = []
    for i in range(1, pairs + 1):
        text = open(f"{tmp}/{side}.{i}.txt").read()
        cpu = re.search(r"message: ([\d.]+) us .* ceiling ([\d.]+) us: ([\d.]+)x", text)
        share = re.search(r"\((\d+) % of the ceiling's\)", text)
        if cpu is None or share is None:
            sys.exit(f"{side} run {i} gave no figures:\n{text[-2000:]}")
        rows.append((float(cpu[1]), float(cpu[2]), float(cpu[3]), int(share[1])))
    print(f"{side}: " + "; ".join(f"{k} us vs {c} us: {r}x, {s} %" for k, c, r, s in rows))
    print(f"{side}: median ratio {statistics.median(r[2] for r in rows)}x, "
          f"median deliveries {statistics.median(r[3] for r in rows)} % of the ceiling's")
EOF
