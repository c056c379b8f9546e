#!/bin/sh
# Puts each PE on a pseudo-host before it starts (SHOAL_HOST_ID is the core's
# host key; PEs on different keys talk over the network transport), so
# uneven and interleaved host layouts can be tested on one machine.
#   oshrun -np N host_map.sh MAP prog [args...]
# MAP: host of each PE in order, comma separated ("0,1,2,1,2,1"), or rrK
# for K hosts round-robin (PE i on host i mod K).
map=$1
shift
pe=${SHOAL_PE:?host_map.sh must be started by oshrun (SHOAL_PE is not set)}
case $map in
rr*) host=$((pe % ${map#rr})) ;;
*) host=$(echo "$map" | cut -d, -f$((pe + 1))) ;;
esac
[ -n "$host" ] || { echo "host_map.sh: PE $pe has no host in map '$map'" >&2; exit 2; }
SHOAL_HOST_ID="coll-host-$host"
export SHOAL_HOST_ID
exec "$@"
