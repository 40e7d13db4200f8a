#!/bin/bash
# Hex 11 x 11: a fresh Gumbel AlphaZero run with 13 of the machine's 16 cores as self-play workers,
# then short arena checks on all cores; the run dir comes back as one tar.gz (without the replay
# buffer: with it, over the 16 MB a returned file may have).
# Run on a lent machine (one NVIDIA H100, 16 CPU cores) on 2026-11-26 from the repository root, with
# .whl/ holding the wheels of gymnasium, pettingzoo and Farama-Notifications (not on the machine),
# .gpu/connectn.py calling connectn_env.cli.main and .gpu/hex11_puct.pt the 18.6-minute PUCT network
# (runs/pretrained/hex11/best.pt of gpu_session3.sh): `bash .gpu/hex11_gumbel.sh`. That session's
# arenas had a 60-second guard, too short for 16 processes' first compiles, and its tar.gz kept
# the buffer (left out for size): the run dir and a 16-game arena against plain UCT 10,000 came
# back in two more calls on the same warm machine. The guards and the tar below are the fixed ones,
# and so is the core count in the summary (it printed 1: nproc reads OMP_NUM_THREADS).
set -u
export PYTHONPATH=/tmp/site:$PWD OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 MPLBACKEND=Agg
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $S
env -u OMP_NUM_THREADS nproc >> $S
python3 -c "import connectn_env.cli, torch, numba, numpy; print('torch', torch.__version__, 'numba', numba.__version__, 'numpy', numpy.__version__, 'cuda', torch.cuda.is_available())" >> $S 2>&1 || { cat $S; exit 4; }
C="python3 .gpu/connectn.py"
D=runs/gpu/hex11g
mkdir -p runs/gpu
start=$(date +%s)
timeout -s TERM ${GUARD:-420} $C train hex --size 11 --out $D --minutes ${MINUTES:-6.5} --workers ${WORKERS:-13} --channels 64 --blocks 5 --buffer-size 100000 --selection gumbel --simulations 64 --games-in-flight 256 --device ${DEVICE:-cuda} --no-progress --eval-minutes 0 > runs/gpu/hex11g.log 2>&1
echo "train rc=$? after $(( $(date +%s) - start )) s" >> $S
nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader >> $S
cp runs/gpu/hex11g.log $D/train.log
tail -2 $D/metrics.jsonl | cut -c1-400 >> $S
A="az:path=$D/best.pt,simulations=200"
arena() { timeout -s TERM ${AGUARD:-120} $C arena hex --size 11 --games ${GAMES:-32} --workers 16 --no-progress --json $OUT/arena_$1.json "$A" "$2" > $OUT/arena_$1.out 2>&1; echo "arena $1 rc=$? after $(( $(date +%s) - start )) s" >> $S; }
arena uct100 "mcts:simulations=100,preset=uct"
arena uct1000 "mcts:simulations=1000,preset=uct"
arena old "az:path=.gpu/hex11_puct.pt,simulations=200"
tar czf $OUT/hex11g.tar.gz --exclude=buffer.npz -C runs/gpu hex11g
ls -la $OUT >> $S
cat $S; grep -h "vs" $OUT/arena_*.out
