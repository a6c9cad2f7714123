#!/bin/sh
# The bot benchmarks of issue 5, one arena run each (not tests: minutes to hours).
#
#   scripts/bench-bots.sh [N]          N games per run (default 10); results in docs/results/
#   N=20 scripts/bench-bots.sh         the same
#   ONLY="chess_ab_vs_sf0 banqi_ismcts_vs_greedy" scripts/bench-bots.sh   a subset
#   LADDER=1 scripts/bench-bots.sh     also rate every game's ladder (hours)
#
# Runs one after the other (the machine is shared: never two heavy runs at once). Every run
# is seeded, so a rerun plays the same games (up to timing: searches stop on the clock).
set -eu
cd "$(dirname "$0")/.."
N="${1:-${N:-10}}"
OUT=docs/results
mkdir -p "$OUT"
ARENA="python -m server.tools.arena"

run() {  # run NAME ARGS...   (ONLY="name ..." runs just those)
    name="$1"; shift
    if [ -n "${ONLY:-}" ] && ! echo " $ONLY " | grep -q " $name "; then return 0; fi
    echo "== $name: kibitz arena $*" | tee "$OUT/$name.txt"
    start=$(date +%s)
    $ARENA "$@" --games-out "$OUT/$name.games.jsonl" | tee -a "$OUT/$name.txt"
    echo "($(( $(date +%s) - start )) s)" | tee -a "$OUT/$name.txt"
}

SF='uci:/usr/games/stockfish?Skill Level=0&time=0.05'

# chess: the top level (alpha-beta, 2 s) vs Stockfish skill 5 at the same 2 s (target 0.5)
run chess_hard_vs_sf5 chess 'alphabeta?time=2' 'uci:/usr/games/stockfish?Skill Level=5&time=2' -n "$N" --seed bench-chess-sf5
# the same with the compiled search (2026-11-27), on two more seeds: the figure in docs/BOTS.md
run chess_hard_vs_sf5_cs_a chess 'alphabeta?time=2' 'uci:/usr/games/stockfish?Skill Level=5&time=2' -n "$N" --seed bench-chess-sf5-cs-a
run chess_hard_vs_sf5_cs_b chess 'alphabeta?time=2' 'uci:/usr/games/stockfish?Skill Level=5&time=2' -n "$N" --seed bench-chess-sf5-cs-b
# chess: where the top level stands, against Stockfish skill 8 at the same 2 s
run chess_hard_vs_sf8 chess 'alphabeta?time=2' 'uci:/usr/games/stockfish?Skill Level=8&time=2' -n "$N" --seed bench-chess-sf8
# chess: the compiled search against the same search in Python, both at 0.5 s
run chess_compiled_vs_python chess 'alphabeta?time=0.5' 'alphabeta?time=0.5&compiled=0' -n "$N" --seed compiled
# chess: the search against itself as it was before its last three parts (next_depth, deep_lmr,
# remember; docs/BOTS.md), both at 0.5 s
run chess_search_vs_before chess 'alphabeta?time=0.5' 'alphabeta?time=0.5&next_depth=0.5&deep_lmr=0&remember=0' -n "$N" --seed combo
# chess: alpha-beta at 1 s/move vs Stockfish skill 0 at 0.05 s/move, and vs random
run chess_ab_vs_sf0   chess 'alphabeta?time=1' "$SF" -n "$N" --seed bench-chess
run chess_ab_vs_random chess 'alphabeta?time=1' random -n "$N" --seed bench-chess-r
# Dark Chess: honest ISMCTS vs the same search reading the true state (server/tools/cheating.py)
run dark_honest_vs_cheat dark_chess ismcts py:server.tools.cheating:CheatingISMCTS -n "$N" --time 1 --seed bench-dark
run dark_ismcts_vs_random dark_chess ismcts random -n "$N" --time 1 --seed bench-dark-r
# the price of honesty in thinking time: the honest bot at 4 s a move against the twin at 1 s
run dark_honest4s_vs_cheat1s dark_chess 'ismcts?time=4' 'py:server.tools.cheating:CheatingISMCTS?time=1' -n "$N" --seed price-a
# issue 40: the worldsearch bot (alpha-beta in many sampled worlds, server/bots/worldsearch.py)
# against the same twin at the same 1 s (the figure in docs/BOTS.md: two runs of 30 at once,
# N=30 ONLY=dark_worldsearch_vs_cheat_a and ONLY=dark_worldsearch_vs_cheat_b), and against
# the honest ISMCTS
run dark_worldsearch_vs_cheat_a dark_chess worldsearch py:server.tools.cheating:CheatingISMCTS -n "$N" --time 1 --seed ws-cheat-a
run dark_worldsearch_vs_cheat_b dark_chess worldsearch py:server.tools.cheating:CheatingISMCTS -n "$N" --time 1 --seed ws-cheat-b
run dark_worldsearch_vs_ismcts dark_chess worldsearch ismcts -n "$N" --time 1 --seed ws-ismcts
# where the honest bot's games against the twin are lost: its material every 10 plies (from
# the games above), then N games more with the class of each loss (its worlds held against
# the true state after its last move; server/tools/dark_losses.py)
if [ -z "${ONLY:-}" ] || echo " $ONLY " | grep -q " dark_losses "; then
    echo "== dark_losses" | tee "$OUT/dark_losses.txt"
    python -m server.tools.dark_losses --material "$OUT/dark_honest_vs_cheat.games.jsonl" | tee -a "$OUT/dark_losses.txt"
    python -m server.tools.dark_losses -n "$N" --seed dark-losses | tee -a "$OUT/dark_losses.txt"
fi
# Apocalypse: simultaneous-move search vs seed 000's aggressive bot
run apoc_smmcts_vs_aggressive apocalypse smmcts aggressive -n "$N" --time 0.5 --seed bench-apoc
run apoc_smmcts_vs_random apocalypse smmcts random -n "$N" --time 0.5 --seed bench-apoc-r
# BanQi: ISMCTS vs random and vs greedy
run banqi_ismcts_vs_random banqi ismcts random -n "$N" --time 0.5 --seed bench-banqi-r
run banqi_ismcts_vs_greedy banqi ismcts greedy -n "$N" --time 0.5 --seed bench-banqi-g
# Hase und Igel: max^n vs two greedy bots, 3-seat races (max^n rotates through the seats)
N3=$(( (N + 2) / 3 * 3 ))  # a multiple of 3: max^n sits in every seat equally often
run hui_maxn_vs_2greedy hase_und_igel maxn greedy --seats 3 -n "$N3" --time 0.5 --seed bench-hui
run hui_maxn_vs_2random hase_und_igel maxn random --seats 3 -n "$N3" --time 0.5 --seed bench-hui-r
# Yonin Shogi: the top level (max^n, 1 s) vs three greedy bots, 4 seats (target: first in
# 40 % of games, par 25 %); the figure in docs/BOTS.md is two such runs of 30 (seeds ys-top-1, -2)
N4=$(( (N + 3) / 4 * 4 ))  # a multiple of 4: the top level sits in every seat equally often
run yonin_shogi_top_vs_greedy yonin_shogi hard greedy --seats 4 -n "$N4" --seed ys-top-1

# The difficulty ladder of every game (LADDER=1; rewrites server/bots/ladder.json and the
# table in docs/BOTS.md): each level against the one below, chess anchored to Stockfish.
if [ -n "${LADDER:-}" ]; then
    python -m server ladder chess -n "$N" --anchor 'uci:/usr/games/stockfish?Skill Level=5&time=2' --write
    python -m server ladder dark_chess -n "$N" --write
    python -m server ladder banqi -n "$N" --write
    python -m server ladder apocalypse -n "$N" --write
    python -m server ladder hase_und_igel -n 1000 --write
    python -m server ladder xiangqi ming_mang -n 20 --write
    python -m server ladder yonin_shogi -n "$N" --write
fi
