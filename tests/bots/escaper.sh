#!/bin/bash
# A hostile Nim bot in shell, the twin of escaper.py (see there for MODE and the flags):
#   escaper.sh MODE PIDDIR [--ignore-eof] [--mute] [--tcp]
# MODE: setsid, double-fork, hidden (new session, empty environment) or none. Every process
# it leaves writes PIDDIR/<role>.<pid>. Harmless: at most one extra process, sleeping at
# most 120 s, traffic only to the arena's loopback address, no signal sent to anyone.
mode=$1
dir=$2
shift 2
ignore_eof= mute= tcp=
for flag in "$@"; do
    case $flag in
        --ignore-eof) ignore_eof=1 ;;
        --mute) mute=1 ;;
        --tcp) tcp=1 ;;
    esac
done

if [ -n "$ignore_eof" ]; then trap '' TERM; fi
: > "$dir/leader.$$"
# What the mode leaves notes its pid; wait for that (at most 10 s) before playing.
linger='exec 0</dev/null 1>/dev/null 2>&1; : > "$0/$1.$$"; exec sleep 120'
case $mode in
    setsid) setsid sh -c "$linger" "$dir" setsid & role=setsid pid=$! ;;
    double-fork) role=grandchild pid=$(setsid sh -c "$linger" "$dir" grandchild & echo $!) ;;
    hidden) setsid env -i /bin/sh -c "$linger" "$dir" hidden & role=hidden pid=$! ;;
    none) role= ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
for _ in $(seq 1000); do
    [ -z "$role" ] || [ -e "$dir/$role.$pid" ] && break
    sleep 0.01
done

if [ -n "$tcp" ]; then
    exec 3<>"/dev/tcp/$ARENA_HOST/$ARENA_PORT"
else
    exec 3<&0 4>&1
fi
out=4
[ -n "$tcp" ] && out=3
while IFS= read -r line <&3; do
    case $line in
        move*) [ -z "$mute" ] && echo "take 1" >&$out ;;
    esac
done
if [ -n "$ignore_eof" ]; then sleep 120; fi
