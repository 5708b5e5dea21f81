#!/usr/bin/env bash
# Strength table of docs/strength.md: every run is a plain `ono99 arena` command.
# Usage: benchmarks/strength.sh [WORKERS] [low|high|all]   (CPU heavy: hours on 2 cores)
#   low  = the runs without ISMCTS, high = the ISMCTS runs.
# Results: benchmarks/results/*.json; table: python3 benchmarks/strength_table.py
# The 2-player mattel2022 and the 3-player classic1980 ISMCTS runs are several arena
# commands (different seeds) pooled by benchmarks/pool_runs.py: a run cut short loses one
# part, not all of it. Results do not depend on the number of workers, so WORKERS only
# changes how long it takes.
set -euo pipefail
cd "$(dirname "$0")/.."
W="${1:-2}"
WHICH="${2:-all}"
# plain `ismcts` is exactly ISM in elimination games (mattel2022) and ISM_TOKENS with
# tokens (classic1980) (src/ono99/bots/ismcts.py, PresetISMCTS)
ISM="${ISM:-ismcts:120:heuristic:infer:z2}"
ISM_TOKENS="${ISM_TOKENS:-ismcts:120:heuristic:infer}"
C3_SEEDS=(63 64 65 66 67 68 69)
OUT=benchmarks/results
mkdir -p "$OUT/parts"
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
for seed in 31 33 35; do
run "parts/m2-ismcts-heuristic-$seed" --bots "$ISM",heuristic --players 2 --rules mattel2022 --games 1504 --seed "$seed"
done
python3 benchmarks/pool_runs.py --json "$OUT"/parts/m2-ismcts-heuristic-{31,33,35}.json > "$OUT/m2-ismcts-heuristic.json"
run m4-ismcts-heuristic --bots "$ISM",heuristic     --players 4 --rules mattel2022  --games 480   --seed 32
for seed in "${C3_SEEDS[@]}"; do
run "parts/c3-ismcts-heuristic-$seed" --bots "$ISM_TOKENS",heuristic --players 3 --rules classic1980 --games 300 --seed "$seed"
done
c3_parts=()
for seed in "${C3_SEEDS[@]}"; do c3_parts+=("$OUT/parts/c3-ismcts-heuristic-$seed.json"); done
python3 benchmarks/pool_runs.py --json "${c3_parts[@]}" > "$OUT/c3-ismcts-heuristic.json"
fi
