#!/bin/sh
# Builds the Render stage with the benchmark's main.swift (no package target) and runs it.
# Usage: Benchmarks/graph/run.sh   (RUNS=n to change the number of alternating runs)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/chainplan-graph-bench
swiftc -O -module-name GraphBench -I "$root/Sources/CGraphviz" \
    "$root"/Sources/ChainPlanKit/Render/*.swift "$root/Benchmarks/graph/main.swift" \
    $(pkg-config --libs libgvc) -o "$out"
exec "$out"
