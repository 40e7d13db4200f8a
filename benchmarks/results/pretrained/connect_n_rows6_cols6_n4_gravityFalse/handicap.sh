#!/bin/bash
# 6 x 6 four in a row: handicap games (--handicap-fraction: in that share of self-play games one
# seat, drawn at random, makes every move with a fast search), so the second player of a won game
# meets mistakes and learns which defences hold. The shipped network's command (5 minutes,
# Gumbel 64) plus the option; each run scored with 200 games against plain UCT 10,000 (network
# 200 simulations) and 4,000 (400). This project's shared 2-core machine, 2026-11-26, nothing
# else running. The option existed at commit 7dedd93 only (removed after: no gain, see
# handicap.out and the 6 x 6 model card); run this script there:
# `./handicap.sh "h25 --handicap-fraction 0.25" "h50f2 --handicap-fraction 0.5 --fast-simulations 2"`
# then `"h50 --handicap-fraction 0.5" "h25s1 --handicap-fraction 0.25 --seed 1"`.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
G="connect_n --rows 6 --cols 6 --n 4 --no-gravity"
mkdir -p runs/c6h
one() {
  local name=$1; shift
  echo "== $name $* $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf runs/c6h/$name
  connectn train $G --out runs/c6h/$name --minutes 5 --eval-minutes 5 --eval-budgets 4000 --selection gumbel --simulations 64 --no-progress "$@" > runs/c6h/$name.log 2>&1
  tail -2 runs/c6h/$name.log | cut -c1-200
  python benchmarks/alphazero_strength.py runs/c6h/$name --minutes 9999 --budgets 10000 --games 200 --simulations 200 --json runs/c6h/$name.json | tail -1
  python benchmarks/alphazero_strength.py runs/c6h/$name --minutes 9999 --budgets 4000 --games 200 --simulations 400 --json runs/c6h/${name}_4000.json | tail -1
}
for variant in "$@"; do
  # shellcheck disable=SC2086
  one $variant
done
echo "done $(date +%T)"
