#!/usr/bin/env python3
"""A loopback OpenTelemetry collector double for the end-to-end tests of the telemetry reporter.

    .build/otlp-venv/bin/python scripts/otlp-collector/collector.py --port 0

listens on 127.0.0.1 (port 0: any free one) and prints `listening PORT` as its first line. It
takes OTLP/HTTP exports, `POST /v1/logs` and `POST /v1/metrics`, gzip or not, in JSON (or binary
protobuf), and parses each with the official OTLP definitions (opentelemetry-proto) through
protobuf's own parser, after checking what that parser lets through (otlp_rules.py). A request
that breaks a rule or does not parse is answered 400, with the violations in its JSON body.

Every request is recorded; tests read, over HTTP:
    GET /requests          every request: path, headers (names lower-cased), bytes on the wire
                           and decompressed, violations, the status answered, the message
    GET /logs, /metrics    the log records and data points (otlp_views.py) of the accepted
                           requests (answered 2xx); `?all=1` for those of every parsed request,
                           `?typed=1` for values tagged with their OTLP type
    POST /reset            forgets the requests and the script, lets hanging requests go
    POST /control          {"answers": [ANSWER, ...]} replaces the queue of answers for the next
                           valid export requests (then 200 with an empty response, `{}`);
                           {"hang": false} lets every hanging request go (it is answered 200)
An ANSWER is {"status": 503, "retryAfter": "2"}, {"status": 200, "partialSuccess": {"rejected":
2, "message": "..."}}, or {"hang": true} (the request is read and never answered until the double
stops or the control lets it go); "path": "/v1/logs" makes it wait for a request of that path.
An invalid request takes no answer from the queue: it is answered 400.

Needs the interpreter of .build/otlp-venv (scripts/otlp-venv.sh makes it).
"""
import argparse
import gzip
import json
import signal
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

try:
    from google.protobuf import json_format
    from google.protobuf.message import DecodeError
    from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
    from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
except ImportError as error:
    sys.exit(f"collector.py: {error}: run it with .build/otlp-venv/bin/python (scripts/otlp-venv.sh makes it)")

import otlp_rules
import otlp_views


class Signal:
    """One export path: its request and response messages, and its view of the records."""

    def __init__(self, path, view, request_type, response_type, rejected_field, flatten):
        self.path = path
        self.view = view
        self.request_type = request_type
        self.response_type = response_type
        self.rejected_field = rejected_field
        self.flatten = flatten


SIGNALS = {signal.path: signal for signal in [
    Signal(
        "/v1/logs", "logs", logs_service_pb2.ExportLogsServiceRequest, logs_service_pb2.ExportLogsServiceResponse,
        "rejected_log_records", otlp_views.log_records),
    Signal(
        "/v1/metrics", "metrics", metrics_service_pb2.ExportMetricsServiceRequest, metrics_service_pb2.ExportMetricsServiceResponse,
        "rejected_data_points", otlp_views.metric_points),
]}

JSON = "application/json"
PROTOBUF = "application/x-protobuf"
ANSWER_KEYS = {"status", "retryAfter", "partialSuccess", "hang", "path"}


class BadRequest(Exception):
    pass


def answer_problems(answer):
    """What is wrong with a scripted answer, or None."""
    if not isinstance(answer, dict):
        return f"an answer must be an object, not {answer!r}"
    unknown = set(answer) - ANSWER_KEYS
    if unknown:
        return f"unknown keys {sorted(unknown)} in {answer!r}"
    status = answer.get("status", 200)
    if type(status) is not int or not 100 <= status <= 599:
        return f"a status must be an integer HTTP status, not {status!r}"
    partial = answer.get("partialSuccess")
    if partial is not None and (not isinstance(partial, dict) or set(partial) - {"rejected", "message"}
                                or type(partial.get("rejected", 0)) is not int):
        return f'partialSuccess takes {{"rejected": N, "message": "..."}}, not {partial!r}'
    return None


class Collector:
    """What the double received, and how it answers next; shared by the handler threads."""

    def __init__(self):
        self._state = threading.Condition()
        self._requests = []
        # (the request's entry, parsed message) per signal, flattened when read: accepted is the
        # request's status then, and the reader chooses plain or typed values.
        self._messages = {signal.view: [] for signal in SIGNALS.values()}
        self._script = []
        # Raised to let every request hanging so far go; `closed` drops them unanswered.
        self._releases = 0
        self._closed = False

    # A handler keeps its request's entry, not its index: a reset meanwhile starts a new list, and
    # what the handler still does to the old entry reaches no request of the new one.
    def record(self, entry):
        with self._state:
            entry["index"] = len(self._requests)
            self._requests.append(entry)
            return entry

    def _current(self, entry):
        index = entry["index"]
        return index < len(self._requests) and self._requests[index] is entry

    def add_message(self, signal, entry, message):
        with self._state:
            if self._current(entry):
                self._messages[signal.view].append((entry, message))

    def answered(self, entry, status):
        with self._state:
            entry["status"] = status

    def take_answer(self, entry, path):
        """The first scripted answer for `path`, taken off the queue and recorded with `entry`;
        {} (200, an empty response) when there is none."""
        with self._state:
            if not self._current(entry):
                return {}
            answer = next((answer for answer in self._script if answer.get("path", path) == path), None)
            if answer is None:
                return {}
            self._script.remove(answer)
            entry["answer"] = answer
            return answer

    def hang(self):
        """Waits until the control lets hanging requests go (True) or the double stops (False)."""
        with self._state:
            releases = self._releases
            self._state.wait_for(lambda: self._releases != releases or self._closed)
            return not self._closed

    def control(self, command):
        if not isinstance(command, dict) or set(command) - {"answers", "hang"}:
            raise BadRequest('control takes {"answers": [...]} and/or {"hang": false}')
        answers = command.get("answers")
        if answers is not None:
            if not isinstance(answers, list):
                raise BadRequest("answers must be a list")
            problems = [problem for problem in map(answer_problems, answers) if problem]
            if problems:
                raise BadRequest("; ".join(problems))
        if "hang" in command and command["hang"] is not False:
            raise BadRequest('the control only says {"hang": false}: an answer says {"hang": true}')
        with self._state:
            if answers is not None:
                self._script = list(answers)
            if "hang" in command:
                self._releases += 1
                self._state.notify_all()
            return {"queued": len(self._script)}

    def reset(self):
        with self._state:
            self._requests = []
            self._messages = {view: [] for view in self._messages}
            self._script = []
            self._releases += 1
            self._state.notify_all()

    def close(self):
        with self._state:
            self._closed = True
            self._state.notify_all()

    def requests_json(self):
        with self._state:
            return json.dumps([dict(entry, accepted=_accepted(entry)) for entry in self._requests])

    def view_json(self, signal, every, typed):
        with self._state:
            entries = []
            for request, message in self._messages[signal.view]:
                accepted = _accepted(request)
                if accepted or every:
                    entries.extend(
                        dict(entry, request=request["index"], accepted=accepted) for entry in signal.flatten(message, typed))
            return json.dumps(entries)


def _accepted(request):
    status = request.get("status")
    return status is not None and 200 <= status < 300


def _flag(query, name):
    return query.get(name, ["0"])[0] not in ("0", "false")


def _media_type(value):
    return value.split(";", 1)[0].strip().lower()


def _strict_json(text):
    """Decodes JSON, refusing a key twice in one object and the non-JSON NaN and Infinity."""
    def pairs(items):
        result = {}
        for key, value in items:
            if key in result:
                raise ValueError(f"the key {key!r} appears twice in one object")
            result[key] = value
        return result

    def constant(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)


def parse_export(signal, content_type, content_encoding, wire):
    """(encoding, decompressed body, message or None, violations) of one export request."""
    violations = []
    body = wire
    coding = content_encoding.strip().lower()
    if coding == "gzip":
        try:
            body = gzip.decompress(wire)
        except (OSError, EOFError, zlib.error) as error:
            return None, wire, None, [f"Content-Encoding: gzip, but the body is not gzip: {error}"]
    elif coding not in ("", "identity"):
        return None, wire, None, [f"Content-Encoding {content_encoding!r}: OTLP/HTTP knows gzip only"]
    media = _media_type(content_type)
    message = signal.request_type()
    if media == JSON:
        encoding = "json"
        try:
            document = _strict_json(body.decode("utf-8"))
        except ValueError as error:
            return encoding, body, None, [f"not JSON: {error}"]
        violations, converted = otlp_rules.check_json(document, message.DESCRIPTOR)
        if violations:
            return encoding, body, None, violations
        try:
            json_format.ParseDict(converted, message, ignore_unknown_fields=False)
        except json_format.ParseError as error:
            return encoding, body, None, [f"protobuf's JSON parser: {error}"]
    elif media == PROTOBUF:
        encoding = "protobuf"
        try:
            message.ParseFromString(body)
        except DecodeError as error:
            return encoding, body, None, [f"not a {message.DESCRIPTOR.name}: {error}"]
    else:
        return None, body, None, [f"Content-Type {content_type!r}: expected {JSON} (or {PROTOBUF})"]
    violations = otlp_rules.duplicate_attribute_keys(message)
    return encoding, body, (None if violations else message), violations


class Handler(BaseHTTPRequestHandler):
    # Persistent connections, as the reporter's HTTP client keeps them.
    protocol_version = "HTTP/1.1"
    server_version = "otlp-collector-double"

    def log_message(self, format, *args):
        # Quiet: the tests read what happened from /requests.
        pass

    @property
    def collector(self):
        return self.server.collector

    def _read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline(1024).split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline(65536) not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline(1024)
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _send(self, status, body, content_type=JSON, headers=()):
        payload = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def _headers(self):
        headers = {}
        for name, value in self.headers.items():
            name = name.lower()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        return headers

    def do_GET(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        views = {signal.view: signal for signal in SIGNALS.values()}
        if url.path == "/requests":
            self._send(200, self.collector.requests_json())
        elif url.path[1:] in views:
            self._send(200, self.collector.view_json(views[url.path[1:]], _flag(query, "all"), _flag(query, "typed")))
        else:
            self._send(404, json.dumps({"message": f"no {url.path}"}))

    def do_POST(self):
        url = urlsplit(self.path)
        if url.path in SIGNALS:
            self._export(SIGNALS[url.path])
            return
        body = self._read_body()
        if url.path == "/control":
            try:
                self._send(200, json.dumps(self.collector.control(json.loads(body or b"{}"))))
            except (ValueError, BadRequest) as error:
                self._send(400, json.dumps({"message": str(error)}))
        elif url.path == "/reset":
            self.collector.reset()
            self._send(200, "{}")
        else:
            # Recorded: a sender that posts to a wrong path is what a test wants to see.
            headers = self._headers()
            self.collector.answered(self.collector.record({
                "method": "POST", "path": url.path, "headers": headers, "encoding": None,
                "wireBytes": len(body), "bodyBytes": len(body), "receivedAt": time.time(),
                "violations": [f"POST {url.path}: OTLP/HTTP exports go to /v1/logs and /v1/metrics"],
                "answer": None, "status": None, "message": None}), 404)
            self._send(404, json.dumps({"message": f"no {url.path}"}))

    def _export(self, signal):
        wire = self._read_body()
        headers = self._headers()
        encoding, body, message, violations = parse_export(
            signal, headers.get("content-type", ""), headers.get("content-encoding", ""), wire)
        entry = {
            "method": "POST", "path": signal.path, "headers": headers, "encoding": encoding,
            "wireBytes": len(wire), "bodyBytes": len(body), "receivedAt": time.time(), "violations": violations,
            "answer": None, "status": None, "message": otlp_views.message_dict(message) if message is not None else None,
        }
        self.collector.record(entry)
        if violations:
            self.collector.answered(entry, 400)
            self._send(400, json.dumps({"message": "; ".join(violations), "violations": violations}))
            return
        self.collector.add_message(signal, entry, message)
        answer = self.collector.take_answer(entry, signal.path)
        if answer.get("hang"):
            if not self.collector.hang():
                # The double stops: the request stays unanswered, the connection closes.
                self.close_connection = True
                return
            answer = {}
        self._answer(entry, signal, encoding, answer)

    def _answer(self, entry, signal, encoding, answer):
        status = answer.get("status", 200)
        headers = [("Retry-After", answer["retryAfter"])] if "retryAfter" in answer else []
        self.collector.answered(entry, status)
        if not 200 <= status < 300:
            self._send(status, json.dumps({"message": f"a scripted {status}"}), headers=headers)
            return
        response = signal.response_type()
        partial = answer.get("partialSuccess")
        if partial is not None:
            setattr(response.partial_success, signal.rejected_field, partial.get("rejected", 0))
            response.partial_success.error_message = partial.get("message", "")
        if encoding == "protobuf":
            self._send(status, response.SerializeToString(), PROTOBUF, headers)
        else:
            self._send(status, json_format.MessageToJson(response, indent=None), JSON, headers)


class CollectorServer(ThreadingHTTPServer):
    """The double on 127.0.0.1:`port`; `serve_forever` in a thread of its own, `stop` to end."""
    daemon_threads = True
    # Back on the same port after an outage, with the old connections still in TIME_WAIT.
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, port=0):
        super().__init__(("127.0.0.1", port), Handler)
        self.collector = Collector()

    @property
    def port(self):
        return self.server_address[1]

    def stop(self):
        self.collector.close()
        self.shutdown()
        self.server_close()


def main(arguments=None):
    parser = argparse.ArgumentParser(description="A loopback OTLP/HTTP collector double for the end-to-end tests.")
    parser.add_argument("--port", type=int, default=0, help="the port on 127.0.0.1; 0 (the default) for any free one")
    options = parser.parse_args(arguments)
    # The test process that starts the double blocks these signals, and a child inherits the mask:
    # SIGTERM, an outage in a test, would wait for SIGKILL. Unblocked before any thread starts.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    server = CollectorServer(options.port)
    print(f"listening {server.port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
