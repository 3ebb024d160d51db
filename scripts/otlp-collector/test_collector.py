"""The collector double itself: what it accepts, what it refuses and why, what it answers when
scripted, and how it flattens what it took. `make test` runs these with the venv's interpreter
(`.build/otlp-venv/bin/python -m unittest discover -s scripts/otlp-collector`).

The requests are written here from the OTLP specification, not produced by any exporter."""
import copy
import gzip
import http.client
import json
import pathlib
import subprocess
import sys
import threading
import unittest

from opentelemetry.proto.collector.logs.v1 import logs_service_pb2

import collector

TRACE_ID = "5B8EFFF798038103D269B633813FC60C"
SPAN_ID = "EEE19B7EC3C1B174"

LOGS = {
    "resourceLogs": [{
        "resource": {"attributes": [
            {"key": "service.name", "value": {"stringValue": "beaconctl"}},
            {"key": "host.name", "value": {"stringValue": "box-1"}},
        ]},
        "scopeLogs": [{
            "scope": {"name": "beaconctl.delivery", "version": "1.2.0"},
            "logRecords": [{
                "timeUnixNano": "1700000000123456789",
                "observedTimeUnixNano": "1700000000223456789",
                "severityNumber": 13,
                "severityText": "WARN",
                "body": {"stringValue": "a beacon failed"},
                "attributes": [
                    {"key": "ad.id", "value": {"stringValue": "ad-7"}},
                    {"key": "http.status", "value": {"intValue": "503"}},
                    {"key": "retried", "value": {"boolValue": True}},
                    {"key": "latency.seconds", "value": {"doubleValue": 0.25}},
                    {"key": "events", "value": {"arrayValue": {"values": [
                        {"stringValue": "start"}, {"intValue": "2"}]}}},
                    {"key": "ad", "value": {"kvlistValue": {"values": [
                        {"key": "break", "value": {"stringValue": "mid"}}]}}},
                ],
                "traceId": TRACE_ID,
                "spanId": SPAN_ID,
            }, {
                "timeUnixNano": "1700000001000000000",
                "severityNumber": 9,
                "body": {"stringValue": "delivered"},
            }],
        }],
    }],
}

METRICS = {
    "resourceMetrics": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "beaconctl"}}]},
        "scopeMetrics": [{
            "scope": {"name": "beaconctl"},
            "metrics": [{
                "name": "beacons.sent",
                "unit": "{beacon}",
                "sum": {
                    "dataPoints": [{
                        "attributes": [{"key": "outcome", "value": {"stringValue": "ok"}}],
                        "startTimeUnixNano": "1700000000000000000",
                        "timeUnixNano": "1700000060000000000",
                        "asInt": "42",
                    }],
                    "aggregationTemporality": 2,
                    "isMonotonic": True,
                },
            }, {
                "name": "queue.depth",
                "gauge": {"dataPoints": [{"timeUnixNano": "1700000060000000000", "asDouble": 3.5}]},
            }, {
                "name": "beacon.latency",
                "unit": "s",
                "histogram": {
                    "dataPoints": [{
                        "startTimeUnixNano": "1700000000000000000",
                        "timeUnixNano": "1700000060000000000",
                        "count": "3",
                        "sum": 1.5,
                        "bucketCounts": ["1", "2", "0"],
                        "explicitBounds": [0.1, 1.0],
                        "min": 0.05,
                        "max": 0.9,
                    }],
                    "aggregationTemporality": 1,
                },
            }],
        }],
    }],
}


def log_record(document):
    """The first log record of a logs request, to change one thing in it."""
    return document["resourceLogs"][0]["scopeLogs"][0]["logRecords"][0]


class CollectorTests(unittest.TestCase):
    def setUp(self):
        self.server = collector.CollectorServer(0)
        # A short poll: stopping waits for it, in every test.
        thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        thread.start()
        self.addCleanup(thread.join, 10)
        self.addCleanup(self.server.stop)

    def exchange(self, method, path, body=b"", headers=None):
        """(status, headers, decoded JSON body) of one request."""
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            text = response.read()
            return response.status, response, json.loads(text) if text else None
        finally:
            connection.close()

    def export(self, path, document, compress=True, content_type="application/json", extra=None):
        body = json.dumps(document).encode("utf-8")
        headers = {"Content-Type": content_type, **(extra or {})}
        if compress:
            body = gzip.compress(body)
            headers["Content-Encoding"] = "gzip"
        return self.exchange("POST", path, body, headers)

    def get(self, path):
        return self.exchange("GET", path)[2]

    def control(self, command):
        status, _, body = self.exchange("POST", "/control", json.dumps(command).encode(), {"Content-Type": "application/json"})
        self.assertEqual(status, 200, body)

    def assertRefused(self, document, fragment, path="/v1/logs"):
        status, _, body = self.export(path, document)
        self.assertEqual(status, 400)
        self.assertTrue(any(fragment in violation for violation in body["violations"]), body)
        request = self.get("/requests")[-1]
        self.assertEqual(request["status"], 400)
        self.assertFalse(request["accepted"])
        self.assertTrue(any(fragment in violation for violation in request["violations"]), request)
        self.assertEqual(self.get("/logs?all=1"), [])

    def test_a_valid_gzip_json_logs_request_is_accepted_and_flattened(self):
        status, response, body = self.export("/v1/logs", LOGS, extra={"X-API-Key": "secret-1"})
        self.assertEqual(status, 200)
        self.assertEqual(response.getheader("Content-Type"), "application/json")
        self.assertEqual(body, {})

        [request] = self.get("/requests")
        self.assertEqual(request["path"], "/v1/logs")
        self.assertEqual(request["headers"]["content-type"], "application/json")
        self.assertEqual(request["headers"]["content-encoding"], "gzip")
        self.assertEqual(request["headers"]["x-api-key"], "secret-1")
        self.assertEqual(request["encoding"], "json")
        self.assertEqual(request["wireBytes"], len(gzip.compress(json.dumps(LOGS).encode())))
        self.assertEqual(request["bodyBytes"], len(json.dumps(LOGS).encode()))
        self.assertEqual(request["violations"], [])
        self.assertEqual(request["status"], 200)
        self.assertTrue(request["accepted"])
        # The message as OTLP/JSON writes it: ids as hex, 64-bit integers as strings.
        recorded = log_record(request["message"])
        self.assertEqual(recorded["traceId"], TRACE_ID.lower())
        self.assertEqual(recorded["spanId"], SPAN_ID.lower())
        self.assertEqual(recorded["timeUnixNano"], "1700000000123456789")

        first, second = self.get("/logs")
        self.assertEqual(first["resourceAttributes"], {"service.name": "beaconctl", "host.name": "box-1"})
        self.assertEqual(first["scope"], {"name": "beaconctl.delivery", "version": "1.2.0", "attributes": {}})
        self.assertEqual(first["timeUnixNano"], 1700000000123456789)
        self.assertEqual(first["observedTimeUnixNano"], 1700000000223456789)
        self.assertEqual(first["severityNumber"], 13)
        self.assertEqual(first["severityText"], "WARN")
        self.assertEqual(first["body"], "a beacon failed")
        self.assertEqual(first["attributes"], {
            "ad.id": "ad-7", "http.status": 503, "retried": True, "latency.seconds": 0.25,
            "events": ["start", 2], "ad": {"break": "mid"}})
        self.assertEqual(first["traceId"], TRACE_ID.lower())
        self.assertEqual(first["spanId"], SPAN_ID.lower())
        self.assertEqual((first["request"], first["accepted"]), (0, True))
        self.assertEqual(second["observedTimeUnixNano"], 0)
        self.assertEqual(second["severityText"], "")
        self.assertEqual(second["attributes"], {})
        self.assertEqual((second["traceId"], second["spanId"]), ("", ""))

    def test_an_uncompressed_request_is_accepted_too(self):
        status, _, _ = self.export("/v1/logs", LOGS, compress=False)
        self.assertEqual(status, 200)
        [request] = self.get("/requests")
        self.assertNotIn("content-encoding", request["headers"])
        self.assertEqual(request["wireBytes"], request["bodyBytes"])

    def test_a_snake_case_key_is_refused_though_protobuf_would_take_it(self):
        document = copy.deepcopy(LOGS)
        record = log_record(document)
        record["time_unix_nano"] = record.pop("timeUnixNano")
        self.assertRefused(document, "lowerCamelCase: 'timeUnixNano'")

    def test_an_unknown_key_is_refused(self):
        document = copy.deepcopy(LOGS)
        log_record(document)["severity"] = 9
        self.assertRefused(document, "has no field 'severity'")

    def test_an_enum_given_by_name_is_refused(self):
        document = copy.deepcopy(LOGS)
        log_record(document)["severityNumber"] = "SEVERITY_NUMBER_WARN"
        self.assertRefused(document, "the enum SeverityNumber must be an integer")

    def test_a_64_bit_integer_given_as_a_number_is_refused(self):
        document = copy.deepcopy(LOGS)
        log_record(document)["timeUnixNano"] = 1700000000123456789
        self.assertRefused(document, "a 64-bit integer must be a decimal string")
        document = copy.deepcopy(LOGS)
        log_record(document)["attributes"][1]["value"]["intValue"] = 503
        self.assertRefused(document, "a 64-bit integer must be a decimal string")

    def test_a_trace_id_that_is_not_32_hex_digits_is_refused(self):
        document = copy.deepcopy(LOGS)
        log_record(document)["traceId"] = "5B8EFFF798038103D269B633813FC6XZ"
        self.assertRefused(document, "an id must be 32 hex digits")
        # Base64 of the 16 bytes, as protobuf's own JSON mapping would write it.
        document = copy.deepcopy(LOGS)
        log_record(document)["traceId"] = "W47/95gDgQPSabYzgT/GDA=="
        self.assertRefused(document, "an id must be 32 hex digits")
        document = copy.deepcopy(LOGS)
        log_record(document)["spanId"] = SPAN_ID + "00"
        self.assertRefused(document, "an id must be 16 hex digits")

    def test_a_body_that_claims_gzip_and_is_not_is_refused(self):
        status, _, body = self.exchange(
            "POST", "/v1/logs", json.dumps(LOGS).encode(), {"Content-Type": "application/json", "Content-Encoding": "gzip"})
        self.assertEqual(status, 400)
        self.assertIn("not gzip", body["message"])

    def test_another_content_type_is_refused(self):
        status, _, body = self.export("/v1/logs", LOGS, content_type="text/plain")
        self.assertEqual(status, 400)
        self.assertIn("expected application/json", body["message"])

    def test_an_attribute_key_given_twice_is_refused(self):
        document = copy.deepcopy(LOGS)
        attributes = log_record(document)["attributes"]
        attributes.append(copy.deepcopy(attributes[0]))
        self.assertRefused(document, "the key 'ad.id' appears 2 times")

    def test_a_binary_protobuf_request_is_parsed_and_recorded_as_such(self):
        request = logs_service_pb2.ExportLogsServiceRequest()
        record = request.resource_logs.add().scope_logs.add().log_records.add()
        record.time_unix_nano = 1700000000123456789
        record.body.string_value = "binary"
        record.trace_id = bytes.fromhex(TRACE_ID)
        status, response, body = self.exchange(
            "POST", "/v1/logs", request.SerializeToString(), {"Content-Type": "application/x-protobuf"})
        self.assertEqual(status, 200)
        self.assertEqual(response.getheader("Content-Type"), "application/x-protobuf")
        self.assertEqual(self.get("/requests")[0]["encoding"], "protobuf")
        [flat] = self.get("/logs")
        self.assertEqual((flat["body"], flat["traceId"]), ("binary", TRACE_ID.lower()))

    def test_a_scripted_503_has_its_retry_after_and_its_records_are_not_accepted(self):
        self.control({"answers": [{"status": 503, "retryAfter": "2"}]})
        status, response, _ = self.export("/v1/logs", LOGS)
        self.assertEqual(status, 503)
        self.assertEqual(response.getheader("Retry-After"), "2")
        self.assertEqual(self.get("/logs"), [])
        self.assertEqual([flat["accepted"] for flat in self.get("/logs?all=1")], [False, False])
        # The queue is empty again: the retry is taken.
        status, _, body = self.export("/v1/logs", LOGS)
        self.assertEqual((status, body), (200, {}))
        self.assertEqual([flat["request"] for flat in self.get("/logs")], [1, 1])
        self.assertEqual([(request["status"], request["accepted"]) for request in self.get("/requests")], [(503, False), (200, True)])
        self.assertEqual(self.get("/requests")[0]["answer"], {"status": 503, "retryAfter": "2"})

    def test_a_partial_success_is_answered_as_the_response_message(self):
        self.control({"answers": [{"status": 200, "partialSuccess": {"rejected": 2, "message": "too old"}}]})
        status, _, body = self.export("/v1/logs", LOGS)
        self.assertEqual(status, 200)
        self.assertEqual(body, {"partialSuccess": {"rejectedLogRecords": "2", "errorMessage": "too old"}})
        self.control({"answers": [{"partialSuccess": {"rejected": 1}}]})
        status, _, body = self.export("/v1/metrics", METRICS)
        self.assertEqual((status, body), (200, {"partialSuccess": {"rejectedDataPoints": "1"}}))

    def test_an_answer_for_one_path_waits_for_a_request_of_that_path(self):
        self.control({"answers": [{"status": 500, "path": "/v1/metrics"}]})
        self.assertEqual(self.export("/v1/logs", LOGS)[0], 200)
        self.assertEqual(self.export("/v1/metrics", METRICS)[0], 500)

    def test_an_invalid_request_takes_no_scripted_answer(self):
        self.control({"answers": [{"status": 503}]})
        document = copy.deepcopy(LOGS)
        log_record(document)["severityNumber"] = "SEVERITY_NUMBER_WARN"
        self.assertEqual(self.export("/v1/logs", document)[0], 400)
        self.assertEqual(self.export("/v1/logs", LOGS)[0], 503)

    def test_a_hanging_request_is_answered_once_the_control_lets_it_go(self):
        self.control({"answers": [{"hang": True}]})
        result = {}
        thread = threading.Thread(target=lambda: result.update(status=self.export("/v1/logs", LOGS)[0]))
        thread.start()
        thread.join(0.5)
        self.assertTrue(thread.is_alive())
        [request] = self.get("/requests")
        self.assertEqual((request["status"], request["answer"]), (None, {"hang": True}))
        self.assertEqual(self.get("/logs"), [])
        self.control({"hang": False})
        thread.join(10)
        self.assertEqual(result, {"status": 200})
        self.assertEqual(len(self.get("/logs")), 2)

    def test_a_reset_lets_a_hanging_request_go_without_touching_the_requests_after_it(self):
        self.control({"answers": [{"hang": True}]})
        result = {}
        thread = threading.Thread(target=lambda: result.update(status=self.export("/v1/logs", LOGS)[0]))
        thread.start()
        while not self.get("/requests"):
            thread.join(0.02)
        self.assertEqual(self.exchange("POST", "/reset")[0], 200)
        thread.join(10)
        self.assertEqual(result, {"status": 200})
        self.assertEqual(self.get("/requests"), [])
        self.assertEqual(self.get("/logs?all=1"), [])

    def test_a_scripted_answer_that_makes_no_sense_is_refused(self):
        for command in ({"answers": [{"status": "503"}]}, {"answers": [{"stauts": 503}]}, {"hang": True}):
            status, _, body = self.exchange("POST", "/control", json.dumps(command).encode())
            self.assertEqual(status, 400, command)

    def test_a_metrics_request_with_a_sum_a_gauge_and_a_histogram_is_flattened(self):
        status, _, body = self.export("/v1/metrics", METRICS)
        self.assertEqual((status, body), (200, {}))
        total, depth, latency = self.get("/metrics")
        self.assertEqual(total["resourceAttributes"], {"service.name": "beaconctl"})
        self.assertEqual(total["scope"]["name"], "beaconctl")
        self.assertEqual((total["name"], total["unit"], total["type"]), ("beacons.sent", "{beacon}", "sum"))
        self.assertEqual((total["isMonotonic"], total["aggregationTemporality"]), (True, 2))
        self.assertEqual(total["attributes"], {"outcome": "ok"})
        self.assertEqual((total["startTimeUnixNano"], total["timeUnixNano"]), (1700000000000000000, 1700000060000000000))
        self.assertEqual(total["value"], 42)
        self.assertIsInstance(total["value"], int)
        self.assertEqual((depth["name"], depth["type"], depth["value"]), ("queue.depth", "gauge", 3.5))
        self.assertEqual((depth["isMonotonic"], depth["aggregationTemporality"]), (None, None))
        self.assertEqual((latency["type"], latency["aggregationTemporality"], latency["isMonotonic"]), ("histogram", 1, None))
        self.assertEqual((latency["count"], latency["sum"], latency["min"], latency["max"]), (3, 1.5, 0.05, 0.9))
        self.assertEqual((latency["bucketCounts"], latency["explicitBounds"]), ([1, 2, 0], [0.1, 1.0]))

    def test_typed_views_keep_what_plain_json_cannot_tell_apart(self):
        document = copy.deepcopy(LOGS)
        log_record(document)["attributes"][3]["value"]["doubleValue"] = 2.0
        log_record(document)["attributes"].append({"key": "raw", "value": {"bytesValue": "AAE="}})
        self.assertEqual(self.export("/v1/logs", document)[0], 200)
        self.assertEqual(self.export("/v1/metrics", METRICS)[0], 200)
        first = self.get("/logs?typed=1")[0]
        self.assertEqual(first["body"], {"stringValue": "a beacon failed"})
        self.assertEqual(first["resourceAttributes"]["service.name"], {"stringValue": "beaconctl"})
        self.assertEqual(first["attributes"]["http.status"], {"intValue": "503"})
        self.assertEqual(first["attributes"]["latency.seconds"], {"doubleValue": 2.0})
        self.assertEqual(first["attributes"]["raw"], {"bytesValue": "AAE="})
        self.assertEqual(first["attributes"]["events"], {"arrayValue": {"values": [{"stringValue": "start"}, {"intValue": "2"}]}})
        total, depth, _ = self.get("/metrics?typed=1")
        self.assertEqual((total["value"], depth["value"]), ({"asInt": "42"}, {"asDouble": 3.5}))
        self.assertEqual(total["attributes"], {"outcome": {"stringValue": "ok"}})

    def test_a_metrics_body_sent_to_the_logs_path_is_refused(self):
        self.assertRefused(METRICS, "has no field 'resourceMetrics'")

    def test_a_wrong_path_is_recorded_and_answered_404(self):
        status, _, _ = self.export("/v1/log", LOGS)
        self.assertEqual(status, 404)
        [request] = self.get("/requests")
        self.assertEqual((request["path"], request["status"]), ("/v1/log", 404))

    def test_reset_forgets_the_requests_and_the_script(self):
        self.control({"answers": [{"status": 503}]})
        self.export("/v1/logs", LOGS)
        self.assertEqual(self.exchange("POST", "/reset")[0], 200)
        self.assertEqual(self.get("/requests"), [])
        self.assertEqual(self.get("/logs?all=1"), [])
        self.assertEqual(self.export("/v1/logs", LOGS)[0], 200)


class CommandLineTests(unittest.TestCase):
    def test_it_prints_its_port_first_and_serves_there(self):
        script = pathlib.Path(__file__).resolve().parent / "collector.py"
        child = subprocess.Popen([sys.executable, str(script), "--port", "0"], stdout=subprocess.PIPE, text=True)
        try:
            first = child.stdout.readline().split()
            self.assertEqual(first[0], "listening")
            connection = http.client.HTTPConnection("127.0.0.1", int(first[1]), timeout=10)
            connection.request("GET", "/requests")
            self.assertEqual(json.loads(connection.getresponse().read()), [])
            connection.close()
        finally:
            child.terminate()
            child.wait(10)
            child.stdout.close()


if __name__ == "__main__":
    unittest.main()
