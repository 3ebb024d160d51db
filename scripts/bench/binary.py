#!/usr/bin/env python3
"""The release binary: stripped size, what it links, and start-up time to socket ready.

`--check` only checks (for `make check-binary` and CI): no ICU and no FoundationNetworking in the
binary, and the stripped size within the limit; it exits 1 naming what it found.
Start-up: from spawning `beaconctl run --socket PATH` (idle) to the first successful connect on
that socket, median over --runs runs. Usage: binary.py [--check] [--runs N] [--binary PATH]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from benchlib import binary_path, emit, log, median, percentile, wait_for_unix_socket

SIZE_LIMIT = 25_000_000
# ICU's C++ namespace (icu_76::...) and its data blob (icudt76_dat); the Foundation modules built on it.
FORBIDDEN_SYMBOLS = re.compile(r"icu_\d\d|icudt\d+_dat|FoundationInternationalization|FoundationNetworking")
FORBIDDEN_LIBRARIES = re.compile(r"icu|FoundationInternationalization|FoundationNetworking|libFoundation\.so")


def stripped_size(binary):
    with tempfile.TemporaryDirectory() as directory:
        stripped = os.path.join(directory, "beaconctl")
        subprocess.run(["strip", "-o", stripped, binary], check=True)
        return os.path.getsize(stripped)


def forbidden(binary):
    """What of ICU or FoundationNetworking the binary carries: symbols (static) and needed libraries (dynamic)."""
    symbols = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True).stdout
    found = sorted({match.group(0) for match in FORBIDDEN_SYMBOLS.finditer(symbols)})
    dynamic = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)
    found += [library for library in needed if FORBIDDEN_LIBRARIES.search(library)]
    return found, needed


def startup_ms(binary, runs):
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "control.sock")
            began = time.perf_counter()
            process = subprocess.Popen([binary, "run", "--socket", path, "--state-dir", os.path.join(directory, "state")],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                wait_for_unix_socket(path)
                times.append((time.perf_counter() - began) * 1000)
            finally:
                process.terminate()
                process.wait(10)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--binary")
    options = parser.parse_args()
    binary = binary_path(options.binary)
    size = stripped_size(binary)
    found, needed = forbidden(binary)
    if options.check:
        problems = [f"links {name}" for name in found]
        if size > SIZE_LIMIT:
            problems.append(f"stripped size {size} bytes is over {SIZE_LIMIT}")
        for problem in problems:
            print(f"error: {binary}: {problem}", file=sys.stderr)
        if problems:
            sys.exit(1)
        print(f"check-binary: {binary}: no ICU, no FoundationNetworking, {size / 1e6:.1f} MB stripped")
        return
    times = startup_ms(binary, options.runs)
    result = {"stripped_bytes": size, "stripped_mb": round(size / 1e6, 2), "forbidden": found, "needed": needed,
              "startup_runs": options.runs, "startup_median_ms": round(median(times), 2),
              "startup_p90_ms": round(percentile(times, 0.9), 2)}
    log(f"binary: {result['stripped_mb']} MB stripped, forbidden: {found or 'none'}, start to socket ready "
        f"median {result['startup_median_ms']} ms over {options.runs} runs")
    emit(result)


if __name__ == "__main__":
    main()
