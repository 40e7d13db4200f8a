#!/bin/bash
# Connect Four time to strength with fewer training steps per self-play position: on the 2-core
# machine the learner's steps (8 positions trained per new one, the default) take about half the
# CPU a position costs, so --train-ratio 4 leaves more of it to self-play. 15-minute runs with the
# two cores for self-play and no evaluations during the run, each network then scored with 200
# games against plain UCT 2,000 (200 simulations per move), as runc4_workers.sh did with the
# default ratio. Usage: runc4_ratio.sh RATIO SEED... (one run after another, alone on the machine).
# Ran on 2026-11-27 at commit 2838cc0 as `runc4_ratio.sh 4 0 3`, then `runc4_ratio.sh 4 1 2`, then
# `runc4_ratio.sh 8 0` (the default ratio the same day, for the pairing); output in runc4_ratio.out.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
one() {
  local name=$1; shift
  echo "== $name $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  connectn train connect_four --out runs/tts/$name --minutes 15 --eval-minutes 0 --no-progress "$@" > runs/tts/$name.log 2>&1
  tail -2 runs/tts/$name.log | head -1
  python benchmarks/alphazero_strength.py runs/tts/$name --minutes 9999 --budgets 2000 --games 200 --simulations 200 --json runs/tts/${name}_2000.json | tail -1
  echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
}
ratio=$1; shift
for seed in "$@"; do
  one c4_r${ratio}_s$seed --workers 2 --seed $seed --train-ratio $ratio
done
