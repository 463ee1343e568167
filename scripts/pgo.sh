#!/usr/bin/env bash
# Writes cmd/websim/default.pgo, the CPU profile from which go build,
# go run and go install optimize websim (profile-guided optimization: hot
# calls are inlined past the usual budget, hot interface calls such as a
# distribution's Sample are devirtualized). The profile is of the work
# websim spends its time on: the engine on the M/M/20 benchmark and the
# full asum study (10 scenarios x 10 loads). Rerun it after a change to
# the engine's hot functions: the profile finds a call by its line within
# its function, so an edit above a hot call loses its inlining. A stale
# profile still builds and runs correctly, only less fast.
#
#   scripts/pgo.sh
#
# Takes about a minute of CPU on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -run '^$' -bench 'BenchmarkMMc$' -benchtime 30x -cpuprofile "$tmp/mmc.prof" -o "$tmp/engine.test" ./engine >/dev/null
go test -run '^$' -bench 'BenchmarkASUMStudy$' -benchtime 1x -cpuprofile "$tmp/asum.prof" -o "$tmp/study.test" ./study >/dev/null
go tool pprof -proto "$tmp/mmc.prof" "$tmp/asum.prof" >"$tmp/default.pgo"
mv "$tmp/default.pgo" cmd/websim/default.pgo
echo "wrote cmd/websim/default.pgo"
