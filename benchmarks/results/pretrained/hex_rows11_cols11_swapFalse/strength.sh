#!/bin/bash
# Hex 11 x 11, gpu_session6.sh's networks (the shipped one trained on for 7.5 GPU minutes, then
# resumed to 11.5) on the 2-core machine, alone on it (2026-11-27): 200 games each against plain
# UCT 10,000 (two processes side by side, 100 games each with seeds 0 and 1 for the 11.5-minute
# network; 60 with seed 0, then 70 each with seeds 1 and 2 for the 7.5-minute one), and 20
# games each against 100 and 1,000. runs/gpu/s6a/hex11x and s6b/hex11x are the two tar.gz that
# gpu_session6.sh's calls returned, unpacked.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
S="python benchmarks/alphazero_strength.py"
N="--minutes 9999 --simulations 200"
for s in 0 1; do $S runs/gpu/s6b/hex11x $N --budgets 10000 --games 100 --seed $s --json runs/gpu/s6b_10k_s$s.json > runs/gpu/s6b_10k_s$s.out 2>&1 & done; wait
$S runs/gpu/s6a/hex11x $N --budgets 10000 --games 60 --json runs/gpu/s6a_10k.json > runs/gpu/s6a_10k.out 2>&1 &
$S runs/gpu/s6b/hex11x $N --budgets 100 1000 --games 20 --json runs/gpu/s6b_low.json > runs/gpu/s6b_low.out 2>&1; wait
for s in 1 2; do $S runs/gpu/s6a/hex11x $N --budgets 10000 --games 70 --seed $s --json runs/gpu/s6a_10k_s$s.json > runs/gpu/s6a_10k_s$s.out 2>&1 & done; wait
