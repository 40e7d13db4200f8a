#!/bin/bash
# Hex 11 x 11: the shipped network (gpu_session5.sh's, 13.7 GPU minutes) trained on
# (--init pretrained) with 14 of the machine's 16 cores as self-play workers and the same training
# options as gpu_session4.sh and gpu_session5.sh: 7.5 minutes, then resumed on the same warm
# machine to 11.5 (--resume; --minutes is the whole run's budget). Each call's run dir comes back
# as one tar.gz without the replay buffer (over the 16 MB a returned file may have); the strength
# is measured afterwards on the 2-core machine (hex_rows11_cols11_swapFalse/strength.sh).
# Run on a lent machine (one NVIDIA H100, 16 CPU cores) on 2026-11-27 from the repository root,
# with .whl/ holding the wheels of gymnasium, pettingzoo and Farama-Notifications (not on the
# machine) and .gpu/connectn.py calling connectn_env.cli.main under `if __name__ == "__main__"`:
# `bash benchmarks/results/pretrained/gpu_session6.sh`, then `RESUME=11.5 GUARD=290 bash ...`
# (that call ran the same train command as one line, without the set-up lines; a first try of
# it did not carry .gpu/ to the machine and stopped at once).
set -u
export PYTHONPATH=/tmp/site:$PWD OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 MPLBACKEND=Agg
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $S
env -u OMP_NUM_THREADS nproc >> $S
python3 -c "import connectn_env.cli, torch, numba, numpy; print('torch', torch.__version__, 'numba', numba.__version__, 'numpy', numpy.__version__, 'cuda', torch.cuda.is_available())" >> $S 2>&1 || { cat $S; exit 4; }
C="python3 .gpu/connectn.py"
D=runs/gpu/hex11x
if [ -n "${RESUME:-}" ]; then START="--resume --minutes $RESUME"; else rm -rf $D; START="--init pretrained --minutes 7.5"; fi
mkdir -p runs/gpu
start=$(date +%s)
timeout -s TERM ${GUARD:-490} $C train hex --size 11 --out $D $START --workers ${WORKERS:-14} --channels 64 --blocks 5 --buffer-size 100000 --selection gumbel --simulations 64 --games-in-flight 256 --device cuda --no-progress --eval-minutes 0 > runs/gpu/hex11x.log 2>&1
echo "train rc=$? after $(( $(date +%s) - start )) s" >> $S
cp runs/gpu/hex11x.log $D/train${RESUME:+_resume}.log
tail -1 $D/metrics.jsonl | cut -c1-400 >> $S
tar czf $OUT/hex11x.tar.gz --exclude=buffer.npz -C runs/gpu hex11x
ls -la $OUT >> $S
cat $S; tail -5 runs/gpu/hex11x.log
