#!/bin/bash
# Resume four GPU runs side by side for about 8 more minutes; each run dir comes back as one tar.gz.
# Run on a lent machine (one NVIDIA H100, 16 CPU cores) on 2026-11-26 from the repository root, with
# .whl/ holding the wheels of gymnasium, pettingzoo and Farama-Notifications (not on the machine),
# .gpu/connectn.py calling connectn_env.cli.main, and .gpu/in/ the four run directories (tar.gz).
# First call: `bash .gpu/train_more.sh` (to 15 minutes of training); second call, on the same
# warm machine, without the unpacking line: `MINUTES=18.6 GUARD=245 bash .gpu/train_more.sh`.
set -u
export PYTHONPATH=/tmp/site:$PWD OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 MPLBACKEND=Agg
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $OUT/summary.txt
nproc >> $OUT/summary.txt
python3 -c "import connectn_env.cli, torch, numba, numpy; print('torch', torch.__version__, 'numba', numba.__version__, 'numpy', numpy.__version__, 'cuda', torch.cuda.is_available())" >> $OUT/summary.txt 2>&1 || { cat $OUT/summary.txt; exit 4; }
mkdir -p runs/pretrained
for n in hex7 connect_n6x6 othello hex11; do tar xzf .gpu/in/$n.tar.gz -C runs/pretrained; done
GUARD=${GUARD:-540}
M=${MINUTES:-15}
C="python3 .gpu/connectn.py train"
COMMON="--device cuda --no-progress --eval-minutes 0 --resume"
start=$(date +%s)
run() { local name=$1; shift; timeout -s TERM $GUARD $C "$@" --out runs/pretrained/$name --minutes $M $COMMON > runs/pretrained/$name.gpu3.log 2>&1; echo "$name rc=$? after $(( $(date +%s) - start )) s" >> $OUT/summary.txt; }
run hex7 hex --size 7 --workers 4 &
run connect_n6x6 connect_n --rows 6 --cols 6 --n 4 --no-gravity --workers 3 &
run othello othello --workers 3 &
run hex11 hex --size 11 --workers 2 &
wait
for n in hex7 connect_n6x6 othello hex11; do
  cp runs/pretrained/$n.gpu3.log runs/pretrained/$n/train_gpu3.log
  tar czf $OUT/$n.tar.gz -C runs/pretrained $n &
done
wait
for n in hex7 connect_n6x6 othello hex11; do echo "== $n"; tail -4 runs/pretrained/$n.gpu3.log; tail -1 runs/pretrained/$n/metrics.jsonl | cut -c1-200; done >> $OUT/summary.txt
ls -la $OUT >> $OUT/summary.txt
cat $OUT/summary.txt
