#!/usr/bin/env bash
# paired.sh: compare the CPU time of two commands, run in turn (A B A B
# ...) so that both see the same drift of a shared machine. Prints each
# pair's CPU (user + system, in seconds, to the millisecond), then the
# median of A, of B, and of the ratios A/B, the figure the README quotes.
#
#   scripts/paired.sh N 'COMMAND A' 'COMMAND B'
#   scripts/paired.sh 15 '/tmp/websim run /tmp/m --observations 1000000 --loads rho0.8 --quiet' \
#                        '/tmp/mmc-minimal -n 1000000'
#
# Each command is a line of shell, run with its output thrown away; a
# command that fails stops the comparison (exit 1).
set -euo pipefail
if [ $# -ne 3 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 N 'COMMAND A' 'COMMAND B'   (N pairs, N at least 1)" >&2
  exit 2
fi
n=$1 a=$2 b=$3
TIMEFORMAT='%3U %3S'
cpu() { # the CPU seconds of one run of the command line $1
  local t
  if ! t=$( { time eval "$1" >/dev/null 2>&1; } 2>&1 ); then
    echo "$0: failed: $1" >&2
    exit 1
  fi
  awk '{printf "%.3f", $1 + $2}' <<<"$t"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
pairs=$(mktemp)
trap 'rm -f "$pairs"' EXIT
echo "pair  A (s)  B (s)  A/B"
for i in $(seq "$n"); do
  ta=$(cpu "$a")
  tb=$(cpu "$b")
  echo "$ta $tb" >>"$pairs"
  awk -v i="$i" '{printf "%4d  %.3f  %.3f  %.3f\n", i, $1, $2, ($2 > 0) ? $1 / $2 : 0}' <<<"$ta $tb"
done
echo "median A $(cut -d' ' -f1 "$pairs" | median) s, median B $(cut -d' ' -f2 "$pairs" | median) s," \
  "median A/B $(awk '$2 > 0 {printf "%.4f\n", $1 / $2}' "$pairs" | median)"
