#!/bin/bash
# 6 x 6 four in a row, 5-minute runs with other settings than run6x6.sh's, no evaluations during
# the run; each network then scored with 200 games against plain UCT 4,000 (400 simulations per
# move, the time-to-strength goal) and 200 against plain UCT 10,000 (200 simulations, the
# pretrained network's goal). Usage: run6x6_more.sh NAME SEED [TRAIN ARGS...] (one run after
# another, alone on the machine; output in run6x6_more.out, results in c6_value_targets.json).
# Ran on 2026-11-27 with the code of commit efb16d8: --value-discount and --value-search-weight
# existed there only (dropped for no gain). The first run (--workers 2 --train-ratio 4) ran an
# earlier version of this script that scored against 4,000 only.
cd "$(dirname "$0")/../../.." && . /work/main/.venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
name=$1 seed=$2; shift 2
echo "== $name seed $seed: $* $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
connectn train connect_n --rows 6 --cols 6 --n 4 --no-gravity --out runs/tts/$name --minutes 5 \
  --eval-minutes 0 --no-progress --seed "$seed" "$@" > runs/tts/$name.log 2>&1
tail -2 runs/tts/$name.log | head -1
python benchmarks/alphazero_strength.py runs/tts/$name --minutes 9999 --budgets 4000 --games 200 \
  --simulations 400 --json runs/tts/${name}_4000.json | tail -1
python benchmarks/alphazero_strength.py runs/tts/$name --minutes 9999 --budgets 10000 --games 200 \
  --simulations 200 --json runs/tts/${name}_10000.json | tail -1
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
