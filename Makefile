# The two set-up commands of the README: `make demo` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SWIFT ?= swift
BUILD_LOG := .build/build-output.log

.PHONY: system-packages build demo test release clean

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

clean:
	rm -rf .build
