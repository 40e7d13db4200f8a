#!/bin/bash
# Connect Four with randomised openings (2026-11-26, this project's 2-core machine, CPU only,
# nothing else running): 70 minutes of Gumbel AlphaZero self-play with two workers, each game
# starting after 0 to 12 uniformly random moves; evaluated every 15 minutes (checkpoints kept).
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
connectn train connect_four --out runs/pretrained/c4_open --minutes 70 --workers 2 \
  --opening-moves 12 --eval-minutes 15 --eval-budgets 2000 --no-progress
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
