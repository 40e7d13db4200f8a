#!/bin/bash
# The first two runs of runc4_average.sh (seeds 3, then 0), made before the option existed, with
# an uncommitted patch to the learner that kept three moving averages of the weights (decays
# CONNECTN_EMA) and saved each beside latest.pt as emaD.pt at every checkpoint; each average and
# the trained weights of the same run were then scored. `runc4_average_patch.sh 3 0`.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 CONNECTN_EMA=0.99,0.998,0.9995
one() {
  local name=$1; shift
  echo "== $name $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  connectn train connect_four --out runs/tts/$name --minutes 15 --eval-minutes 0 --no-progress "$@" > runs/tts/$name.log 2>&1
  tail -2 runs/tts/$name.log | head -1
  python benchmarks/alphazero_strength.py runs/tts/$name --minutes 9999 --budgets 2000 --games 200 --simulations 200 --json runs/tts/${name}_2000.json | tail -1
  for d in 0.99 0.998 0.9995; do
    rm -rf runs/tts/${name}_ema$d; mkdir -p runs/tts/${name}_ema$d
    cp runs/tts/$name/metrics.jsonl runs/tts/${name}_ema$d/
    cp runs/tts/$name/ema$d.pt runs/tts/${name}_ema$d/latest.pt
    echo -n "ema $d "; python benchmarks/alphazero_strength.py runs/tts/${name}_ema$d --minutes 9999 --budgets 2000 --games 200 --simulations 200 --json runs/tts/${name}_ema${d}_2000.json | tail -1
  done
  echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
}
for s in "$@"; do one ema_s$s --workers 2 --seed $s; done
