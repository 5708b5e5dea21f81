#!/usr/bin/env bash
# The strength table of README.md and docs/strength.md: every run it reports, fixed here
# BEFORE it is run (bots, players, rules, options, games, seeds) and never chosen after.
#
# Usage: benchmarks/strength.sh [WORKERS] [ROW-REGEX]    run the parts not yet saved
#        benchmarks/strength.sh list                      the plan, one part a line (TSV)
#        python3 benchmarks/strength_table.py             the table, from the part files
#
# Each row is several parts (the same command with different seeds); a part is saved to
# benchmarks/results/parts/ROW-SEED.json when it finishes (written to a temporary file,
# then renamed), and a part already saved is skipped: a run cut short loses only the part
# it was playing, and running the script again continues where it stopped. Parts run
# round by round (the first part of every row, then the second...), so a short session
# leaves some of every row rather than all of one. Every command runs under nice -n 19.
# Results do not depend on WORKERS, only the time does.
#
# Games per row: enough that the 95 % interval on the edge (the block-paired difference
# of win shares per seat, `pairs` in the arena's JSON) is about +-1 %, i.e.
# blocks >= (1.96 * sd / 0.01)^2 with sd the standard deviation of the per-block
# difference measured in the runs this plan replaces (benchmarks/results/history/):
#   m2 greedy-random 0.62, heuristic-greedy 0.63, ismcts-heuristic 0.32 (blocks of 2)
#   m4 greedy-random 0.20, heuristic-greedy 0.32, ismcts-heuristic 0.15 (blocks of 4)
#   c3 (tokens) heuristic-greedy 0.61, ismcts-heuristic 0.36 (blocks of 3)
#   c3 (points): not measured before; the tokens figures are assumed.
#   c3 (points) rollout search: 0.38 (blocks of 3), measured on the first 19 parts of
#   c3p-ismcts-heuristic, when the row c3p-rollouts-heuristic was added (2026-12-01).
# The bound rows (a player who sees every card against the heuristic,
# benchmarks/skill_ceiling.py --bound) need less: their edge is large (80 % of games in a
# first try of 20) and is only the yardstick; their 95 % interval is about +-2 to 3 %.
#
# Environment, for the test (tests/test_strength_table.py) and for trying the plan small:
#   OUT=DIR    where parts go (default benchmarks/results/parts)
#   GAMES=N    play N games per part instead of the row's (a tiny run; never for the table)
#   PARTS=K    run only the first K parts of each row
set -euo pipefail
cd "$(dirname "$0")/.."

# name | kind (arena or bound) | players | rules | options (k=v,...) | bots | games per part | seeds
#   | bot version
# Seeds 15000 and up were never used before this plan (issue 15).
# Bot version: 1, the bots and deals up to issue 34 (the heuristic's samples seeded from
# CPython's hash() of its view, deals by version 1 of the seeded shuffle); 2, both from the
# project's own generator (issue 34). A row of an earlier version than BOTS is closed: its
# parts were played by those bots and stay as they are, and the script no longer runs it
# (the same seed would now play other games with other bots); only a tiny run (GAMES) does.
BOTS=2
ROWS=(
  "m2-greedy-random|arena|2|mattel2022||greedy,random|10000|15101 15102 15103|1"
  "m2-heuristic-greedy|arena|2|mattel2022||heuristic,greedy|8000|15111 15112 15113 15114|1"
  "m4-greedy-random|arena|4|mattel2022||greedy,random|3200|15201 15202|1"
  "m4-heuristic-greedy|arena|4|mattel2022||heuristic,greedy|4000|15211 15212 15213 15214|1"
  "c3t-low|arena|3|classic1980|scoring=tokens|heuristic,greedy,random|7200|15301 15302 15303 15304 15305 15306|1"
  "c3p-low|arena|3|classic1980|scoring=points|heuristic,greedy,random|7200|15401 15402 15403 15404 15405 15406|1"
  "m2-omniscient-heuristic|bound|2|mattel2022||omniscient,heuristic|800|15601 15602 15603 15604|1"
  "m4-omniscient-heuristic|bound|4|mattel2022||omniscient,heuristic|800|15611 15612 15613 15614|1"
  "c3t-omniscient-heuristic|bound|3|classic1980|scoring=tokens|omniscient,heuristic|300|15621 15622 15623 15624|1"
  "c3p-omniscient-heuristic|bound|3|classic1980|scoring=points|omniscient,heuristic|600|15631 15632 15633 15634|1"
  "m4-ismcts-heuristic|arena|4|mattel2022||ismcts:120:heuristic:infer:z2,heuristic|200|$(seq -s ' ' 15221 15236)|1"
  "c3p-ismcts-heuristic|arena|3|classic1980|scoring=points|ismcts:300,heuristic|300|$(seq -s ' ' 15421 15480)|1"
  "m2-ismcts-heuristic|arena|2|mattel2022||ismcts:120:heuristic:infer:z2,heuristic|500|$(seq -s ' ' 15121 15136)|1"
  "c3t-ismcts-heuristic|arena|3|classic1980|scoring=tokens|ismcts:120:heuristic:infer,heuristic|150|$(seq -s ' ' 15501 15596)|1"
  # Added 2026-12-01, before any of it ran: with points the tree search (the row
  # c3p-ismcts-heuristic) trailed the heuristic in its first 19 parts; this asks whether the
  # rollout search that plain ismcts plays with tokens does better with points.
  "c3p-rollouts-heuristic|arena|3|classic1980|scoring=points|ismcts:120:heuristic:infer,heuristic|300|$(seq -s ' ' 15701 15760)|1"
  # Added 2026-12-01, before any of them ran: the tree search the hard level plays (ismcts:300)
  # against the heuristic (medium) where hard plays it, so that the levels' order is measured
  # too. Sized as the rollout rows of the same setting (their sd per block, assumed).
  "m2-tree-heuristic|arena|2|mattel2022||ismcts:300,heuristic|500|$(seq -s ' ' 15801 15816)|1"
  "m4-tree-heuristic|arena|4|mattel2022||ismcts:300,heuristic|200|$(seq -s ' ' 15821 15836)|1"
  "c3t-tree-heuristic|arena|3|classic1980|scoring=tokens|ismcts:300,heuristic|150|$(seq -s ' ' 15841 15936)|1"
  # Bot version 2 (issue 34): the heuristic's samples keyed from its view through version 2
  # of the seeded shuffle (docs/records.md), deals too. Fixed 2026-12-06 before any of them
  # ran, sized to about 30 CPU-minutes of a shared 2-core machine (intervals about +-2 %,
  # twice the rows above): the rows the medium level's edge over easy rests on.
  "m2-heuristic-greedy-b2|arena|2|mattel2022||heuristic,greedy|4000|16111 16112|2"
  "m4-heuristic-greedy-b2|arena|4|mattel2022||heuristic,greedy|2000|16211 16212|2"
  "c3t-low-b2|arena|3|classic1980|scoring=tokens|heuristic,greedy,random|3000|16301 16302|2"
  "c3p-low-b2|arena|3|classic1980|scoring=points|heuristic,greedy,random|3000|16401 16402|2"
)

if [[ "${1:-}" == list ]]; then
  for row in "${ROWS[@]}"; do
    IFS='|' read -r name kind players rules options bots games seeds version <<<"$row"
    for seed in $seeds; do
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$name" "$kind" "$players" "$rules" "$options" "$bots" "$games" "$seed" "$version"
    done
  done
  exit 0
fi

W="${1:-2}"
MATCH="${2:-.}"
OUT="${OUT:-benchmarks/results/parts}"
mkdir -p "$OUT"

command_for() {  # kind players rules options bots games seed -> the part's command
  local kind="$1" players="$2" rules="$3" options="$4" bots="$5" games="$6" seed="$7"
  local -a cmd opts=()
  local o
  IFS=',' read -r -a o <<<"$options"
  for kv in "${o[@]}"; do opts+=(--option "$kv"); done
  if [[ "$kind" == arena ]]; then
    cmd=(ono99 arena --bots "$bots" --players "$players" --rules "$rules" "${opts[@]}"
         --games "$games" --seed "$seed" --workers "$W" --json)
  else
    cmd=(python3 benchmarks/skill_ceiling.py --bound --players "$players" --rules "$rules"
         "${opts[@]}" --games "$games" --seed "$seed" --workers "$W" --json)
  fi
  echo "${cmd[*]}"  # no field holds a space or a shell character
}

round=0
while :; do
  any=0
  for row in "${ROWS[@]}"; do
    IFS='|' read -r name kind players rules options bots games seeds version <<<"$row"
    [[ "$name" =~ $MATCH ]] || continue
    [[ "$version" == "$BOTS" || -n "${GAMES:-}" ]] || continue  # a closed row
    read -r -a seedlist <<<"$seeds"
    (( round < ${#seedlist[@]} )) || continue
    (( round < ${PARTS:-${#seedlist[@]}} )) || continue
    any=1
    seed="${seedlist[$round]}"
    file="$OUT/$name-$seed.json"
    [[ -s "$file" ]] && continue
    cmd="$(command_for "$kind" "$players" "$rules" "$options" "$bots" "${GAMES:-$games}" "$seed")"
    echo "$(date -u +%H:%M:%S) $name part $((round + 1))/${#seedlist[@]}: $cmd" >&2
    eval "nice -n 19 $cmd" > "$file.tmp"
    mv "$file.tmp" "$file"
  done
  (( any )) || break
  round=$((round + 1))
done
