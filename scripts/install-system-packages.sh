#!/usr/bin/env bash
# Installs the Debian packages beaconctl builds against, only when they are missing.
# Arguments name further commands to install (each from the Debian package of that name), e.g. `wrk`,
# or python3-venv: what `python3 -m venv` needs beside python3 (Debian ships ensurepip apart).
set -euo pipefail

missing=()
for tool in "$@"; do
    case "$tool" in
        python3-venv) python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv) ;;
        *) command -v "$tool" >/dev/null 2>&1 || missing+=("$tool") ;;
    esac
done
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! pkg-config --exists libcurl 2>/dev/null; then
    missing+=(libcurl4-openssl-dev)
fi
if ! pkg-config --exists sqlite3 2>/dev/null; then
    missing+=(libsqlite3-dev)
fi
if ! pkg-config --exists zlib 2>/dev/null; then
    missing+=(zlib1g-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "need root or sudo to install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
