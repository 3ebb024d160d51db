"""Plain views of parsed OTLP export requests, for tests to read without walking the nesting.

`log_records` gives one dict per log record, `metric_points` one per data point, each with its
resource's attributes and its scope beside it. Attributes are plain dicts of key to Python value:
stringValue a str, intValue an int, doubleValue a float, boolValue a bool, arrayValue a list,
kvlistValue a dict, an empty value None; bytesValue stays its base64 text. 64-bit integers are
ints, ids lower-case hex ("" when absent).

`typed=True` keeps what plain JSON cannot tell apart: each attribute value (and a log body) is
its OTLP/JSON AnyValue ({"intValue": "2"}, {"doubleValue": 2.0}, {"bytesValue": ...}), and a
number data point's value {"asInt": "42"} or {"asDouble": 3.0}. A decoder that reads a JSON
number by its digits (Swift's JSONDecoder takes 2.0 for an integer) reads those instead.

`message_dict` is the whole message as OTLP/JSON would write it: lowerCamelCase keys, enums as
integers, 64-bit integers as strings, ids as hex.
"""
import base64

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor

from otlp_rules import HEX_IDS


def any_value(value, typed=False):
    if typed:
        return json_format.MessageToDict(value)
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [any_value(element) for element in value.array_value.values]
    if kind == "kvlist_value":
        return attributes(value.kvlist_value.values)
    if kind == "bytes_value":
        return base64.b64encode(value.bytes_value).decode("ascii")
    return getattr(value, kind)


def attributes(key_values, typed=False):
    return {pair.key: any_value(pair.value, typed) for pair in key_values}


def scope(instrumentation_scope, typed=False):
    return {
        "name": instrumentation_scope.name,
        "version": instrumentation_scope.version,
        "attributes": attributes(instrumentation_scope.attributes, typed),
    }


def log_records(request, typed=False):
    """Each log record of an ExportLogsServiceRequest."""
    records = []
    for resource_logs in request.resource_logs:
        resource = attributes(resource_logs.resource.attributes, typed)
        for scope_logs in resource_logs.scope_logs:
            record_scope = scope(scope_logs.scope, typed)
            for record in scope_logs.log_records:
                records.append({
                    "resourceAttributes": resource,
                    "scope": record_scope,
                    "timeUnixNano": record.time_unix_nano,
                    "observedTimeUnixNano": record.observed_time_unix_nano,
                    "severityNumber": int(record.severity_number),
                    "severityText": record.severity_text,
                    "body": any_value(record.body, typed) if record.HasField("body") else None,
                    "attributes": attributes(record.attributes, typed),
                    "droppedAttributesCount": record.dropped_attributes_count,
                    "eventName": record.event_name,
                    "flags": record.flags,
                    "traceId": record.trace_id.hex(),
                    "spanId": record.span_id.hex(),
                })
    return records


def _number(point, typed):
    kind = point.WhichOneof("value")
    if kind is None:
        return None
    if typed:
        return {"asInt": str(point.as_int)} if kind == "as_int" else {"asDouble": point.as_double}
    return getattr(point, kind)


def _optional(point, name):
    return getattr(point, name) if point.HasField(name) else None


def _point(metric, kind, data, point, typed):
    """The fields every kind of data point has, and those of `kind`."""
    flat = {
        "name": metric.name,
        "description": metric.description,
        "unit": metric.unit,
        "type": kind,
        "isMonotonic": data.is_monotonic if kind == "sum" else None,
        "aggregationTemporality": int(data.aggregation_temporality) if hasattr(data, "aggregation_temporality") else None,
        "attributes": attributes(point.attributes, typed),
        "startTimeUnixNano": point.start_time_unix_nano,
        "timeUnixNano": point.time_unix_nano,
        "flags": point.flags,
    }
    if kind in ("sum", "gauge"):
        flat["value"] = _number(point, typed)
    if kind in ("histogram", "exponentialHistogram", "summary"):
        flat["count"] = point.count
    if kind in ("histogram", "exponentialHistogram"):
        flat["sum"] = _optional(point, "sum")
        flat["min"] = _optional(point, "min")
        flat["max"] = _optional(point, "max")
    if kind == "histogram":
        flat["bucketCounts"] = list(point.bucket_counts)
        flat["explicitBounds"] = list(point.explicit_bounds)
    if kind == "exponentialHistogram":
        flat["scale"] = point.scale
        flat["zeroCount"] = point.zero_count
        flat["positive"] = {"offset": point.positive.offset, "bucketCounts": list(point.positive.bucket_counts)}
        flat["negative"] = {"offset": point.negative.offset, "bucketCounts": list(point.negative.bucket_counts)}
    if kind == "summary":
        flat["sum"] = point.sum
        flat["quantileValues"] = [{"quantile": value.quantile, "value": value.value} for value in point.quantile_values]
    return flat


# The oneof `data` of Metric, named as OTLP/JSON names it.
METRIC_KINDS = {
    "gauge": "gauge",
    "sum": "sum",
    "histogram": "histogram",
    "exponential_histogram": "exponentialHistogram",
    "summary": "summary",
}


def metric_points(request, typed=False):
    """Each data point of an ExportMetricsServiceRequest, with its metric's name and kind."""
    points = []
    for resource_metrics in request.resource_metrics:
        resource = attributes(resource_metrics.resource.attributes, typed)
        for scope_metrics in resource_metrics.scope_metrics:
            point_scope = scope(scope_metrics.scope, typed)
            for metric in scope_metrics.metrics:
                field = metric.WhichOneof("data")
                if field is None:
                    continue
                data = getattr(metric, field)
                for point in data.data_points:
                    flat = {"resourceAttributes": resource, "scope": point_scope}
                    flat.update(_point(metric, METRIC_KINDS[field], data, point, typed))
                    points.append(flat)
    return points


def message_dict(message):
    document = json_format.MessageToDict(message, use_integers_for_enums=True)
    _ids_to_hex(document, message.DESCRIPTOR)
    return document


def _ids_to_hex(document, descriptor):
    """protobuf writes every bytes field as base64; OTLP/JSON writes ids as hex."""
    for field in descriptor.fields:
        item = document.get(field.json_name)
        if item is None:
            continue
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            for element in (item if field.is_repeated else [item]):
                _ids_to_hex(element, field.message_type)
        elif field.type == FieldDescriptor.TYPE_BYTES and field.name in HEX_IDS:
            document[field.json_name] = base64.b64decode(item).hex()
