#!/bin/sh
# Replays a recorded tick log as beaconctl input lines on stdout, in real time or SPEED times
# faster. Each log line is `WALL_CLOCK_MS LINE`: when the player printed LINE (epoch ms), then
# the line. Playhead lines (`<ms>` or `playhead <ms>`) come out as
# {"playhead": <ms>, "at": WALL_CLOCK_MS}, so beaconctl judges the playback speed from the
# recorded clock, whatever the replay speed. Blank lines and # comments are skipped.
#
# Usage: samples/replay-ticks.sh [-s SPEED] [LOG] | beaconctl run --stdin --media-url URL
#   or, to a running daemon: ... | while IFS= read -r line; do beaconctl send "$line"; done
set -eu

speed=1
while getopts s: option; do
    case $option in
        s) speed=$OPTARG ;;
        *) echo "usage: $0 [-s SPEED] [LOG]" >&2; exit 64 ;;
    esac
done
shift $((OPTIND - 1))

exec awk -v speed="$speed" '
    BEGIN {
        if (speed !~ /^[0-9]*\.?[0-9]+$/ || speed + 0 <= 0) { print "replay-ticks: SPEED must be a positive number" > "/dev/stderr"; exit 64 }
    }
    /^[ \t]*(#|$)/ { next }
    {
        at = $1
        if (at !~ /^[0-9]+$/) { printf "replay-ticks: line %d has no wall-clock time, skipped\n", NR > "/dev/stderr"; next }
        line = $0
        sub(/^[ \t]*[0-9]+[ \t]+/, "", line)
        if (started && at > last) system(sprintf("sleep %.3f", (at - last) / 1000 / speed))
        started = 1
        last = at
        playhead = line
        sub(/^playhead[ \t]+/, "", playhead)
        if (playhead ~ /^[0-9]+(\.[0-9]+)?$/) line = "{\"playhead\": " playhead ", \"at\": " at "}"
        print line
        fflush()
    }
' "${1:--}"
