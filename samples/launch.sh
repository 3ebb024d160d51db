#!/bin/sh
# Plays a stream with ad beaconing: starts a beaconctl session for MEDIA_URL, hands the session's
# manifest URL to the player, and pipes the player's output into beaconctl. When the player
# exits, beaconctl drains its in-flight beacons and exits too.
#
# Usage: samples/launch.sh MEDIA_URL PLAYER [ARGUMENT...]
#   The player runs as `PLAYER [ARGUMENT...] MANIFEST_URL` and prints beaconctl input lines
#   on stdout: playhead ticks, play, pause, mute... (see "The line protocol" in the README).
# Environment:
#   BEACONCTL       the beaconctl binary (default: beaconctl)
#   RUN_OPTIONS     more `beaconctl run` options, split on spaces (e.g. --socket /tmp/b/c.sock)
set -eu
# RUN_OPTIONS is split on spaces but never globbed: URLs hold '?'.
set -f

if [ $# -lt 2 ]; then
    echo "usage: $0 MEDIA_URL PLAYER [ARGUMENT...]" >&2
    exit 64
fi
media_url=$1
shift

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/input" "$work/session"

# beaconctl reads the player's lines from one pipe and writes the session line to the other;
# opening both ends below is the rendezvous with it.
# shellcheck disable=SC2086
"${BEACONCTL:-beaconctl}" run --media-url "$media_url" --stdin ${RUN_OPTIONS:-} \
    < "$work/input" > "$work/session" &
beaconctl_pid=$!
exec 3> "$work/input"
exec 4< "$work/session"

if IFS= read -r session <&4; then
    manifest=$(printf '%s\n' "$session" | sed -n 's/.*"manifestUrl":"\([^"]*\)".*/\1/p')
else
    manifest=
fi
player_status=0
if [ -n "$manifest" ]; then
    "$@" "$manifest" >&3 || player_status=$?
else
    echo "$0: beaconctl started no session for $media_url" >&2
    player_status=1
fi

# The player held the last other write end: closing ours ends beaconctl's input.
exec 3>&-
beaconctl_status=0
wait "$beaconctl_pid" || beaconctl_status=$?
if [ "$beaconctl_status" -ne 0 ]; then exit "$beaconctl_status"; fi
exit "$player_status"
