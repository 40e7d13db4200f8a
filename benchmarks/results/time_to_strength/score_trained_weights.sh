#!/bin/bash
# Ran at commit 412d9ad: the next commit removed --weight-average (no reliable gain).
# The trained weights of runs made with --weight-average, scored as their averages were (the
# pairing the runs' own scripts name), for a paired comparison: each run's metrics and
# latest.pt without its average go to RUN_raw/, which alphazero_strength.py then plays.
# Usage: score_trained_weights.sh BUDGET SIMULATIONS RUN_DIR...
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
budget=$1 simulations=$2; shift 2
for run in "$@"; do
  rm -rf ${run}_raw; mkdir -p ${run}_raw; cp $run/metrics.jsonl ${run}_raw/
  python -c "
import dataclasses, sys
from agents.alphazero.checkpoint import load_checkpoint, save_checkpoint
latest = load_checkpoint(sys.argv[1] + '/latest.pt')
save_checkpoint(sys.argv[1] + '_raw/latest.pt', dataclasses.replace(latest, average=None))
" $run
  echo -n "$run trained weights: "
  python benchmarks/alphazero_strength.py ${run}_raw --minutes 9999 --budgets $budget --games 200 --simulations $simulations --json ${run}_raw_$budget.json | tail -1
done
