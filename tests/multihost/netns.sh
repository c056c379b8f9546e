#!/bin/bash
# Several "hosts" on one machine: one network namespace per host, joined by
# veth pairs to a bridge that lives in a namespace of its own, so nothing is
# added to the machine's own network and traffic stays between the
# namespaces made here.  Host i (i = 0..N) has address 10.77.0.(i+1)/24 on
# its eth0; h0 is the head node where the launcher runs.
#
#   netns.sh up TAG N      create switch TAG"sw" and hosts TAG"h0".."hN", and
#                          the rsh agent /tmp/TAG-agent, which runs a command in
#                          the namespace owning an address, with the namespace's
#                          name as hostname (a UTS namespace of its own)
#   netns.sh down TAG      remove every namespace named TAG* and the agent
#   netns.sh addr I        print host I's address
#
# TAG must be short (namespace names are TAG"h"I); run_mh.sh uses "m<its pid>".
# NETNS_TCP_CC: the hosts' TCP congestion control (default cubic, the
# kernel's own default and what cluster nodes run).  A namespace otherwise
# takes the machine's, which a cloud image may set to bbr: bbr paces each
# connection at its estimate of the path's bandwidth, and over veth that
# estimate swings by 2x from run to run (a 256 KiB read 53 or 143 us; ss
# showed pacing_rate 17 Gbps on a link that moves 40), for every library.
set -u

addr() { echo "10.77.0.$(($1 + 1))"; }

fail() {
    echo "netns.sh: $*" >&2
    exit 1
}

# A namespace other than the machine's own may only pick a congestion
# control the machine allows (tcp_allowed_congestion_control), and an image
# that sets bbr may allow only "reno bbr": allow the one asked for (root,
# in the machine's namespace; the machine's own default stays).
allow_tcp_cc() {
    local want=${NETNS_TCP_CC:-cubic} f=/proc/sys/net/ipv4/tcp_allowed_congestion_control
    [ -r "$f" ] || return 0
    grep -qw "$want" "$f" && return 0
    grep -qw "$want" /proc/sys/net/ipv4/tcp_available_congestion_control 2>/dev/null || modprobe "tcp_$want" 2>/dev/null
    echo "$(cat "$f") $want" >"$f" 2>/dev/null || true
}

up() {
    local tag=$1 n=$2 sw=${1}sw
    allow_tcp_cc
    ip netns add "$sw" 2>/dev/null ||
        fail "cannot create network namespaces here (need root/CAP_SYS_ADMIN and a kernel with netns); the multi-host tests cannot run on this machine"
    ip -n "$sw" link set lo up
    ip -n "$sw" link add br0 type bridge || fail "cannot create a bridge inside a namespace"
    ip -n "$sw" link set br0 up
    for i in $(seq 0 "$n"); do
        local h=${tag}h$i
        ip netns add "$h" || fail "cannot create namespace $h"
        ip -n "$sw" link add "p$i" type veth peer name eth0 netns "$h" ||
            fail "cannot create a veth pair (module veth missing?)"
        ip -n "$sw" link set "p$i" master br0
        ip -n "$sw" link set "p$i" up
        ip -n "$h" link set lo up
        ip -n "$h" addr add "$(addr "$i")/24" dev eth0
        ip -n "$h" link set eth0 up
        ip netns exec "$h" sysctl -qw "net.ipv4.tcp_congestion_control=${NETNS_TCP_CC:-cubic}" 2>/dev/null ||
            echo "netns.sh: cannot set congestion control ${NETNS_TCP_CC:-cubic} in $h (available: $(cat /proc/sys/net/ipv4/tcp_available_congestion_control)); it keeps $(ip netns exec "$h" sysctl -n net.ipv4.tcp_congestion_control)" >&2
    done
    write_agent "$tag" "$n"
    # Wait until every link is up (no ping here: the check must not need tools).
    for i in $(seq 0 "$n"); do
        local ok=0
        for _ in $(seq 1 50); do
            if ip -n "${tag}h$i" link show eth0 | grep -q 'state UP'; then
                ok=1
                break
            fi
            sleep 0.1
        done
        [ $ok = 1 ] || fail "the link of host $i ($(addr "$i")) does not come up"
    done
}

# The launcher's remote shell: "AGENT [options] HOST command..." runs the
# command inside the namespace that owns HOST's address.
write_agent() {
    local tag=$1 n=$2 f=/tmp/${1}-agent
    {
        echo '#!/bin/sh'
        echo '# rsh agent for namespace hosts (written by tests/multihost/netns.sh)'
        echo 'while [ $# -gt 0 ]; do case "$1" in -*) shift;; *) break;; esac; done'
        echo 'host=$1; shift'
        echo 'case "$host" in'
        for i in $(seq 0 "$n"); do
            echo "  $(addr "$i")|${tag}h$i) ns=${tag}h$i;;"
        done
        echo '  *) echo "agent: unknown host $host" >&2; exit 255;;'
        echo 'esac'
        echo ": >>/tmp/${tag}-agent.used   # run_mh.sh: the launcher got past its launch step"
        echo "env=/tmp/${tag}-env.\$ns      # extra environment of one host (run_mh.sh --unreachable-host)"
        echo 'extra=; [ -r "$env" ] && extra=$(cat "$env")'
        echo "cpus=/tmp/${tag}-cpus.\$ns    # the host's own cores (run_mh.sh --own-cores)"
        echo 'pin=; [ -r "$cpus" ] && pin="taskset -c $(cat "$cpus")"'
        echo '# Its own hostname too (UTS namespace): launchers keep per-host state under'
        echo '# the host name (Open MPI: /tmp/ompi.HOST.UID), which hosts must not share.'
        echo 'exec $pin ip netns exec "$ns" unshare --uts env $extra /bin/sh -c "hostname $ns && $*"'
    } >"$f"
    chmod 755 "$f"
}

down() {
    local tag=$1
    for ns in $(ip netns list | awk '{print $1}' | grep "^${tag}\(sw\|h[0-9]*\)$"); do
        # Processes left inside would keep the namespace's interfaces alive.
        for pid in $(ip netns pids "$ns" 2>/dev/null); do
            kill -9 "$pid" 2>/dev/null
        done
        ip netns del "$ns" 2>/dev/null
    done
    rm -f "/tmp/${tag}-agent" "/tmp/${tag}-agent.used" "/tmp/${tag}"-env.* "/tmp/${tag}"-cpus.*
}

case "${1:-}" in
up) up "$2" "$3" ;;
down) down "$2" ;;
addr) addr "$2" ;;
*) fail "usage: netns.sh up TAG N | down TAG | addr I" ;;
esac
