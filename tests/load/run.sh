#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/load/run.sh N COMMAND...: run COMMAND while N CPU-bound busy
# loops (shell loops, one process each) compete for the CPUs, then stop
# them; exit with COMMAND's status.  make check-under-load runs make check
# so: no check may fail because a thread of a slow machine got no turn.
set -u
n=$1
shift
pids=
stop() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
}
trap 'stop; exit 130' INT TERM
i=0
while [ "$i" -lt "$n" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "== load: $n busy loops (pids$pids) while: $*"
"$@"
st=$?
stop
echo "== load: busy loops stopped; status $st"
exit $st
