#!/bin/bash
# Strength of the candidate networks to ship: 200 simulations per move against plain UCT 10,000.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
until grep -q "^done" runs/tts/runc4.out; do sleep 20; done
ev() {
  local name=$1 run=$2 games=$3
  echo "== $name $run $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  python benchmarks/alphazero_strength.py $run --minutes 9999 --budgets 10000 --games $games --simulations 200 --json runs/tts/eval_$name.json
}
ev c4_pretrained runs/pretrained/connect_four 200
ev c4_gumbel64 runs/tts/c4_gumbel64 200
ev c6_gpu runs/pretrained/connect_n6x6 200
ev c6_gumbel64 runs/tts/c6_gumbel64 200
ev hex7_gpu runs/pretrained/hex7 200
ev othello_gpu runs/pretrained/othello 100
ev hex11_gpu runs/pretrained/hex11 100
ev gomoku_gpu runs/pretrained/gomoku 100
echo "done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
