#!/usr/bin/env python3
"""Runs every benchmark (`make bench`): the Swift micro-benchmarks in Benchmarks/ and the
end-to-end scripts against the release binary; writes bench/results.json and prints the table
BENCHMARKS.md keeps, each figure against its target.

Usage: run_all.py [--idle-seconds S] [--speed X] [--skip-micro] [--report]
"""
import argparse
import datetime
import glob
import json
import os
import platform
import subprocess
import sys

from benchlib import DEFAULT_BINARY, REPO, log

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT = os.path.join(REPO, "bench")


def script(name, *arguments):
    log(f"== {name} {' '.join(arguments)}")
    completed = subprocess.run([sys.executable, os.path.join(HERE, name), *arguments, "--binary", DEFAULT_BINARY],
                               stdout=subprocess.PIPE, check=True, text=True)
    return json.loads(completed.stdout)


def micro_benchmarks():
    """Runs the Benchmarks/ package; returns {benchmark: {metric: p50}} from its JMH export."""
    log("== swift package benchmark (Benchmarks/)")
    for old in glob.glob(os.path.join(OUTPUT, "*.jmh.json")):
        os.remove(old)
    subprocess.run(["swift", "package", "--package-path", os.path.join(REPO, "Benchmarks"),
                    "--allow-writing-to-directory", OUTPUT, "benchmark", "--no-progress",
                    "--format", "jmh", "--path", OUTPUT], check=True, stdout=sys.stderr)
    figures = {}
    for path in glob.glob(os.path.join(OUTPUT, "*.jmh.json")):
        with open(path) as export:
            for element in json.load(export):
                name = element["benchmark"].rsplit(".", 1)[-1].replace("_", " ")
                metrics = {"throughput": element["primaryMetric"]}
                metrics.update(element.get("secondaryMetrics", {}))
                figures[name] = {metric: value["scorePercentiles"]["50.0"] for metric, value in metrics.items()}
    return figures


def machine():
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    memory = next(line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    return {"cpu": model, "cores": os.cpu_count(), "memory_gib": round(int(memory) / 2**20, 1),
            "kernel": platform.release(), "swift": swift[0] if swift else "?",
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}


def checks(results):
    """Each target as (figure, value, target, met)."""
    rows = []
    micro = results.get("micro", {})

    def rate(name):
        value = micro.get(name, {}).get("throughput")
        return value * 1000 if value is not None else None  # scaled: one iteration is 1000 ticks

    for kind in ["Tick every 250 ms", "Tick every 5 s", "Seek"]:
        small, large = rate(f"{kind}, 10 events"), rate(f"{kind}, 100000 events")
        if small and large:
            rows.append((f"{kind}: ticks/s at 100 000 vs 10 events", f"{large:,.0f} vs {small:,.0f}",
                         "within 2x", large * 2 >= small))
    thousand = rate("Tick every 250 ms, 1000 events")
    if thousand:
        rows.append(("Tick every 250 ms: ticks/s at 1 000 events", f"{thousand:,.0f}", ">= 1 000 000", thousand >= 1e6))
    decode = {name: figure for name, figure in micro.items() if name.startswith("Decode and merge")}
    for name, figure in sorted(decode.items()):
        wall = figure.get("Time (wall clock)")
        limit = 1000 if "20 KiB" in name else 40_000 if "1 MiB" in name else None
        rows.append((f"{name}: median", f"{wall} µs", f"< {limit} µs" if limit else "-",
                     wall < limit if limit and wall is not None else None))
        unchanged = micro.get(name.replace("Decode and merge", "Unchanged refresh"), {})
        if unchanged.get("Time (wall clock)") is not None and wall:
            share = unchanged["Time (wall clock)"] / wall * 100
            rows.append((f"{name.replace('Decode and merge', 'Unchanged refresh')}: share of decode, mallocs",
                         f"{share:.3f} %, {unchanged.get('Malloc (total)')}", "< 1 %, ~0",
                         share < 1 and (unchanged.get("Malloc (total)") or 0) <= 1))
    # A synced commit each: the disk's fsync sets the deliveries' figures; a snapshot's also counts writing its JSON.
    for name, figure in sorted(micro.items()):
        if name.startswith("Journal save"):
            rows.append((f"{name}: median", f"{figure.get('Time (wall clock)')} µs", "-", None))
    latency = results.get("tick_to_beacon")
    if latency:
        rows.append(("Tick to beacon p50 / p99", f"{latency['p50_ms']} / {latency['p99_ms']} ms", "< 2 / < 10 ms",
                     latency["p50_ms"] < 2 and latency["p99_ms"] < 10))
    for burst in results.get("burst", []):
        ratio = burst.get("ratio_to_wrk")
        runs = f"median of {len(burst['runs'])}, " if burst.get("runs") else ""
        cpu = burst.get("daemon_cpu_ms_median", burst.get("daemon_cpu_ms"))
        rows.append((f"Burst of {burst['beacons']} to {burst['hosts']} host(s): all delivered, connections, daemon CPU",
                     f"{burst['all_ms']} ms ({runs}CPU {cpu} ms), {burst['connections']} (max {burst['max_connections_per_host']}/host)",
                     "< 1000 ms, <= 6/host", burst["all_ms"] is not None and burst["all_ms"] < 1000
                     and burst["max_connections_per_host"] <= 6))
        wrk = burst.get("wrk") or {}
        rows.append((f"Burst to {burst['hosts']} host(s) against wrk on the same sink",
                     f"{ratio}x ({wrk.get('ms_for_burst')} ms at {wrk.get('requests_per_s')} req/s)", "<= 3x",
                     ratio is not None and ratio <= 3))
        curl = burst.get("curl_tool") or {}
        if curl:
            rows.append((f"Burst to {burst['hosts']} host(s) against the curl tool (libcurl alone) on the same sink",
                         f"{burst.get('ratio_to_curl_tool')}x ({curl.get('ms_for_burst')} ms)", "-", None))
    footprint = results.get("footprint")
    if footprint:
        idle, play = footprint["idle"], footprint["play"]
        rows.append((f"Idle {idle['seconds']:.0f} s: RSS max (anonymous + file)",
                     f"{idle['rss_mib_max']} MiB ({idle['rss_anon_mib_end']} + {idle['rss_file_mib_end']})", "< 20 MiB",
                     idle["rss_mib_max"] < 20))
        rows.append(("Idle: RSS growth", f"{idle['rss_growth_kib']} KiB", "none (<= 256 KiB)", idle["rss_growth_kib"] <= 256))
        rows.append(("Idle: CPU", f"{idle['cpu_percent_of_one_core']} % of a core", "< 0.2 %",
                     idle["cpu_percent_of_one_core"] < 0.2))
        rows.append((f"2 h live window at {play['speed']:g}x: RSS max (anonymous + file)",
                     f"{play['rss_mib_max']} MiB ({play['rss_anon_mib_end']} + {play['rss_file_mib_end']})", "< 20 MiB",
                     play["rss_mib_max"] < 20))
        rows.append(("2 h live window: RSS growth, beacons delivered",
                     f"{play['rss_growth_kib']} KiB, {play['beacons_delivered']}/{play['beacons_expected']}",
                     "none (<= 256 KiB), all", play["rss_growth_kib"] <= 256 and play["all_delivered"]))
        rows.append(("2 h live window: CPU per program hour", f"{play['cpu_seconds_per_program_hour']} s", "-", None))
    binary = results.get("binary")
    if binary:
        rows.append(("Stripped static binary, ICU/FoundationNetworking", f"{binary['stripped_mb']} MB, {binary['forbidden'] or 'none'}",
                     "<= 25 MB, none", binary["stripped_bytes"] <= 25_000_000 and not binary["forbidden"]))
        rows.append(("Start to socket ready (median)", f"{binary['startup_median_ms']} ms", "< 100 ms",
                     binary["startup_median_ms"] < 100))
    return rows


def table(rows):
    lines = ["| figure | measured | target | met |", "|---|---|---|---|"]
    for figure, value, target, met in rows:
        lines.append(f"| {figure} | {value} | {target} | {'-' if met is None else 'yes' if met else 'NO'} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", default="300")
    parser.add_argument("--speed", default="20")
    parser.add_argument("--skip-micro", action="store_true")
    parser.add_argument("--report", action="store_true", help="only print the table of the last run's bench/results.json")
    options = parser.parse_args()
    if options.report:
        with open(os.path.join(OUTPUT, "results.json")) as last:
            print(table(checks(json.load(last))))
        return
    os.makedirs(OUTPUT, exist_ok=True)
    results = {"machine": machine()}
    if not options.skip_micro:
        results["micro"] = micro_benchmarks()
    results["binary"] = script("binary.py")
    results["tick_to_beacon"] = script("tick_to_beacon.py")
    # The burst is a tenth of a second on a shared machine: the median of 5 runs.
    results["burst"] = script("burst.py", "--runs", "5")
    results["footprint"] = script("footprint.py", "--idle-seconds", options.idle_seconds, "--speed", options.speed)
    rows = checks(results)
    results["targets"] = [{"figure": figure, "measured": value, "target": target, "met": met}
                          for figure, value, target, met in rows]
    with open(os.path.join(OUTPUT, "results.json"), "w") as output:
        json.dump(results, output, indent=2)
    print(table(rows))
    print(f"\nmachine: {results['machine']}\nwritten: bench/results.json")


if __name__ == "__main__":
    main()
