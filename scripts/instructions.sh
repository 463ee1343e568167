#!/usr/bin/env bash
# Counts the instructions a benchmark spends in the simulation itself:
# the functions of websim/engine (engine/stats and engine/dist included)
# and math/rand, under valgrind's cachegrind. Unlike CPU time, the count
# is the same from run to run whatever else the machine is doing (the Go
# runtime's own share varies, so it is left out, and the garbage
# collector is off, whose write barriers would add to the engine's
# functions while it marks), which makes it the
# figure to compare two versions of the engine by.
#
#   scripts/instructions.sh ./engine BenchmarkMMc
#   scripts/instructions.sh ./study BenchmarkASUMParallel
#
# Needs valgrind (Debian: apt-get install valgrind). Each benchmark runs
# once (-test.benchtime 1x), about 50 times slower than without valgrind.
# With CG_OUT=FILE, cachegrind's output is kept there, for the listing
# per function: cg_annotate --auto=no --threshold=0 FILE. The benchmark is
# built with cmd/websim/default.pgo, as the websim binary is (PGO=off: without).
# GODEBUG=cpu.rdtscp=off keeps Go's runtime from the RDTSCP instruction,
# which valgrind 3.19 (Debian's) cannot run: on a processor that has it
# (AMD EPYC, say) the benchmark would die of SIGILL. The count is the same.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 PACKAGE BENCHMARK   (e.g. $0 ./engine BenchmarkMMc)" >&2
  exit 2
fi
pkg=$1 bench=$2
for tool in valgrind cg_annotate; do
  if ! command -v "$tool" >/dev/null; then
    echo "$0: $tool not found; install valgrind (Debian: apt-get install valgrind)" >&2
    exit 2
  fi
done
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The engine as the websim binary has it: built with the profile of
# scripts/pgo.sh (PGO=off counts the build without it).
pgo=off
if [ "${PGO:-on}" != off ] && [ -f cmd/websim/default.pgo ]; then
  pgo=$PWD/cmd/websim/default.pgo
fi
go test -c -pgo="$pgo" -o "$tmp/bench.test" "$pkg"
(cd "$pkg" && GOGC=off GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/cg.out" \
  "$tmp/bench.test" -test.run '^$' -test.bench "^$bench\$" -test.benchtime 1x >/dev/null 2>"$tmp/valgrind.log") || {
  cat "$tmp/valgrind.log" >&2
  exit 1
}
if [ -n "${CG_OUT:-}" ]; then cp "$tmp/cg.out" "$CG_OUT"; fi
cg_annotate --auto=no --threshold=0 "$tmp/cg.out" |
  awk '/^ *[0-9,]+ +\(/ && /websim\/engine|math\/rand/ { gsub(",", "", $1); sum += $1 }
       END { printf "%s %s: %.0f instructions in websim/engine and math/rand\n", pkg, bench, sum }' pkg="$pkg" bench="$bench"
