#!/usr/bin/env python3
"""Peak resident memory of `beaconctl run` holding the largest metadata body it accepts.

A document of as many ad breaks (5 ads of 10 tracking events each, so 50 events per ad break) as
fit in --bytes (default: 8 MiB, the cap before this benchmark; about 1 300 ad breaks and 65 000
events) is served on loopback, or of --pods ad breaks. The daemon plays through the first ad breaks (ticks carrying `at`, so beacons fire and
the journal saves the session after each refresh while playback changed), answers `status --json`
every half second, and re-reads the document every 2 s. Reported: the body's size, VmHWM (the
peak RSS) and whether the document was accepted (`metadataErrors` 0 and every ad break known).
Usage: metadata_memory.py [--bytes N | --pods N] [--seconds S] [--binary PATH]
"""
import argparse
import asyncio
import json
import time

from benchlib import PROGRAM_START, Daemon, ProcessSample, Sink, binary_path, document, emit, log

EXTRA_TYPES = ["pause", "resume", "mute", "unmute"]


def large_document(sink, pods):
    """`pods` ad breaks a minute apart, each of 5 ads of 10 s with 10 tracking events each."""
    entries = []
    for pod in range(pods):
        pod_start = PROGRAM_START + pod * 60_000
        ads = []
        for slot in range(5):
            start = pod_start + slot * 10_000
            offsets = {"impression": 0, "start": 0, "firstQuartile": 2_500, "midpoint": 5_000, "thirdQuartile": 7_500,
                       "complete": 10_000}
            events = [(kind, start + offset, 10_000 if kind == "impression" else 0, [sink.url(f"/b?{pod}.{slot}.{kind[:2]}")])
                      for kind, offset in offsets.items()]
            events += [(kind, start, 10_000, [sink.url(f"/b?{pod}.{slot}.{kind}")]) for kind in EXTRA_TYPES]
            ads.append((f"ad-{pod}-{slot}", start, 10_000, events))
        entries.append((f"pod-{pod}", pod_start, ads))
    return document(entries, (PROGRAM_START - 60_000, PROGRAM_START + pods * 60_000))


def pods_within(sink, size):
    """How many ad breaks of `large_document` fit in `size` bytes."""
    one, two = len(large_document(sink, 1)), len(large_document(sink, 2))
    pods = max(1, (size - one) // (two - one) + 1)
    while len(large_document(sink, pods)) > size:
        pods -= 1
    return pods


async def measure(binary, pods, size, seconds):
    sink = await Sink().start()
    pods = pods or pods_within(sink, size)
    sink.metadata = large_document(sink, pods)
    size = len(sink.metadata)
    log(f"{pods} ad breaks, {pods * 50} tracking events: a body of {size} bytes ({size / 1048576:.2f} MiB)")
    args = ["--media-url", sink.url("/live.m3u8?sessid=big"), "--tracking-url", sink.url("/metadata?sessid=big")]
    peak = 0
    async with Daemon(binary, args) as daemon:
        await daemon.wait_until(lambda status: status["counters"]["metadataFetches"] >= 1, 60, "first metadata")
        began = time.monotonic()
        at = 1_700_000_000_000
        tick = 0
        statuses = 0
        while time.monotonic() - began < seconds:
            for _ in range(20):
                playhead = PROGRAM_START - 2_000 + tick * 250
                await daemon.write_line(json.dumps({"playhead": playhead, "at": at + tick * 250}))
                tick += 1
            status = await daemon.status(timeout=30)
            statuses += 1
            peak = max(peak, ProcessSample(daemon.process.pid).hwm_kib)
            await asyncio.sleep(0.5)
        status = await daemon.status(timeout=30)
        sample = ProcessSample(daemon.process.pid)
        peak = max(peak, sample.hwm_kib)
    await sink.close()
    result = {
        "pods": pods, "events": pods * 50, "body_bytes": size,
        "accepted": status["counters"]["metadataErrors"] == 0 and len(status["adBreaks"]) == pods,
        "metadataErrors": status["counters"]["metadataErrors"], "lastError": status["lastError"],
        "metadataFetches": status["counters"]["metadataFetches"], "ticks": status["counters"]["ticks"],
        "statuses": statuses, "beaconsSent": status["counters"]["beaconsSent"],
        "peak_rss_mib": round(peak / 1024, 1), "rss_mib_end": round(sample.rss_kib / 1024, 1),
    }
    log(f"peak RSS {result['peak_rss_mib']} MiB (end {result['rss_mib_end']}), accepted {result['accepted']}, "
        f"{result['beaconsSent']} beacons sent, {statuses} status answers, {result['metadataFetches']} metadata fetches")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int)
    parser.add_argument("--bytes", type=int, default=8 << 20)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--binary")
    options = parser.parse_args()
    emit(asyncio.run(measure(binary_path(options.binary), options.pods, options.bytes, options.seconds)))


if __name__ == "__main__":
    main()
