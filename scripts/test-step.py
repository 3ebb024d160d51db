#!/usr/bin/env python3
"""Runs one step of `make test` under an outer time limit: `test-step.py NAME SECONDS COMMAND...`.

The command runs in a session of its own. When it outlives SECONDS, every process of that
session ends (SIGTERM, then SIGKILL): `swift test`, the test process it starts (which leaves
swift test's process group, so killing the group is not enough) and the daemons the end-to-end
tests start. The same happens when this script is itself stopped (SIGTERM, SIGINT, SIGHUP). A thread blocked in poll(-1) ignores task cancellation and Swift Testing's own
`.timeLimit`; this limit does not depend on anything inside the process. Processes still left in
the session when the command returns on time end too, and are named: a test leaked them.

Exit status: the command's own, or 124 when it ran past its limit.
"""
import os
import signal
import subprocess
import sys
import time


def session_members(session_id):
    """The pids of the live processes in session `session_id`, read from /proc."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                # The command name is in parentheses and may hold spaces; fields after it are plain.
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # A zombie is over already: it waits only for its parent to reap it.
        if int(fields[3]) == session_id and fields[0] != "Z":
            members.append(int(entry))
    return members


def describe(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()[:160]
    except OSError:
        return "?"


def end_session(session_id, grace_seconds=5):
    """Ends every process of the session: SIGTERM, then SIGKILL after `grace_seconds`."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        members = session_members(session_id)
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + grace_seconds
        while time.monotonic() < deadline and session_members(session_id):
            time.sleep(0.1)


def main():
    if len(sys.argv) < 4:
        print("usage: test-step.py NAME SECONDS COMMAND...", file=sys.stderr)
        return 2
    name, limit, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    started = time.monotonic()
    child = subprocess.Popen(command, start_new_session=True)

    def stopped(signum, _frame):
        # Stopped itself (make interrupted, a CI run cancelled): the step's processes end too,
        # rather than live on as orphans, daemons idling forever among them.
        end_session(child.pid, grace_seconds=1)
        sys.exit(128 + signum)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stopped)
    try:
        status = child.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        stuck = [f"{pid} {describe(pid)}" for pid in session_members(child.pid)]
        print(f"error: test step '{name}' ran past its limit of {limit:.0f} s; ending its processes:", file=sys.stderr)
        for line in stuck:
            print(f"  {line}", file=sys.stderr)
        end_session(child.pid)
        child.wait()
        return 124
    leftovers = session_members(child.pid)
    if leftovers:
        print(f"warning: test step '{name}' left {len(leftovers)} processes running; ending them:", file=sys.stderr)
        for pid in leftovers:
            print(f"  {pid} {describe(pid)}", file=sys.stderr)
        end_session(child.pid)
    # A command ended by a signal exits as a shell would report it.
    status = 128 - status if status < 0 else status
    print(f"test step '{name}': exit {status} after {time.monotonic() - started:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
