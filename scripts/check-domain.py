#!/usr/bin/env python3
"""Checks that the domain only decides: no file of Sources/BeaconDomain takes a lock, makes a
stream, starts a task or a thread, or sleeps. Those belong to the runtime, which owns concurrency;
the domain's decisions take the time as input and return what to do. `make test` runs this.

Exit status 1, naming each file, line and construct, when the domain uses one.
"""
import pathlib
import re
import sys

from check_report import report

root = pathlib.Path(__file__).resolve().parent.parent
domain = root / "Sources" / "BeaconDomain"

# What the runtime does and the domain must not, each with a word on why it is here.
FORBIDDEN = {
    r"\bimport\s+(Synchronization|Dispatch|Atomics)\b": "a concurrency library",
    r"\bMutex\b|\bAtomic<|\bNSLock\b|\bpthread_": "a lock",
    r"\bAsync(Throwing)?Stream\b": "a stream",
    r"\bTask\s*(\{|\.detached|\.sleep|<)|\bwith(Throwing)?(Discarding)?TaskGroup\b": "a task or a sleep",
    r"\bThread\b|\bDispatchQueue\b": "a thread",
}
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def problems_in(path):
    # Comments may name what the code must not use; blank them, keeping the line numbers.
    text = COMMENT.sub(lambda match: re.sub(r"[^\n]", " ", match.group(0)), path.read_text())
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern, what in FORBIDDEN.items():
            match = re.search(pattern, line)
            if match:
                found.append(f"{path.relative_to(root)}:{number}: {what} ({match.group(0).strip()}) in the domain")
    return found


def main():
    files = sorted(domain.rglob("*.swift"))
    problems = [problem for path in files for problem in problems_in(path)]
    return report(
        problems, "the domain only decides; locks, streams, tasks, threads and sleeps go in BeaconRuntime",
        lambda: f"check-domain: {len(files)} files of BeaconDomain, no lock, stream, task, thread or sleep")


if __name__ == "__main__":
    sys.exit(main())
