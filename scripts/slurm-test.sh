#!/bin/bash
# slurm-test.sh: run a sharded study on a real (one-node) Slurm cluster and
# check that the merged results are those of one machine.
#
# It installs Debian's Slurm and munge, starts munged, slurmctld and slurmd
# with a minimal slurm.conf for this host (its name, cores and memory as
# slurmd -C reports them), builds websim, writes the submission script with
# "websim cluster slurm" for samples/asum (3 scenarios x 3 loads, 3000
# observations, 4 shards), submits it, waits for the merge job, and compares
# the merged JSON with "websim run --json" on this machine, wall times aside.
#
# Needs root and a Debian-like system (apt-get). Run from the repository:
#
#   sudo scripts/slurm-test.sh
#
# Exit status 0 when the merged JSON equals the one-machine JSON. The daemons
# it started are stopped at the end; a slurm.conf already in place is kept
# (set SLURM_TEST_KEEP_CONF=1 to reuse it without asking).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
say() { printf '[%4ds] %s\n' $(( $(date +%s) - start )) "$*"; }

if [ "$(id -u)" != 0 ]; then
	echo "slurm-test.sh: run as root (it installs packages and starts daemons)" >&2
	exit 2
fi

say "installing slurm-wlm and munge"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq slurm-wlm munge >/dev/null

work=$(mktemp -d /tmp/websim-slurm-test.XXXXXX)
pids=()
cleanup() {
	# Stop the daemons this script started (newest first), and wait for them.
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		pid=${pids[i]}
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	done
}
trap cleanup EXIT

say "starting munged"
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
[ -s /etc/munge/munge.key ] || { mungekey --create 2>/dev/null || /usr/sbin/create-munge-key -f; }
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
if ! munge -n >/dev/null 2>&1; then
	runuser -u munge -- /usr/sbin/munged
	sleep 1
	pids+=("$(cat /run/munge/munged.pid)")
fi
munge -n | unmunge >/dev/null

conf=/etc/slurm/slurm.conf
node=$(hostname -s)
if [ -e "$conf" ] && [ "${SLURM_TEST_KEEP_CONF:-}" != 1 ] && ! grep -q "written by websim slurm-test" "$conf"; then
	echo "slurm-test.sh: $conf exists and was not written by this script; set SLURM_TEST_KEEP_CONF=1 to use it" >&2
	exit 2
fi
if [ "${SLURM_TEST_KEEP_CONF:-}" != 1 ]; then
	say "writing $conf for $node"
	mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
	cat >"$conf" <<CONF
# written by websim slurm-test.sh: a one-node cluster on this host
ClusterName=websimtest
SlurmctldHost=$node
AuthType=auth/munge
SlurmUser=root
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
MinJobAge=600
$(slurmd -C | head -1) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
fi

say "starting slurmctld and slurmd"
if ! scontrol ping >/dev/null 2>&1 || ! scontrol ping | grep -q UP; then
	slurmctld -i
	for _ in $(seq 30); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 1; done
	pids+=("$(cat /run/slurmctld.pid)")
fi
if ! pgrep -x slurmd >/dev/null; then
	slurmd
	sleep 1
	pids+=("$(cat /run/slurmd.pid)")
fi
for _ in $(seq 60); do
	state=$(sinfo -h -n "$node" -o %t 2>/dev/null || true)
	case "$state" in idle*|mix*|alloc*) break ;; esac
	scontrol update nodename="$node" state=resume 2>/dev/null || true
	sleep 1
done
sinfo

say "building websim"
(cd "$repo" && go build -o "$work/websim" ./cmd/websim)
cp -r "$repo/samples/asum" "$work/asum"
rm -f "$work/asum/OutPut.xlsx"
cd "$work"

flags=(--observations 3000 --loads L1,L5,L9 --scenarios P10,S10,M10 --seed 11)
say "writing the submission script (4 shards)"
./websim cluster slurm asum --shards 4 "${flags[@]}" --websim "$work/websim" --results merged.xlsx --out submit.sh
say "submitting"
bash submit.sh | tee submit.out
merge=$(sed -n 's/.*merge: job \([0-9]*\).*/\1/p' submit.out)

say "waiting for merge job $merge"
for _ in $(seq 600); do
	state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
	sleep 1
done
say "merge job: ${state:-unknown}"
if [ "$state" != COMPLETED ]; then
	tail -n 20 parts/*.log /var/log/slurm/*.log >&2 || true
	exit 1
fi

say "one-machine run"
./websim run asum "${flags[@]}" --json --quiet --out one.xlsx >one.json
strip() { grep -v -e '"wallSeconds"' -e '"started"' "$1"; }
if diff <(strip one.json) <(strip merged.json) >diff.txt; then
	say "PASS: merged JSON of $(grep -c '"scenario"' merged.json) runs equals the one-machine JSON (wall times aside); work in $work"
else
	head -n 40 diff.txt >&2
	say "FAIL: the merged JSON differs from the one-machine JSON; work in $work"
	exit 1
fi
