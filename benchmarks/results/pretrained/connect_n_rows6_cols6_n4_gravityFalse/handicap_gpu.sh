#!/bin/bash
# 6 x 6 four in a row with handicap games at GPU scale: two Gumbel runs side by side, 7 self-play
# workers each, 64 x 4 network, 7 minutes; each run dir came back as a tar.gz without its buffer
# and was scored here (`alphazero_strength.py RUN --minutes 9999 --budgets 10000 --games 200
# --simulations 200`: gpu_handicap_a.json, gpu_handicap_b.json; the machine's summary in
# handicap_gpu.out). Run on a lent machine (one NVIDIA H200, 16 CPU cores) on 2026-11-26 from the
# repository root as `MINUTES=7 GUARD=470 HB=0.5 FB=10 bash .gpu/c6_handicap.sh` (this file less
# these comments), with .whl/ holding the wheels of gymnasium, pettingzoo and Farama-Notifications
# (not on the machine) and .gpu/connectn.py calling connectn_env.cli.main. Run a:
# --handicap-fraction 0.25 (fast searches of 64 // 6 = 10 simulations); run b:
# --handicap-fraction 0.5 --fast-simulations 10. The option existed at commit 7dedd93 only.
set -u
export PYTHONPATH=/tmp/site:$PWD OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 MPLBACKEND=Agg
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
S=$OUT/summary.txt
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > $S
env -u OMP_NUM_THREADS nproc >> $S
python3 -c "import connectn_env.cli, torch, numba, numpy; print('torch', torch.__version__, 'numba', numba.__version__, 'numpy', numpy.__version__, 'cuda', torch.cuda.is_available())" >> $S 2>&1 || { cat $S; exit 4; }
C="python3 .gpu/connectn.py"
G="connect_n --rows 6 --cols 6 --n 4 --no-gravity"
mkdir -p runs/gpu
start=$(date +%s)
run() {
  local name=$1; shift
  timeout -s TERM ${GUARD:-420} $C train $G --out runs/gpu/$name --minutes ${MINUTES:-6} --workers 7 --channels 64 --blocks 4 --selection gumbel --simulations 64 --games-in-flight 256 --buffer-size 100000 --device cuda --no-progress --eval-minutes 0 "$@" > runs/gpu/$name.log 2>&1
  echo "$name rc=$? after $(( $(date +%s) - start )) s" >> $S
  cp runs/gpu/$name.log runs/gpu/$name/train.log
}
run c6h_a --handicap-fraction ${HA:-0.25} ${FA:-} &
run c6h_b --handicap-fraction ${HB:-0.5} --fast-simulations ${FB:-2} &
wait
nvidia-smi --query-gpu=memory.used,utilization.gpu --format=csv,noheader >> $S
for name in c6h_a c6h_b; do
  tail -1 runs/gpu/$name/metrics.jsonl | cut -c1-300 >> $S
  tar czf $OUT/$name.tar.gz --exclude=buffer.npz -C runs/gpu $name
done
ls -la $OUT >> $S
cat $S
