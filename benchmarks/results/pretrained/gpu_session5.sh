#!/bin/bash
# Hex 11 x 11: a run warm-started from the shipped network (--init pretrained: the 6.5-minute
# Gumbel network of gpu_session4.sh, whose run directory and buffer did not survive), with 14 of
# the machine's 16 cores as self-play workers, then a 32-game arena against plain UCT 1,000 on
# all cores (UCT's kernels compiled into numba's cache by a one-game arena beside the training).
# The run dir comes back as one tar.gz without the replay buffer (over the 16 MB a returned file
# may have). Run on a lent machine (one NVIDIA H100, 16 CPU cores) on 2026-11-26 from the
# repository root, with .whl/ holding the wheels of gymnasium, pettingzoo and
# Farama-Notifications (not on the machine) and .gpu/connectn.py calling connectn_env.cli.main:
# `GUARD=455 MINUTES=7.2 bash benchmarks/results/pretrained/gpu_session5.sh` (the second call: in
# the first, .gpu/connectn.py called main() without the `if __name__ == "__main__"` guard that
# spawned worker processes need, and the training stopped at once). The arena's result:
# hex_rows11_cols11_swapFalse/gpu_session5_arena_uct1000.out, the summary beside it.
set -u
export PYTHONPATH=/tmp/site:$PWD OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 MPLBACKEND=Agg
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $S
env -u OMP_NUM_THREADS nproc >> $S
python3 -c "import connectn_env.cli, torch, numba, numpy; print('torch', torch.__version__, 'numba', numba.__version__, 'numpy', numpy.__version__, 'cuda', torch.cuda.is_available())" >> $S 2>&1 || { cat $S; exit 4; }
C="python3 .gpu/connectn.py"
D=runs/gpu/hex11w
rm -rf $D; mkdir -p runs/gpu
start=$(date +%s)
$C arena hex --size 11 --games 1 --workers 1 --no-progress "mcts:simulations=20,preset=uct" random > $OUT/warmup.out 2>&1 &
timeout -s TERM ${GUARD:-470} $C train hex --size 11 --out $D --init pretrained --minutes ${MINUTES:-7.5} --workers ${WORKERS:-14} --channels 64 --blocks 5 --buffer-size 100000 --selection gumbel --simulations 64 --games-in-flight 256 --device cuda --no-progress --eval-minutes 0 > runs/gpu/hex11w.log 2>&1
echo "train rc=$? after $(( $(date +%s) - start )) s" >> $S
wait
cp runs/gpu/hex11w.log $D/train.log
tail -1 $D/metrics.jsonl | cut -c1-400 >> $S
tar czf $OUT/hex11w.tar.gz --exclude=buffer.npz -C runs/gpu hex11w
timeout -s TERM ${AGUARD:-90} $C arena hex --size 11 --games ${GAMES:-32} --workers 16 --no-progress --json $OUT/arena_uct1000.json "az:path=$D/best.pt,simulations=200" "mcts:simulations=1000,preset=uct" > $OUT/arena_uct1000.out 2>&1
echo "arena uct1000 rc=$? after $(( $(date +%s) - start )) s" >> $S
ls -la $OUT >> $S
cat $S; tail -3 $OUT/arena_uct1000.out
