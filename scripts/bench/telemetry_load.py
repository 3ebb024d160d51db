#!/usr/bin/env python3
"""What the telemetry reporter costs the box and puts on the wire to a collector.

Runs the burst of burst.py (1 000 beacons due at once, one host) twice on the same binary: with
the telemetry reporter pushing to a loopback collector (log interval 1 s, export interval 5 s)
and without it. For each: the daemon's CPU from serving the late refresh until the audit is
exported (the reporter on) or the last beacon arrived and 3 s passed (off), its resident memory
(peak, and after 10 s idle), and its CPU over those 10 s idle. With the reporter on, the
collector's side: requests, bytes on the wire (gzip) and as JSON, log records, and so the bytes
per beacon and per record. The collector here only counts; the end-to-end tests check the
encoding against the official schema.
Usage: telemetry_load.py [--beacons N] [--binary PATH]
"""
import argparse
import asyncio
import gzip
import json
import time

from benchlib import PROGRAM_START, Daemon, ProcessSample, Sink, binary_path, burst_ads, cpu_milliseconds, document, emit, log


class Collector:
    """An OTLP/HTTP endpoint on loopback that answers 200 and counts what it took."""

    def __init__(self):
        self.requests = {"/v1/logs": 0, "/v1/metrics": 0}
        self.wire_bytes = {"/v1/logs": 0, "/v1/metrics": 0}
        self.json_bytes = {"/v1/logs": 0, "/v1/metrics": 0}
        self.log_records = 0
        self.record_ids = set()

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def close(self):
        self.server.close()
        await self.server.wait_closed()

    async def _serve(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                path = lines[0].split()[1]
                headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:] if line)}
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                data = gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body
                self.requests[path] = self.requests.get(path, 0) + 1
                self.wire_bytes[path] = self.wire_bytes.get(path, 0) + len(body)
                self.json_bytes[path] = self.json_bytes.get(path, 0) + len(data)
                if path == "/v1/logs":
                    for resource in json.loads(data).get("resourceLogs", []):
                        for scope in resource.get("scopeLogs", []):
                            for record in scope.get("logRecords", []):
                                self.log_records += 1
                                for attribute in record.get("attributes", []):
                                    if attribute["key"] == "beaconctl.record.id":
                                        self.record_ids.add(attribute["value"]["stringValue"])
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


async def run(binary, beacons, telemetry):
    service = await Sink().start()
    sink = await Sink().start()
    collector = await Collector().start() if telemetry else None
    start = PROGRAM_START
    service.metadata = document([], (start - 60_000, start + 20_000))
    args = ["--media-url", service.url("/live.m3u8?sessid=telemetry"), "--tracking-url", service.url("/metadata?sessid=telemetry"),
            "--metadata-interval", "0.25"]
    if collector:
        args += ["--telemetry-endpoint", f"http://127.0.0.1:{collector.port}", "--telemetry-log-interval", "1",
                 "--telemetry-export-interval", "5"]
    async with Daemon(binary, args) as daemon:
        await daemon.wait_until(lambda status: status["counters"]["metadataFetches"] >= 1, 10, "first metadata")
        for step in range(-4, 53):
            await daemon.write_line(json.dumps({"playhead": start + 250 * step, "at": 1_700_000_000_000 + 250 * step}))
        await daemon.wait_until(lambda status: status["counters"]["ticks"] >= 57, 10, "ticks")
        if collector:
            await asyncio.sleep(6)  # the first metrics export, so the burst's figures hold the burst alone
            taken_before = collector.log_records
        cpu_before = cpu_milliseconds(daemon.process.pid)
        service.metadata = document([("late-pod", start, burst_ads(sink, ["127.0.0.1"], beacons, start))], (start - 60_000, start + 40_000))
        await sink.wait_for_requests(beacons, timeout=30)
        if collector:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                audit = (await daemon.status()).get("audit", {}).get("records", 0)
                if collector.log_records >= audit:
                    break
                await asyncio.sleep(0.05)
        else:
            await asyncio.sleep(3)
        burst_cpu = cpu_milliseconds(daemon.process.pid) - cpu_before
        peak = ProcessSample(daemon.process.pid)
        idle_before = cpu_milliseconds(daemon.process.pid)
        await asyncio.sleep(10)
        idle_cpu = cpu_milliseconds(daemon.process.pid) - idle_before
        idle = ProcessSample(daemon.process.pid)
        status = await daemon.status()
    await service.close()
    await sink.close()
    result = {
        "telemetry": telemetry,
        "beacons": beacons,
        "burst_daemon_cpu_ms": round(burst_cpu, 1),
        "rss_peak_kib": peak.hwm_kib,
        "rss_after_idle_kib": idle.rss_kib,
        "anon_after_idle_kib": idle.anon_kib,
        "idle_10s_daemon_cpu_ms": round(idle_cpu, 1),
        "audit_records": status.get("audit", {}).get("records"),
    }
    if collector:
        await collector.close()
        records = collector.log_records - taken_before
        result["collector"] = {
            "requests": collector.requests, "wire_bytes": collector.wire_bytes, "json_bytes": collector.json_bytes,
            "log_records": collector.log_records, "distinct_record_ids": len(collector.record_ids),
            "burst_log_records": records,
            "log_wire_bytes_per_beacon": round(collector.wire_bytes["/v1/logs"] / beacons, 1),
            "log_wire_bytes_per_record": round(collector.wire_bytes["/v1/logs"] / max(collector.log_records, 1), 1),
            "log_json_bytes_per_record": round(collector.json_bytes["/v1/logs"] / max(collector.log_records, 1), 1),
            "metrics_wire_bytes_per_export": round(collector.wire_bytes["/v1/metrics"] / max(collector.requests["/v1/metrics"], 1), 1),
        }
    log(json.dumps(result))
    return result


async def measure(binary, beacons):
    return {"off": await run(binary, beacons, False), "on": await run(binary, beacons, True)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beacons", type=int, default=1000)
    parser.add_argument("--binary")
    options = parser.parse_args()
    emit(asyncio.run(measure(binary_path(options.binary), options.beacons)))


if __name__ == "__main__":
    main()
