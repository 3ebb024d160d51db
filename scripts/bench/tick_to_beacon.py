#!/usr/bin/env python3
"""Tick to beacon: the time from writing the tick line that makes an event due (on the daemon's
stdin) to its beacon request arriving at a loopback sink, over N events (default 1000).

One ad carries N zero-duration `progress` events 2 s of program time apart; each tick moves the
playhead 2 s on (its `at` clock too), so every tick makes exactly one event due. Ticks are sent one
at a time, each after the previous beacon arrived. With `--interstitial` the ad is played as an HLS
interstitial of one asset (the ad break at its date): the same events, made due by interstitial
ticks (`{"interstitial": id, "asset": 0, "position": s}`); `--both` measures the two in one run.
Usage: tick_to_beacon.py [--events N] [--binary PATH] [--interstitial | --both]
"""
import argparse
import asyncio
import json

from benchlib import PROGRAM_START, Daemon, Sink, binary_path, document, emit, log, percentile, median


def tick(start, offset, at, interstitial):
    """The tick line at `offset` ms into the ad: a main playhead, or the interstitial player's position."""
    if interstitial:
        return json.dumps({"interstitial": "bench", "asset": 0, "position": offset / 1000, "at": at})
    return json.dumps({"playhead": start + offset, "at": at})


async def measure(binary, events, interstitial=False):
    sink = await Sink().start()
    start = PROGRAM_START
    span = 2000 * events + 1000
    progress = [("progress", start + 2000 * k + 500, 0, [sink.url(f"/beacon?n={k}")]) for k in range(events)]
    sink.metadata = document([("pod", start, [("ad", start, span, progress)])], (start - 60_000, start + span))
    args = ["--media-url", sink.url("/live.m3u8?sessid=bench"), "--tracking-url", sink.url("/metadata?sessid=bench"),
            "--metadata-interval", "2"]
    latencies = []
    async with Daemon(binary, args) as daemon:
        await daemon.wait_until(lambda status: status["counters"]["metadataFetches"] >= 1, 10, "first metadata")
        at = 1_700_000_000_000
        await daemon.write_line(json.dumps({"playhead": start - 1000, "at": at - 2000}))
        if interstitial:
            await daemon.write_line("interstitial-start " + json.dumps({"id": "bench", "start": start}))
            await daemon.write_line("interstitial-asset " + json.dumps({"id": "bench", "index": 0, "duration": span / 1000}))
        for k in range(events):
            line = tick(start, 2000 * k + 1000, at + 2000 * k, interstitial)
            sent = await daemon.write_line(line)
            arrived = await sink.arrival(f"/beacon?n={k}", timeout=5)
            latencies.append((arrived - sent) * 1000)
            await asyncio.sleep(0.002)
        status = await daemon.status()
    await sink.close()
    result = {
        "mode": "interstitial" if interstitial else "stitched",
        "events": events,
        "p50_ms": round(median(latencies), 3),
        "p99_ms": round(percentile(latencies, 0.99), 3),
        "max_ms": round(max(latencies), 3),
        "beaconsSent": status["counters"]["beaconsSent"],
        "connections": sum(sink.connections.values()),
    }
    log(f"tick to beacon ({result['mode']}) over {events} events: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
        f"max {result['max_ms']} ms, {result['connections']} connection(s)")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--binary")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--interstitial", action="store_true", help="the ad played as an HLS interstitial")
    modes.add_argument("--both", action="store_true", help="stitched, then as an interstitial, in one run")
    options = parser.parse_args()
    binary = binary_path(options.binary)
    if options.both:
        emit({"stitched": asyncio.run(measure(binary, options.events)), "interstitial": asyncio.run(measure(binary, options.events, True))})
    else:
        emit(asyncio.run(measure(binary, options.events, options.interstitial)))


if __name__ == "__main__":
    main()
