"""The OTLP rules that protobuf's own parser does not enforce, checked on what a sender sent.

OTLP/JSON is protobuf's JSON mapping with deviations (the OTLP specification, "JSON Protobuf
Encoding"), and protobuf's parser is liberal where the deviations are strict: it takes the proto
field names as keys beside the lowerCamelCase ones, enum names beside their numbers, 64-bit
integers as JSON numbers beside decimal strings, and reads every bytes field as base64, so that a
hex trace id is silently decoded into 24 wrong bytes. `check_json` walks the raw JSON alongside
the message's descriptors to find each of these, and hands back a copy whose hex ids are base64,
ready for `json_format.ParseDict`.

`duplicate_attribute_keys` checks a parsed message for attribute lists that name a key twice:
the data model wants keys unique, and protobuf keeps both.
"""
import base64
import json
import re

from google.protobuf.descriptor import FieldDescriptor

# The bytes fields OTLP/JSON writes as hex instead of base64, with their length in bytes.
HEX_IDS = {"trace_id": 16, "span_id": 8, "parent_span_id": 8}

SIGNED_64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_SFIXED64}
UNSIGNED_64 = {FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64}
SIGNED_DECIMAL = re.compile(r"-?[0-9]+")
UNSIGNED_DECIMAL = re.compile(r"[0-9]+")
HEX = re.compile(r"[0-9a-fA-F]*")

KEY_VALUE = "opentelemetry.proto.common.v1.KeyValue"


def check_json(document, descriptor):
    """Violations of OTLP/JSON in `document` (decoded JSON) for message `descriptor`, and the
    document with its hex ids as base64. Keys the schema does not know are violations too: a
    receiver ignores them, but a sender that writes one has a typo or a wrong message."""
    violations = []
    converted = _message(document, descriptor, "$", violations)
    return violations, converted


def _shown(value):
    return json.dumps(value)[:80]


def _message(value, descriptor, path, violations):
    if not isinstance(value, dict):
        violations.append(f"{path}: a {descriptor.name} must be a JSON object, not {_shown(value)}")
        return value
    by_json_name = {field.json_name: field for field in descriptor.fields}
    by_proto_name = {field.name: field for field in descriptor.fields}
    converted = {}
    for key, item in value.items():
        here = f"{path}.{key}"
        field = by_json_name.get(key)
        if field is None:
            if key in by_proto_name:
                violations.append(
                    f"{here}: the proto field name as a key; OTLP/JSON keys are lowerCamelCase: "
                    f"{by_proto_name[key].json_name!r}")
            else:
                violations.append(f"{here}: {descriptor.full_name} has no field {key!r}")
            continue
        if item is None:
            # JSON null stands for the field's default: the parser takes it.
            converted[key] = item
        elif field.is_repeated:
            if isinstance(item, list):
                converted[key] = [_value(element, field, f"{here}[{index}]", violations) for index, element in enumerate(item)]
            else:
                violations.append(f"{here}: a repeated field must be a JSON array, not {_shown(item)}")
        else:
            converted[key] = _value(item, field, here, violations)
    return converted


def _value(item, field, path, violations):
    """One value of `field`; other scalar types are left to the parser, which checks them."""
    kind = field.type
    if item is None:
        return item
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return _message(item, field.message_type, path, violations)
    if kind == FieldDescriptor.TYPE_ENUM:
        # bool is an int to Python, not to JSON.
        if type(item) is not int:
            violations.append(f"{path}: the enum {field.enum_type.name} must be an integer, not {_shown(item)}")
        return item
    if kind in SIGNED_64 or kind in UNSIGNED_64:
        pattern = SIGNED_DECIMAL if kind in SIGNED_64 else UNSIGNED_DECIMAL
        if not (isinstance(item, str) and pattern.fullmatch(item)):
            violations.append(f"{path}: a 64-bit integer must be a decimal string, not {_shown(item)}")
        return item
    if kind == FieldDescriptor.TYPE_BYTES and field.name in HEX_IDS:
        digits = 2 * HEX_IDS[field.name]
        # The empty string is the empty id, protobuf's default: no trace.
        if not (isinstance(item, str) and HEX.fullmatch(item) and len(item) in (0, digits)):
            violations.append(f"{path}: an id must be {digits} hex digits, not {_shown(item)}")
            return item
        return base64.b64encode(bytes.fromhex(item)).decode("ascii")
    return item


def duplicate_attribute_keys(message, path="$"):
    """Where a parsed `message` has an attribute list naming one key twice."""
    found = []
    for field, value in message.ListFields():
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        here = f"{path}.{field.json_name}"
        if field.is_repeated and field.message_type.full_name == KEY_VALUE:
            keys = [pair.key for pair in value]
            for key in sorted({key for key in keys if keys.count(key) > 1}):
                found.append(f"{here}: the key {key!r} appears {keys.count(key)} times; attribute keys are unique")
        items = list(value) if field.is_repeated else [value]
        for index, item in enumerate(items):
            found.extend(duplicate_attribute_keys(item, f"{here}[{index}]" if field.is_repeated else here))
    return found
