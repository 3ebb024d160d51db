#!/usr/bin/env python3
"""Where a daemon's start-up spends its CPU: starts `beaconctl run` under `perf record` (a software
clock at 20 kHz, call graphs) until its control socket accepts, then stops it, and sums the
samples of each phase over every thread: loading (ld.so), argument parsing, the runtime's
composition, the journal, and the Swift runtime's conformance lookups (these overlap the
others). Give two binaries to compare them, e.g. a build before a change and one after:

    python3 scripts/bench/startup_profile.py --runs 5 old/beaconctl .build/release/beaconctl

Use unstripped binaries (`.build/release/beaconctl`) so that samples have names. Needs perf
(Debian's linux-perf). The drain after SIGTERM is sampled too: compare like with like.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from benchlib import wait_for_unix_socket

FREQUENCY = 20_000
PHASES = [
    ("loading (ld.so)", r"_dl_start_user|dl_main|_dl_relocate|_dl_map_object|_dl_init"),
    ("argument parsing", r"ArgumentParser"),
    ("runtime composition", r"13BeaconRuntime06DaemonB0V_9logOutput"),
    ("journal (SQLite)", r"sqlite3|JournalWriter"),
    ("conformance lookups", r"swift_conformsToProtocol"),
]


def profile(binary, runs):
    """Milliseconds of CPU per start, in all and by phase."""
    total = 0
    by_phase = dict.fromkeys((name for name, _ in PHASES), 0)
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as directory:
            data = os.path.join(directory, "perf.data")
            path = os.path.join(directory, "control.sock")
            record = subprocess.Popen(
                ["perf", "record", "-q", "-F", str(FREQUENCY), "-e", "cpu-clock", "-g", "-o", data, "--",
                 binary, "run", "--socket", path, "--state-dir", os.path.join(directory, "state")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                wait_for_unix_socket(path)
            finally:
                subprocess.run(["pkill", "-TERM", "-f", f"run --socket {path}"], check=False)
                record.wait(30)
            script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym"], capture_output=True, text=True).stdout
            for sample in filter(str.strip, script.split("\n\n")):
                total += 1
                for name, pattern in PHASES:
                    if re.search(pattern, sample):
                        by_phase[name] += 1
    per_run = 1000 / FREQUENCY / runs
    return total * per_run, {name: count * per_run for name, count in by_phase.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args()
    if not shutil.which("perf"):
        print("error: perf is not installed (apt-get install linux-perf)", file=sys.stderr)
        return 1
    results = [(binary, *profile(binary, options.runs)) for binary in options.binaries]
    print(f"CPU per start, ms (all threads, {options.runs} starts each, {FREQUENCY} Hz)")
    for index, (binary, _, _) in enumerate(results, start=1):
        print(f"  #{index}: {binary}")
    print(f"{'phase':24s}" + "".join(f"{'#' + str(index):>8s}" for index in range(1, len(results) + 1)))
    print(f"{'in all':24s}" + "".join(f"{total:8.1f}" for _, total, _ in results))
    for name, _ in PHASES:
        print(f"{name:24s}" + "".join(f"{phases[name]:8.1f}" for _, _, phases in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
