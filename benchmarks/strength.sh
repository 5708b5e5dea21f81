#!/usr/bin/env bash
# Strength table of docs/strength.md: every run is a plain `ono99 arena` command.
# Usage: benchmarks/strength.sh [WORKERS] [low|high|all]   (CPU heavy: ~1 hour on 2 cores)
#   low  = the runs without ISMCTS (minutes), high = the ISMCTS runs.
# Results: benchmarks/results/*.json; table: python3 benchmarks/strength_table.py
set -euo pipefail
cd "$(dirname "$0")/.."
W="${1:-2}"
WHICH="${2:-all}"
ISM="${ISM:-ismcts:100}"      # ISMCTS with 100 worlds per decision (hard uses 300)
OUT=benchmarks/results
mkdir -p "$OUT"
run() {  # name, then arena arguments
  local name="$1"; shift
  echo "$(date -u +%H:%M:%S) $name: ono99 arena $* --workers $W --json" >&2
  ono99 arena "$@" --workers "$W" --json > "$OUT/$name.json"
}
if [[ "$WHICH" != high ]]; then
run m2-greedy-random    --bots greedy,random        --players 2 --rules mattel2022  --games 2000  --seed 1
run m2-heuristic-greedy --bots heuristic,greedy     --players 2 --rules mattel2022  --games 20000 --seed 2
run m4-greedy-random    --bots greedy,random        --players 4 --rules mattel2022  --games 1000  --seed 7
run m4-heuristic-greedy --bots heuristic,greedy     --players 4 --rules mattel2022  --games 8000  --seed 8
run c3-low              --bots heuristic,greedy,random --players 3 --rules classic1980 --games 3000 --seed 3
fi
if [[ "$WHICH" != low ]]; then
run m2-ismcts-heuristic --bots "$ISM",heuristic     --players 2 --rules mattel2022  --games 3000  --seed 5
run m4-ismcts-heuristic --bots "$ISM",heuristic     --players 4 --rules mattel2022  --games 2000  --seed 9
run c3-high             --bots "$ISM",heuristic,greedy --players 3 --rules classic1980 --games 900 --seed 6
fi
