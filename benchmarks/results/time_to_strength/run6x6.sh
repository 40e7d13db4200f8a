#!/bin/bash
# Time-to-strength on 6x6 four in a row: 5-minute runs, scored with 200 games against plain UCT 4000.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
G="connect_n --rows 6 --cols 6 --n 4 --no-gravity"
one() {
  local name=$1; shift
  echo "== $name $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  connectn train $G --out runs/tts/$name --minutes 5 --eval-minutes 5 --eval-budgets 4000 --no-progress "$@" > runs/tts/$name.log 2>&1
  tail -3 runs/tts/$name.log
  python benchmarks/alphazero_strength.py runs/tts/$name --minutes 5 --budgets 4000 --games 200 --simulations 400 --json runs/tts/$name.json
}
one c6_gumbel64 --selection gumbel --simulations 64
one c6_puct200
one c6_gumbel32 --selection gumbel --simulations 32
one c6_pcr --full-search-fraction 0.25 --fast-simulations 32
echo "done $(date +%T)"
