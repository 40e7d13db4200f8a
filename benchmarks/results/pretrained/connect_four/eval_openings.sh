#!/bin/bash
# Scores the randomised-openings Connect Four run (run_openings.sh) once it has ended, on the
# otherwise idle machine (simulation budgets, so the figures do not depend on the load):
# move quality (200 simulations per move) of each evaluated network on the 200 critical
# positions shipped with the yardstick and on 300 more (seed 1, made here), with the shipped
# network (c4_gumbel64) and the 15-minute runs without openings beside it, then 200 games
# (200 simulations per move, colours alternating) against plain UCT 10,000 at the end and
# against plain UCT 2,000 at 15, 30, 45 and 70 minutes, all three side by side.
cd /work/main && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
run=runs/pretrained/c4_open
out=benchmarks/results/pretrained/connect_four
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
[ -f $out/positions_seed1.json ] || python benchmarks/connect4_move_quality.py --positions 300 \
  --seed 1 --save $out/positions_seed1.json > /dev/null
python - runs/tts/c4_gumbel64/best.pt runs/tts/c4_w2/best.pt runs/tts/c4_w2s1/best.pt $run/checkpoints/*.pt > $out/openings_positions.out <<'PY' &
import sys
from connectn_env.ladder import move_quality
for net in sys.argv[1:]:
    for name, positions in (("shipped", None), ("seed 1", "benchmarks/results/pretrained/connect_four/positions_seed1.json")):
        result = move_quality(f"az:path={net},simulations=200", positions)
        print(f"{net} {name}: kept {result.kept}/{result.positions} {result.kept_share:.3f} best {result.best_share:.3f}", flush=True)
PY
python benchmarks/alphazero_strength.py $run --minutes 9999 --budgets 10000 --simulations 200 \
  --games 200 --json $out/openings_10000.json > $out/openings_10000.out &
python benchmarks/alphazero_strength.py $run --minutes 15 30 45 70 --budgets 2000 --simulations 200 \
  --games 200 --json $out/openings_2000.json > $out/openings_2000.out
wait
cat $out/openings_positions.out $out/openings_10000.out $out/openings_2000.out
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
