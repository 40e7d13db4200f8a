#!/bin/bash
# Connect Four time to strength with the machine's two cores for self-play: 15-minute runs without
# evaluations during the run (--eval-minutes 0), each network then scored with 200 games against plain
# UCT 2,000 (200 simulations per move). The first three runs were made one after another on the otherwise
# idle 2-core machine, each started by hand with the commands below (start time and load average noted);
# the fourth (a third seed with two workers) in a later session and the fifth (a fourth seed) in the
# session after it, each alone on the machine.
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
one c4_w2 --workers 2  # started 12:17, load 0.54
one c4_w1q --workers 1  # started 12:34, load 0.66
one c4_w2s1 --workers 2 --seed 1  # started 12:50, load 1.28
one c4_w2s2 --workers 2 --seed 2  # started 17:26, load 1.25
one c4_w2s3 --workers 2 --seed 3  # started 19:12, load 0.77
