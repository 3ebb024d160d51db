# The two set-up commands of the README: `make demo` and `make test`; `make bench` for BENCHMARKS.md.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SWIFT ?= swift
BUILD_LOG := .build/build-output.log

.PHONY: system-packages build demo test release check-binary bench clean

system-packages:
	@scripts/install-system-packages.sh

build: system-packages
	$(SWIFT) build

# Runs the demo: a simulated ad service and player on loopback, no network needed.
demo: build
	$(SWIFT) run --skip-build beaconctl demo

# Builds everything (our own code must compile without warnings), then runs every test.
test: system-packages
	@mkdir -p .build
	$(SWIFT) build --build-tests 2>&1 | tee $(BUILD_LOG)
	@if grep -E '/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:' $(BUILD_LOG); then \
		echo "error: the build has warnings in our code" >&2; exit 1; fi
	$(SWIFT) test --skip-build

release: system-packages
	$(SWIFT) build -c release --static-swift-stdlib

# Fails when the shipped binary carries ICU or FoundationNetworking, or outgrows its size budget.
check-binary: release
	@scripts/install-system-packages.sh python3
	python3 scripts/bench/binary.py --check

# Every benchmark of BENCHMARKS.md against the release binary; writes bench/results.json.
# BENCH_OPTIONS="--idle-seconds 30 --speed 120" shortens the footprint runs.
bench: release
	@scripts/install-system-packages.sh python3 wrk
	python3 scripts/bench/run_all.py $(BENCH_OPTIONS)

clean:
	rm -rf .build
