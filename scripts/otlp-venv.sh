#!/usr/bin/env bash
# Makes .build/otlp-venv, the Python the collector double of the end-to-end tests runs on: the
# pinned OTLP definitions and protobuf of scripts/otlp-collector/requirements.txt, from PyPI
# (Debian's python3-protobuf is too old for them). Quiet when the venv is up to date; made again
# when the requirements or python3 changed, or the venv no longer imports them. `make test` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/otlp-venv
requirements=scripts/otlp-collector/requirements.txt
# What the venv was made from: the requirements and the python3 that made it.
stamp=$venv/made-from
wanted="$(cat "$requirements")
python3: $(readlink -f "$(command -v python3 || echo python3)") $(python3 --version 2>&1 || true)"

if [ -x $venv/bin/python ] && [ "$(cat $stamp 2>/dev/null)" = "$wanted" ] &&
    $venv/bin/python -c 'import google.protobuf.json_format, opentelemetry.proto.collector.logs.v1.logs_service_pb2' 2>/dev/null; then
    exit 0
fi

# Debian's python3 makes venvs only with python3-venv (ensurepip), a package of its own.
scripts/install-system-packages.sh python3 python3-venv

fail() {
    echo "error: scripts/otlp-venv.sh: $1" >&2
    [ -z "${2:-}" ] || echo "$2" >&2
    exit 1
}

echo "making $venv from $requirements" >&2
rm -rf $venv
output=$(python3 -m venv $venv 2>&1) || fail "python3 -m venv $venv failed" "$output"
output=$($venv/bin/python -m pip install --quiet --disable-pip-version-check --no-input -r $requirements 2>&1) ||
    fail "pip could not install $requirements into $venv" "$output"
$venv/bin/python -c 'import google.protobuf.json_format, opentelemetry.proto.collector.logs.v1.logs_service_pb2' ||
    fail "$venv does not import the OTLP definitions after installing them"
# Written last: a venv made halfway is made again next time.
printf '%s' "$wanted" > $stamp
