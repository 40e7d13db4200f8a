#!/bin/bash
# 6 x 6 four in a row: does the network defend better moving second against plain UCT 10,000?
# Two 5-minute runs with randomised openings (the shipped network's command plus --opening-moves),
# each scored with 200 games against plain UCT 10,000 (200 simulations) and 4,000 (400), then
# the shipped network with a wider and a narrower search (c, PUCT's constant; 1.5 by default).
# Run on this project's shared 2-core machine, 2026-11-26, other jobs paused during the runs.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
G="connect_n --rows 6 --cols 6 --n 4 --no-gravity"
one() {
  local name=$1; shift
  echo "== $name $* $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  connectn train $G --out runs/c6d/$name --minutes 5 --eval-minutes 5 --eval-budgets 4000 --selection gumbel --simulations 64 --no-progress "$@" > runs/c6d/$name.log 2>&1
  tail -2 runs/c6d/$name.log | cut -c1-200
  python benchmarks/alphazero_strength.py runs/c6d/$name --minutes 9999 --budgets 10000 --games 200 --simulations 200 --json runs/c6d/$name.json | tail -1
  python benchmarks/alphazero_strength.py runs/c6d/$name --minutes 9999 --budgets 4000 --games 200 --simulations 400 --json runs/c6d/${name}_4000.json | tail -1
}
one open8 --opening-moves 8
one open4 --opening-moves 4
echo "done $(date +%T)"
for c in 3.0 0.75; do
  connectn arena $G --games 200 --workers 2 --no-progress "az:pretrained,simulations=200,c=$c" "mcts:simulations=10000,preset=uct" 2>&1 | grep -E " vs |moves first"
done
