#!/bin/bash
# Hex 11 x 11, the warm-started network (gpu_session5.sh): 20 games against plain UCT 100 and
# 1,000 in one process and against 10,000 in another, side by side on the 2-core machine.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
python benchmarks/alphazero_strength.py runs/gpu/hex11w --minutes 9999 --budgets 100 1000 --simulations 200 --games 20 --json runs/gpu/hex11w_low.json > runs/gpu/hex11w_low.out 2>&1 &
python benchmarks/alphazero_strength.py runs/gpu/hex11w --minutes 9999 --budgets 10000 --simulations 200 --games 20 --json runs/gpu/hex11w_10k.json > runs/gpu/hex11w_10k.out 2>&1
wait
cat runs/gpu/hex11w_low.out runs/gpu/hex11w_10k.out
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
python benchmarks/alphazero_strength.py runs/gpu/hex11w --minutes 9999 --budgets 10000 --simulations 200 --games 40 --seed 1 --json runs/gpu/hex11w_10k_s1.json  # run afterwards
