#!/bin/bash
# Ran at commit 412d9ad: the next commit removed --weight-average (no reliable gain).
# Connect Four time to strength with a moving average of the weights (--weight-average 0.9995):
# 15-minute runs with the machine's two cores for self-play, as runc4_workers.sh, each run's
# network (the average: alphazero_strength.py plays it) then scored with 200 games against
# plain UCT 2,000 (200 simulations per move). Seeds 0 and 3 ran first with an uncommitted patch
# that kept three averages beside the trained weights (decays 0.99, 0.998 and 0.9995), all
# scored, so that each average is compared with the trained weights of the same run
# (runc4_average.out has them); seeds 1 and 2 then ran with the option as committed. All in one
# session on the otherwise idle 2-core machine, one after another; score_trained_weights.sh then
# scored the trained weights of seeds 1 and 2. Averages against trained weights, by seed (3, 0,
# 1, 2): 0.920/0.885, 0.920/0.860, 0.728/0.800, 0.877/0.825; 0.861 against 0.843 over 800 games.
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
for seed in ${*:-1 2}; do one c4_wa_s$seed --workers 2 --weight-average 0.9995 --seed $seed; done
