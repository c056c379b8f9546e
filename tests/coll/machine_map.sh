#!/bin/sh
# Puts each PE on a pseudo-host of its own pseudo-machine with a CPU set of
# its own before it starts, so a job can span machines of different sizes on
# one: SHOAL_HOST_ID and SHOAL_MACHINE_ID are the core's keys, taskset the
# PE's affinity (the core counts a machine's CPUs as its PEs' union).
#   oshrun -np N machine_map.sh MAP prog [args...]
# MAP: machine:cpus of each PE in order, space separated ("a:0 a:0 b:0-1 b:0-1").
map=$1
shift
pe=${SHOAL_PE:?machine_map.sh must be started by oshrun (SHOAL_PE is not set)}
entry=$(echo "$map" | cut -d' ' -f$((pe + 1)))
[ -n "$entry" ] || { echo "machine_map.sh: PE $pe has no entry in map '$map'" >&2; exit 2; }
SHOAL_HOST_ID="coll-machine-${entry%%:*}"
SHOAL_MACHINE_ID="$SHOAL_HOST_ID"
export SHOAL_HOST_ID SHOAL_MACHINE_ID
exec taskset -c "${entry#*:}" "$@"
