#!/usr/bin/env python3
"""Footprint of `beaconctl run`: resident memory (VmRSS, VmHWM) and CPU, sampled from /proc.

idle:  a session polling an unchanged metadata document every 2 s, no ticks, for --idle-seconds
       (default 300, as the target states).
play:  a live window of --hours (default 2) with an ad break of 4 ads every 10 min (12 in 2 h),
       played at 4 ticks per second of program time. Ticks carry the player's clock (`at`), so they can be fed --speed times faster than
       real time and are judged exactly as real-time ticks; the live metadata window (the pods
       up to 3 min ahead of the playhead) follows the playhead and is re-served every 2 s.
       Every playback beacon must arrive. --retention S is passed to the daemon: a run long enough
       for it to prune (it prunes every 5 min of wall clock) shows what the daemon keeps level off.
RSS growth: the last sample against the one after the first quarter of the run.
Usage: footprint.py [--idle-seconds S] [--speed X] [--hours H] [--retention S] [--samples] [--binary PATH]
       (--idle-seconds 0 skips idle; --samples adds every sample's RSS to the output)
"""
import argparse
import asyncio
import json
import os
import time

from benchlib import (PROGRAM_START, Daemon, ProcessSample, Sink, binary_path, document, emit, log,
                     standard_ad)

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "..", "shared", "fixtures", "harmonic-sample-metadata.json")


def summary(samples, program_hours=None, keep_samples=False):
    first, last = samples[0], samples[-1]
    quarter = samples[len(samples) // 4]
    elapsed = last.time - first.time
    cpu = last.cpu_seconds - first.cpu_seconds
    result = {
        "seconds": round(elapsed, 1),
        "rss_mib_after_first_quarter": round(quarter.rss_kib / 1024, 2),
        "rss_mib_end": round(last.rss_kib / 1024, 2),
        "rss_mib_max": round(max(sample.rss_kib for sample in samples) / 1024, 2),
        "hwm_mib": round(last.hwm_kib / 1024, 2),
        "rss_anon_mib_end": round(last.anon_kib / 1024, 2),
        "rss_file_mib_end": round(last.file_kib / 1024, 2),
        "rss_growth_kib": last.rss_kib - quarter.rss_kib,
        "threads": last.threads,
        "cpu_seconds": round(cpu, 3),
        "cpu_percent_of_one_core": round(100 * cpu / elapsed, 3) if elapsed else None,
    }
    if program_hours:
        result["cpu_seconds_per_program_hour"] = round(cpu / program_hours, 3)
    if keep_samples:
        result["samples"] = [{"seconds": round(sample.time - first.time, 1), "rss_anon_kib": sample.anon_kib,
                              "rss_file_kib": sample.file_kib} for sample in samples]
    return result


async def sample_every(pid, interval, samples, stop):
    while not stop.is_set():
        samples.append(ProcessSample(pid))
        try:
            await asyncio.wait_for(stop.wait(), interval)
        except asyncio.TimeoutError:
            pass
    samples.append(ProcessSample(pid))


async def idle(binary, seconds):
    service = await Sink().start()
    with open(FIXTURE, "rb") as fixture:
        service.metadata = fixture.read()
    args = ["--media-url", service.url("/live.m3u8?sessid=idle"), "--tracking-url", service.url("/metadata?sessid=idle")]
    async with Daemon(binary, args, stdin=False) as daemon:
        await daemon.wait_until(lambda status: status["counters"]["metadataFetches"] >= 1, 10, "first metadata")
        samples, stop = [], asyncio.Event()
        sampler = asyncio.create_task(sample_every(daemon.process.pid, 1.0, samples, stop))
        await asyncio.sleep(seconds)
        stop.set()
        await sampler
        status = await daemon.status()
    await service.close()
    result = summary(samples)
    result["metadataFetches"] = status["counters"]["metadataFetches"]
    log(f"idle {seconds} s: RSS {result['rss_mib_end']} MiB (HWM {result['hwm_mib']}; anonymous {result['rss_anon_mib_end']}, "
        f"file {result['rss_file_mib_end']}), growth {result['rss_growth_kib']} KiB, "
        f"CPU {result['cpu_percent_of_one_core']} % of a core, {result['threads']} threads")
    return result


def live_window(sink, playhead, pods):
    """The live metadata as of `playhead`: the pods starting up to 3 min ahead, a 10 min data range behind."""
    known = [pod for pod in pods if pod[1] <= playhead + 180_000 and pod[1] + 120_000 >= playhead - 600_000]
    return document(known, (playhead - 600_000, playhead + 180_000))


async def play(binary, speed, hours, retention, keep_samples):
    sink = await Sink().start()
    start = PROGRAM_START
    window_ms = int(hours * 3600 * 1000)
    pods = []
    for index in range(int(hours * 6)):
        pod_start = start + 300_000 + index * 600_000
        ads = [standard_ad(f"ad-{index}-{slot}", pod_start + slot * 30_000, 30_000,
                           lambda kind, index=index, slot=slot: sink.url(f"/beacon?ad={index}-{slot}&cn={kind}"))
               for slot in range(4)]
        pods.append((f"pod-{index}", pod_start, ads))
    expected = sum(len(ad[3]) for pod in pods for ad in pod[2])
    playhead = start
    sink.metadata = live_window(sink, playhead, pods)
    args = ["--media-url", sink.url("/live.m3u8?sessid=play"), "--tracking-url", sink.url("/metadata?sessid=play")]
    if retention is not None:
        args += ["--retention", str(retention)]
    async with Daemon(binary, args) as daemon:
        await daemon.wait_until(lambda status: status["counters"]["metadataFetches"] >= 1, 10, "first metadata")
        samples, stop = [], asyncio.Event()
        sampler = asyncio.create_task(sample_every(daemon.process.pid, 0.5, samples, stop))
        at = 1_700_000_000_000
        step = 250
        began = time.monotonic()
        for tick in range(window_ms // step + 1):
            playhead = start + tick * step
            if tick % 40 == 0:
                sink.metadata = live_window(sink, playhead, pods)
            await daemon.write_line(json.dumps({"playhead": playhead, "at": at + tick * step}))
            delay = began + (tick + 1) * step / 1000 / speed - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
        delivered = await sink.wait_for_requests(expected, timeout=15)
        stop.set()
        await sampler
        status = await daemon.status()
    await sink.close()
    result = summary(samples, program_hours=hours, keep_samples=keep_samples)
    result.update({"speed": speed, "ticks": status["counters"]["ticks"], "beacons_expected": expected,
                   "beacons_delivered": len(sink.arrivals), "all_delivered": delivered,
                   "metadataFetches": status["counters"]["metadataFetches"]})
    log(f"{hours:g} h live window at {speed}x: RSS {result['rss_mib_end']} MiB (HWM {result['hwm_mib']}), growth "
        f"{result['rss_growth_kib']} KiB, CPU {result['cpu_seconds']} s = {result['cpu_seconds_per_program_hour']} s per "
        f"program hour, {len(sink.arrivals)}/{expected} beacons")
    return result


async def measure(binary, idle_seconds, speed, hours, retention, keep_samples):
    results = {"idle": await idle(binary, idle_seconds)} if idle_seconds > 0 else {}
    results["play"] = await play(binary, speed, hours, retention, keep_samples)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", type=float, default=300)
    parser.add_argument("--speed", type=float, default=20)
    parser.add_argument("--hours", type=float, default=2)
    parser.add_argument("--retention", type=float)
    parser.add_argument("--samples", action="store_true")
    parser.add_argument("--binary")
    options = parser.parse_args()
    emit(asyncio.run(measure(binary_path(options.binary), options.idle_seconds, options.speed, options.hours,
                             options.retention, options.samples)))


if __name__ == "__main__":
    main()
