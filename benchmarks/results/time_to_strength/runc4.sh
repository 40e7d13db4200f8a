#!/bin/bash
# Time-to-strength on Connect Four: a 30-minute Gumbel run, its networks at 5/10/15/30 minutes
# scored with 200 games (200 simulations) against plain UCT 2000.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "== c4_gumbel64 $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
connectn train connect_four --out runs/tts/c4_gumbel64 --minutes 30 --eval-minutes 5 --eval-budgets 2000 --selection gumbel --simulations 64 --no-progress > runs/tts/c4_gumbel64.log 2>&1
tail -3 runs/tts/c4_gumbel64.log
echo "== strength $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
python benchmarks/alphazero_strength.py runs/tts/c4_gumbel64 --minutes 5 10 15 30 --budgets 2000 --games 200 --simulations 200 --json runs/tts/c4_gumbel64.json
echo "done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
