#!/usr/bin/env bash
# Engine vs PyTorch, interleaved, medians and our/their ratio.
#   bash bench/run.sh            # full run (a few minutes)
#   bash bench/run.sh --quick
# Installs Debian's python3-torch and libopenblas0 (so torch does not use the
# reference BLAS) if missing. Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
for p in python3-torch libopenblas0; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || \
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null; }
done
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bench_engine >/dev/null
echo "BLAS loaded by torch: $(/usr/bin/python3 - <<'PY'
import torch, re
maps = open('/proc/self/maps').read()
libs = sorted(set(re.findall(r'/\S*(?:blas|lapack)\S*\.so\S*', maps)))
print(', '.join(libs) or 'none found')
PY
)"
ours=(); theirs=()
# Each workload in its own process, ours and theirs interleaved.
for round in 1 2 3; do
  for w in chain mlp; do
    ours+=("$(./build/bench_engine "$@" "$w")")
    theirs+=("$(/usr/bin/python3 bench/torch_bench.py "$@" "$w")")
  done
done
python3 - "${ours[@]}" --- "${theirs[@]}" <<'PY'
import json, statistics, sys
args = sys.argv[1:]
cut = args.index('---')
def parse(blobs):
    out = {}
    for blob in blobs:
        for line in blob.splitlines():
            d = json.loads(line)
            if d['bench'] == 'info':
                continue
            key = (d['bench'], d.get('n'))
            out.setdefault(key, []).append(d)
    return out
ours, theirs = parse(args[:cut]), parse(args[cut + 1:])
print(f"{'workload':<28}{'tapescope':>14}{'pytorch':>14}{'ours/theirs':>14}")
for key in sorted(ours):
    for field in ('forward_ns_per_op', 'backward_ns_per_op', 'ms_per_step', 'mean_ms_per_step'):
        if field not in ours[key][0]:
            continue
        a = statistics.median(d[field] for d in ours[key])
        b = statistics.median(d[field] for d in theirs[key])
        name = f"{key[0]}{'' if key[1] is None else ' N=' + str(key[1])} {field}"
        print(f"{name:<40}{a:>10.2f}{b:>14.2f}{a / b:>12.3f}")
PY
