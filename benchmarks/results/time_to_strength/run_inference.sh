#!/bin/bash
# Self-play with the network compiled (--inference compile) against eager, in 5-minute runs
# with no evaluations, one after another alone on the machine: 6 x 6 four in a row (each network
# then scored by run6x6_more.sh's opponents) and Connect Four (positions only). Usage:
# run_inference.sh c6 c4 (either or both; output in run_inference.out). Ran on 2026-11-27 with
# the tree of the commit that added --inference.
cd "$(dirname "$0")/../../.." && . /work/main/.venv/bin/activate
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 PYTHONPATH=$PWD
S=benchmarks/results/time_to_strength/run6x6_more.sh
if [[ " $* " == *" c6 "* ]]; then
  $S c6_compile_s0 0 --inference compile
  $S c6_eager_s0 0
fi
[[ " $* " == *" c4 "* ]] || exit 0
for mode in compile eager; do
  echo "== c4_$mode $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  connectn train connect_four --out runs/tts/c4_$mode --minutes 5 --eval-minutes 0 --no-progress \
    --inference $mode > runs/tts/c4_$mode.log 2>&1
  grep -h "torch.compile in" runs/tts/c4_$mode.log
  tail -2 runs/tts/c4_$mode.log | head -1
done
echo "end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
