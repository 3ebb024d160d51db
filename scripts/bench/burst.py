#!/usr/bin/env python3
"""Burst delivery: 1000 beacons due at once, to one host and to 20 (127.0.0.1 to 127.0.0.20).

The player first plays 13 s of program time with no ad known; then a late metadata refresh brings
100 ads of 10 events in that played stretch, so all of them are due the moment it is applied. The
figure is the time from serving that refresh to the last beacon arriving, with the TCP connections
the sink saw and the daemon's CPU time over the burst (all threads, until it answers a status
request after the last arrival). For comparison, in the same run and on the same sink with as
many connections: wrk, a load generator, and the curl tool sending the same 1 000 URLs with
--parallel, which is libcurl's multi interface, the library beaconctl sends with, with nothing
kept on disk. With --runs N each burst is run N times and the run with the median time is kept,
with every run's time and CPU.
Usage: burst.py [--beacons N] [--hosts 1 20] [--runs N] [--binary PATH]
"""
import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import tempfile
import time

from benchlib import PROGRAM_START, Daemon, Sink, binary_path, burst_ads, cpu_milliseconds, document, emit, log


async def burst(binary, beacons, host_count):
    hosts = [f"127.0.0.{index + 1}" for index in range(host_count)]
    service = await Sink().start()
    sink = await Sink(hosts).start()
    start = PROGRAM_START
    service.metadata = document([], (start - 60_000, start + 20_000))
    args = ["--media-url", service.url("/live.m3u8?sessid=burst"), "--tracking-url", service.url("/metadata?sessid=burst"),
            "--metadata-interval", "0.25"]
    async with Daemon(binary, args) as daemon:
        await daemon.wait_until(lambda status: status["counters"]["metadataFetches"] >= 1, 10, "first metadata")
        at = 1_700_000_000_000
        ticks = 0
        for step in range(-4, 53):
            await daemon.write_line(json.dumps({"playhead": start + 250 * step, "at": at + 250 * step}))
            ticks += 1
        await daemon.wait_until(lambda status: status["counters"]["ticks"] >= ticks, 10, "ticks")
        ads = burst_ads(sink, hosts, beacons, start)
        sink.reset_counts()
        cpu_before = cpu_milliseconds(daemon.process.pid)
        served_before = len(service.metadata_served)
        service.metadata = document([("late-pod", start, ads)], (start - 60_000, start + 40_000))
        delivered = await sink.wait_for_requests(beacons, timeout=30)
        served = service.metadata_served[served_before]
        arrivals = sorted(sink.arrivals.values())
        status = await daemon.status()
        cpu = cpu_milliseconds(daemon.process.pid) - cpu_before
    await service.close()
    connections = dict(sink.connections)
    result = {
        "hosts": host_count,
        "beacons": beacons,
        "delivered": len(sink.arrivals),
        "first_ms": round((arrivals[0] - served) * 1000, 2) if arrivals else None,
        "all_ms": round((arrivals[-1] - served) * 1000, 2) if delivered else None,
        "connections": sum(connections.values()),
        "max_connections_per_host": max(connections.values()) if connections else 0,
        "beaconsFailed": status["counters"]["beaconsFailed"],
        "daemon_cpu_ms": round(cpu, 1),
    }
    result["wrk"] = await wrk(sink, max(result["connections"], 1), beacons)
    if result["all_ms"] and result["wrk"]:
        result["ratio_to_wrk"] = round(result["all_ms"] / result["wrk"]["ms_for_burst"], 2)
    result["curl_tool"] = await curl_tool(sink, hosts, max(result["connections"], 1), beacons)
    if result["all_ms"] and result["curl_tool"]:
        result["ratio_to_curl_tool"] = round(result["all_ms"] / result["curl_tool"]["ms_for_burst"], 2)
    await sink.close()
    log(f"burst of {beacons} to {host_count} host(s): first {result['first_ms']} ms, all {result['all_ms']} ms, "
        f"{result['connections']} connections (at most {result['max_connections_per_host']} per host), "
        f"daemon CPU {result['daemon_cpu_ms']} ms; "
        f"wrk: {result['wrk']}; curl tool: {result['curl_tool']}")
    return result


async def curl_tool(sink, hosts, connections, beacons):
    """The curl tool sending `beacons` URLs over at most `connections` at once, spread over the hosts
    as the burst's are: libcurl on its own. Its start-up, timed with one URL, is taken off."""
    if not shutil.which("curl"):
        log("curl not installed: no comparison (make bench installs it)")
        return None
    with tempfile.TemporaryDirectory() as directory:
        def config(name, count):
            path = os.path.join(directory, name)
            with open(path, "w") as file:
                for number in range(count):
                    file.write(f'url = "{sink.url(f"/curl?n={number}", hosts[number % len(hosts)])}"\noutput = "/dev/null"\n')
            return path

        async def timed(path):
            started = time.perf_counter()
            process = await asyncio.create_subprocess_exec(
                "curl", "--silent", "--parallel", "--parallel-immediate", "--parallel-max", str(connections), "--config", path,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
            await asyncio.wait_for(process.wait(), 60)
            return (time.perf_counter() - started) * 1000

        one, all_urls = config("one", 1), config("all", beacons)
        start_up = statistics.median([await timed(one) for _ in range(3)])
        sink.reset_counts()
        whole = await timed(all_urls)
    return {"connections": sum(sink.connections.values()), "ms_for_burst": round(whole - start_up, 2), "start_up_ms": round(start_up, 2)}


async def wrk(sink, connections, beacons):
    """wrk against the same sink, one thread (the sink has one), as many connections as beaconctl used."""
    if not shutil.which("wrk"):
        log("wrk not installed: no comparison (scripts/install-system-packages.sh installs it)")
        return None
    process = await asyncio.create_subprocess_exec(
        "wrk", "-t1", f"-c{connections}", "-d3s", sink.url("/wrk"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output = (await asyncio.wait_for(process.communicate(), 30))[0].decode()
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if not match:
        log(output)
        return None
    rate = float(match.group(1))
    return {"connections": connections, "requests_per_s": round(rate), "ms_for_burst": round(beacons / rate * 1000, 2)}


async def median_burst(binary, beacons, hosts, runs):
    results = [await burst(binary, beacons, hosts) for _ in range(runs)]
    if runs == 1:
        return results[0]
    timed = sorted((result for result in results if result["all_ms"] is not None), key=lambda result: result["all_ms"])
    chosen = dict(timed[len(timed) // 2] if timed else results[0])
    chosen["runs"] = [{"all_ms": result["all_ms"], "daemon_cpu_ms": result["daemon_cpu_ms"]} for result in results]
    chosen["daemon_cpu_ms_median"] = sorted(result["daemon_cpu_ms"] for result in results)[runs // 2]
    return chosen


async def measure(binary, beacons, host_counts, runs):
    return [await median_burst(binary, beacons, hosts, runs) for hosts in host_counts]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beacons", type=int, default=1000)
    parser.add_argument("--hosts", type=int, nargs="+", default=[1, 20])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--binary")
    options = parser.parse_args()
    emit(asyncio.run(measure(binary_path(options.binary), options.beacons, options.hosts, max(options.runs, 1))))


if __name__ == "__main__":
    main()
