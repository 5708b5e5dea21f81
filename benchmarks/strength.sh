#!/usr/bin/env bash
# Strength table of docs/strength.md: every run is a plain `ono99 arena` command.
# Usage: benchmarks/strength.sh [WORKERS]   (CPU heavy: about an hour on 2 cores)
# Results: benchmarks/results/*.json; table: python3 benchmarks/strength_table.py
set -euo pipefail
cd "$(dirname "$0")/.."
W="${1:-2}"
ISM="${ISM:-ismcts}"          # ismcts = 100 worlds per decision (the `hard` level)
OUT=benchmarks/results
mkdir -p "$OUT"
run() {  # name, then arena arguments
  local name="$1"; shift
  echo "$(date -u +%H:%M:%S) $name: ono99 arena $* --workers $W --json" >&2
  ono99 arena "$@" --workers "$W" --json > "$OUT/$name.json"
}
run m2-greedy-random    --bots greedy,random       --players 2 --rules mattel2022 --games 2000 --seed 1
run m2-heuristic-greedy --bots heuristic,greedy    --players 2 --rules mattel2022 --games 20000 --seed 2
run c3-low              --bots heuristic,greedy,random --players 3 --rules classic1980 --games 3000 --seed 3
run m4-all              --bots "$ISM",heuristic,greedy,random --players 4 --rules mattel2022 --games 2000 --seed 4
run m2-ismcts-heuristic --bots "$ISM",heuristic    --players 2 --rules mattel2022 --games 3000 --seed 5
run c3-high             --bots "$ISM",heuristic,greedy --players 3 --rules classic1980 --games 900 --seed 6
