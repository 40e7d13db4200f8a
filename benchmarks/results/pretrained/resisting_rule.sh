#!/bin/bash
# Scores every shipped network again after PUCT's move rule changed (it now plays the slowest
# proven loss rather than an open move searched less than that loss): the model cards'
# commands, with the shipped network as the run's latest.pt beside the run's metrics, the same
# seeds and game counts. Run from the repository root on an otherwise idle machine, two jobs
# side by side; output in resisting_rule.out. To score with the commit before the change,
# run this script from a worktree of it with PYTHONPATH set to that worktree.
cd "$(dirname "$0")/../../.." && . .venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
runs=${RUNS:-/tmp/evalruns}
for game in connect_n_rows6_cols6_n4_gravityFalse connect_four hex_rows7_cols7_swapFalse \
    othello_size8 gomoku_rows15_cols15_rulefreestyle hex_rows11_cols11_swapFalse; do
  mkdir -p $runs/$game
  cp agents/alphazero/networks/$game.pt $runs/$game/latest.pt
  cp benchmarks/results/pretrained/$game/metrics.jsonl $runs/$game/
done
score() {  # RUN_DIR then alphazero_strength.py's options
  python benchmarks/alphazero_strength.py "$runs/$1" --minutes 9999 "${@:2}"
}
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
{
  score connect_n_rows6_cols6_n4_gravityFalse --budgets 4000 --simulations 400 --games 200
  score connect_n_rows6_cols6_n4_gravityFalse --budgets 10000 --simulations 200 --games 200
  score connect_four --budgets 2000 10000 --simulations 200 --games 200
  score othello_size8 --budgets 10000 --simulations 200 --games 200
  score hex_rows11_cols11_swapFalse --budgets 10000 --simulations 200 --games 100 --seed 0
} > /tmp/resisting_a.out &
{
  score hex_rows7_cols7_swapFalse --budgets 10000 --simulations 200 --games 200
  score gomoku_rows15_cols15_rulefreestyle --budgets 10000 --simulations 200 --games 100
  score hex_rows11_cols11_swapFalse --budgets 10000 --simulations 200 --games 100 --seed 1
  python - <<'PY'
from connectn_env.ladder import move_quality
for name, positions in (("shipped", None), ("seed 1", "benchmarks/results/pretrained/connect_four/positions_seed1.json")):
    result = move_quality("az:pretrained,simulations=200", positions)
    print(f"Connect Four positions, {name}: kept {result.kept}/{result.positions} {result.kept_share:.3f} best {result.best_share:.3f}")
PY
} > /tmp/resisting_b.out
wait
cat /tmp/resisting_a.out /tmp/resisting_b.out
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
