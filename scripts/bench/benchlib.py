"""Shared pieces of the end-to-end benchmarks: a loopback HTTP sink that serves metadata and
records beacons, the beaconctl daemon under test, and /proc sampling.

Everything listens on loopback only; every wait is bounded.
"""
import asyncio
import collections
import json
import os
import shutil
import socket
import statistics
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_BINARY = os.path.join(REPO, ".build", "release", "beaconctl")
# 2023-01-31T03:25:34.076Z, where the captured sample's first ad break starts.
PROGRAM_START = 1_675_135_534_076
PLAYBACK_TYPES = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
                  "creativeView", "progress", "loaded", "breakStart", "breakEnd"]


def log(message):
    print(message, file=sys.stderr, flush=True)


def binary_path(argv_binary=None):
    path = argv_binary or os.environ.get("BEACONCTL", DEFAULT_BINARY)
    if not os.access(path, os.X_OK):
        sys.exit(f"no beaconctl binary at {path}: run `make release` first")
    return path


def wait_for_unix_socket(path, limit=10):
    """Returns once a connection to the Unix socket `path` is accepted; RuntimeError after `limit` s."""
    began = time.perf_counter()
    while True:
        if time.perf_counter() - began > limit:
            raise RuntimeError(f"the control socket was not ready within {limit} s")
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(path)
                return
            except OSError:
                time.sleep(0.0002)


def percentile(values, fraction):
    """Nearest-rank percentile of `values` (fraction in 0...1)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(round(fraction * len(ordered) + 0.5))))
    return ordered[rank - 1]


def median(values):
    return statistics.median(values)


class Sink:
    """One loopback HTTP/1.1 server (keep-alive) on one or more 127.0.0.x addresses.

    `/metadata...` answers `metadata` (bytes, swappable); any other path is a beacon: its
    arrival time (time.perf_counter) is recorded under its request target, and waiters wake.
    TCP connections are counted per address.
    """

    def __init__(self, hosts=("127.0.0.1",)):
        self.hosts = list(hosts)
        self.port = None
        self.metadata = b'{"dataRange": {"start": 0, "end": 0}}'
        self.metadata_served = []          # perf_counter of each metadata response
        self.on_metadata = None            # called with the time just before a metadata body is sent
        self.arrivals = {}                 # request target -> perf_counter of its first arrival
        self.requests = 0
        self.connections = collections.Counter()
        self._servers = []
        self._waiters = {}

    async def start(self):
        # One port for every address, so a signaling URL differs only by its host.
        for attempt in range(20):
            port = _free_port()
            try:
                for host in self.hosts:
                    server = await asyncio.get_running_loop().create_server(
                        lambda host=host: _SinkProtocol(self, host), host, port, reuse_address=True)
                    self._servers.append(server)
                self.port = port
                return self
            except OSError:
                await self.close()
        raise RuntimeError("no free port for the sink")

    async def close(self):
        for server in self._servers:
            server.close()
        for server in self._servers:
            await server.wait_closed()
        self._servers = []

    def url(self, path, host=None):
        return f"http://{host or self.hosts[0]}:{self.port}{path}"

    def reset_counts(self):
        self.connections.clear()
        self.requests = 0

    async def arrival(self, target, timeout):
        if target in self.arrivals:
            return self.arrivals[target]
        future = asyncio.get_running_loop().create_future()
        self._waiters[target] = future
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiters.pop(target, None)

    async def wait_for_requests(self, count, timeout):
        deadline = time.monotonic() + timeout
        while len(self.arrivals) < count and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        return len(self.arrivals) >= count

    def _respond(self, target, now):
        if target.startswith(b"/metadata"):
            if self.on_metadata:
                self.on_metadata(now)
            self.metadata_served.append(now)
            return self.metadata
        self.requests += 1
        key = target.decode()
        if key not in self.arrivals:
            self.arrivals[key] = now
            waiter = self._waiters.get(key)
            if waiter and not waiter.done():
                waiter.set_result(now)
        return b""


class _SinkProtocol(asyncio.Protocol):
    def __init__(self, sink, host):
        self.sink = sink
        self.host = host
        self.buffer = b""

    def connection_made(self, transport):
        self.transport = transport
        self.sink.connections[self.host] += 1

    def data_received(self, data):
        now = time.perf_counter()
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buffer = self.buffer[:end], self.buffer[end + 4:]
            parts = head.split(b"\r\n", 1)[0].split(b" ")
            if len(parts) < 2:
                self.transport.close()
                return
            body = self.sink._respond(parts[1], now)
            self.transport.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                                 % (len(body), body))


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def document(pods, data_range):
    """A metadata body in the wire format; `pods` are (id, start, ads) with ads (id, start, duration, events),
    events (type, start, duration, urls)."""
    return json.dumps({
        "dataRange": {"start": data_range[0], "end": data_range[1]},
        "adBreaks": [{
            "id": pod_id, "startTime": start,
            "duration": sum(ad[2] for ad in ads),
            "ads": [{"id": ad_id, "startTime": ad_start, "duration": duration,
                     "trackingEvents": [{"event": kind, "startTime": event_start, "duration": event_duration,
                                         "signalingUrls": urls} for kind, event_start, event_duration, urls in events]}
                    for ad_id, ad_start, duration, events in ads],
        } for pod_id, start, ads in pods],
    }, separators=(",", ":")).encode()


def standard_ad(ad_id, start, duration, url):
    """A 30 s-style ad: an impression spanning it, start, quartiles and complete; `url(type)` names each beacon."""
    offsets = {"impression": 0, "start": 0, "firstQuartile": duration // 4, "midpoint": duration // 2,
               "thirdQuartile": duration * 3 // 4, "complete": duration}
    events = [(kind, start + offset, duration if kind == "impression" else 0, [url(kind)])
              for kind, offset in offsets.items()]
    return (ad_id, start, duration, events)


def burst_ads(sink, hosts, beacons, start):
    """Ads of 10 events each, `beacons` signaling URLs in all spread over `hosts`, every event
    within 13 s of `start`: played already when a late refresh brings them, so all due at once."""
    per_ad = 10
    ads = []
    for ad in range((beacons + per_ad - 1) // per_ad):
        ad_start = start + 100 * (ad % 100)
        events = []
        for slot in range(min(per_ad, beacons - ad * per_ad)):
            number = ad * per_ad + slot
            url = sink.url(f"/beacon?n={number}", hosts[number % len(hosts)])
            events.append((PLAYBACK_TYPES[slot], ad_start + 200 * slot, 0, [url]))
        ads.append((f"ad-{ad}", ad_start, 30_000, events))
    return ads


class Daemon:
    """`beaconctl run` with a private control socket and journal, stdin piped, stderr to a file."""

    def __init__(self, binary, args, stdin=True):
        self.binary = binary
        self.args = args
        self.stdin = stdin
        self.directory = tempfile.mkdtemp(prefix="beaconctl-bench-")
        os.chmod(self.directory, 0o700)
        self.socket = os.path.join(self.directory, "control.sock")
        self.process = None

    async def __aenter__(self):
        self.stderr = open(os.path.join(self.directory, "stderr.log"), "wb")
        arguments = ["run", "--socket", self.socket, "--state-dir", os.path.join(self.directory, "state")] + self.args + (["--stdin"] if self.stdin else [])
        self.process = await asyncio.create_subprocess_exec(
            self.binary, *arguments, stdin=asyncio.subprocess.PIPE if self.stdin else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=self.stderr)
        return self

    async def __aexit__(self, *error):
        if self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()
        self.stderr.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    async def write_line(self, line):
        """Writes one input line; returns the perf_counter just before the write."""
        data = line.encode() + b"\n"
        sent = time.perf_counter()
        self.process.stdin.write(data)
        await self.process.stdin.drain()
        return sent

    async def status(self, timeout=5):
        reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(self.socket, limit=64 << 20), timeout)
        try:
            writer.write(b"status\n")
            await writer.drain()
            return json.loads(await asyncio.wait_for(reader.readline(), timeout))
        finally:
            writer.close()

    async def wait_until(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if predicate(await self.status()):
                    return
            except (OSError, ValueError, asyncio.TimeoutError):
                pass
            await asyncio.sleep(0.02)
        raise RuntimeError(f"timed out waiting for {what}")


class ProcessSample:
    """Resident memory and CPU time of a process, read from /proc."""
    CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

    def __init__(self, pid):
        fields = {}
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        self.rss_kib = int(fields["VmRSS"].split()[0])
        self.hwm_kib = int(fields["VmHWM"].split()[0])
        # Anonymous memory is the process's own; file pages (code, libraries) are shared and reclaimable.
        self.anon_kib = int(fields["RssAnon"].split()[0])
        self.file_kib = int(fields["RssFile"].split()[0])
        self.threads = int(fields["Threads"])
        with open(f"/proc/{pid}/stat") as stat:
            parts = stat.read().rsplit(")", 1)[1].split()
        self.cpu_seconds = (int(parts[11]) + int(parts[12])) / self.CLOCK_TICKS
        self.time = time.monotonic()


def cpu_milliseconds(pid):
    """CPU time of a process's live threads, in milliseconds, from each thread's schedstat (in ns,
    where /proc/PID/stat counts 10 ms ticks): fine enough for a burst of a tenth of a second."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{thread}/schedstat") as schedstat:
                total += int(schedstat.read().split()[0])
        except OSError:
            pass  # the thread ended between the listing and the read
    return total / 1e6


def emit(result):
    """Prints a benchmark's figures as one JSON document on stdout."""
    json.dump(result, sys.stdout, indent=2)
    print()
