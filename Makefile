# The set-up commands of the README: `make demo` and `make test`; releases: `make release`, `install`,
# `deb`; `make bench` for BENCHMARKS.md, `make check-binary` for CI; `make fuzz` for long fuzz runs
# (`make fuzz FUZZ_TARGET=metadata FUZZ_SECONDS=600`: libFuzzer where the toolchain links it).
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SWIFT ?= swift
# End-to-end tests at most this many at once: each starts real daemons, and with all 160 at once
# on 2 cores the loopback servers inside the test process answered too late (a timeout in 2 of 3 runs).
E2E_WIDTH ?= 8
BUILD_LOG := .build/build-output.log

.PHONY: system-packages build demo test release check-binary bench fuzz clean

system-packages:
	@scripts/install-system-packages.sh

build: system-packages
	$(SWIFT) build

# Runs the demo: a simulated ad service and player on loopback, no network needed.
demo: build
	$(SWIFT) run --skip-build beaconctl demo

# Builds everything (our own code must compile without warnings), then runs every test in three
# steps, each its own `swift test` process under an outer time limit (scripts/test-step.py ends
# the step's whole session past it, and names the step):
# - unit: the rules on the domain, and the edges against real sockets, files and loopback servers;
# - sweeps: the CPU-bound tests (fuzz properties, random sequences, large documents), in suites
#   named Sweeps. Swift's cooperative pool has one thread per core: beside the unit tests they
#   held both threads for seconds, and the loopback servers, timers and waits of the unit tests,
#   which run on that pool too, answered late or timed out;
# - end-to-end: the real binary, at most E2E_WIDTH tests at once.
# The tests also drive the real binary through a pseudo-terminal (python3) and check the systemd
# unit (systemd-analyze) and the package (dpkg-deb) with the tools a Debian box has. End-to-end
# tests that export OTLP post to a collector double that parses with the official OTLP
# definitions, from PyPI into a venv of its own (scripts/otlp-venv.sh): the end-to-end step is
# told its interpreter (BEACONCTL_OTLP_PYTHON), so that a double that cannot start fails those
# tests instead of skipping them. Last, the double's own tests (scripts/otlp-collector), the
# rules of these scripts themselves (scripts/tests), that every test suite has a time limit, that
# the domain takes no lock, makes no stream, task or thread and never sleeps, that each target
# imports only what Package.swift declares for it, and that no two folders of Sources/ name each
# other's types (ARCHITECTURE.md draws the arrows).
TEST_STEP := python3 scripts/test-step.py
SWEEPS := /Sweeps/
OTLP_PYTHON := $(CURDIR)/.build/otlp-venv/bin/python
test: system-packages
	@scripts/install-system-packages.sh python3
	@mkdir -p .build
	@scripts/otlp-venv.sh
	$(SWIFT) build --build-tests 2>&1 | tee $(BUILD_LOG)
	@if grep -E '/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:' $(BUILD_LOG); then \
		echo "error: the build has warnings in our code" >&2; exit 1; fi
	$(TEST_STEP) unit 600 $(SWIFT) test --skip-build --filter '^UnitTests\.' --skip '$(SWEEPS)'
	$(TEST_STEP) sweeps 600 $(SWIFT) test --skip-build --filter '$(SWEEPS)'
	$(TEST_STEP) end-to-end 1200 env SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(E2E_WIDTH) \
		BEACONCTL_OTLP_PYTHON=$(OTLP_PYTHON) $(SWIFT) test --skip-build --filter '^EndToEndTests\.'
	$(OTLP_PYTHON) -m unittest discover -s scripts/otlp-collector
	python3 -m unittest discover -s scripts/tests
	python3 scripts/check-test-suites.py
	python3 scripts/check-domain.py
	python3 scripts/check-architecture.py
	python3 scripts/check-imports.py
	python3 scripts/folder-graph.py

# Installation layout: `make install PREFIX=/usr DESTDIR=/tmp/stage`. The unit goes where systemd
# looks for it under PREFIX (/usr/local/lib/systemd/system by default; set UNITDIR for another
# PREFIX); the configuration under /etc whatever PREFIX, as the unit reads it there.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
UNITDIR ?= $(PREFIX)/lib/systemd/system
DOCDIR ?= $(PREFIX)/share/doc/beaconctl
SYSCONFDIR ?= /etc
CONFIG ?= config/beaconctl.toml
# `make release` leaves the stripped binary here; `install` and `deb` take it from BINARY.
DIST ?= dist
BINARY ?= $(DIST)/beaconctl
# The release numbers, read from the one place they are set.
VERSION := $(shell awk -F'[^0-9]+' '/static let release = ReleaseVersion/ { print $$2 "." $$3 "." $$4 "." $$5 }' Sources/beaconctl/Beaconctl.swift)

.PHONY: install deb

# An optimized binary with the Swift runtime linked in, stripped into $(DIST).
# Each function in a section of its own, every module's: the linker's --gc-sections (which SwiftPM
# passes) then drops the code nothing calls, in our code and the packages' (450 KB of the binary).
release: system-packages
	$(SWIFT) build -c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections
	@mkdir -p $(DIST)
	strip -o $(DIST)/beaconctl .build/release/beaconctl
	@echo "$(DIST)/beaconctl: $$(stat -c %s $(DIST)/beaconctl) bytes ($$(du -h $(DIST)/beaconctl | cut -f1)), stripped"

# Installs the binary, the systemd units (one daemon, or one per stream: beaconctl@.service), the default configuration (never over an existing one)
# and the README. Takes BINARY as built: run `make release` first.
install:
	@test -x $(BINARY) || { echo "error: no $(BINARY): run 'make release' first (or pass BINARY=...)" >&2; exit 1; }
	install -D -m 0755 $(BINARY) $(DESTDIR)$(BINDIR)/beaconctl
	install -d -m 0755 $(DESTDIR)$(UNITDIR)
	for unit in beaconctl.service beaconctl@.service; do \
		sed -e 's|^ExecStart=/usr/bin/beaconctl |ExecStart=$(BINDIR)/beaconctl |' \
			-e 's|^Documentation=file:/usr/share/doc/beaconctl/|Documentation=file:$(DOCDIR)/|' systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit || exit 1; \
	done
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)/beaconctl
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/beaconctl/beaconctl.toml ]; then \
		echo "keeping the existing $(DESTDIR)$(SYSCONFDIR)/beaconctl/beaconctl.toml"; \
	else \
		echo "install -m 0644 $(CONFIG) $(DESTDIR)$(SYSCONFDIR)/beaconctl/beaconctl.toml"; \
		install -m 0644 $(CONFIG) $(DESTDIR)$(SYSCONFDIR)/beaconctl/beaconctl.toml; \
	fi
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md

# A Debian package of BINARY (run `make release` first): dpkg keeps a changed configuration.
deb:
	@test -x $(BINARY) || { echo "error: no $(BINARY): run 'make release' first (or pass BINARY=...)" >&2; exit 1; }
	rm -rf $(DIST)/deb
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DIST))/deb PREFIX=/usr UNITDIR=/lib/systemd/system BINARY=$(abspath $(BINARY))
	install -d -m 0755 $(DIST)/deb/DEBIAN
	sed -e 's/@VERSION@/$(VERSION)/' -e "s/@ARCH@/$$(dpkg --print-architecture)/" \
		-e "s/@SIZE@/$$(du -sk --exclude=DEBIAN $(DIST)/deb | cut -f1)/" packaging/debian/control > $(DIST)/deb/DEBIAN/control
	install -m 0644 packaging/debian/conffiles $(DIST)/deb/DEBIAN/conffiles
	install -m 0755 packaging/debian/postinst packaging/debian/postrm $(DIST)/deb/DEBIAN/
	dpkg-deb --root-owner-group --build $(DIST)/deb $(DIST)/beaconctl_$(VERSION)_$$(dpkg --print-architecture).deb

# Fails when the shipped binary carries ICU or FoundationNetworking, or outgrows its size budget.
check-binary: release
	@scripts/install-system-packages.sh python3
	python3 scripts/bench/binary.py --check

# Every benchmark of BENCHMARKS.md against the release binary; writes bench/results.json.
# BENCH_OPTIONS="--idle-seconds 30 --speed 120" shortens the footprint runs.
bench: release
	@scripts/install-system-packages.sh python3 wrk curl
	python3 scripts/bench/run_all.py $(BENCH_OPTIONS)

# One fuzz target, lines (stdin and control socket input) or metadata, for FUZZ_SECONDS: coverage-
# guided with libFuzzer when this toolchain links it, else the test suite's seeded mutation run
# (FUZZ_ENGINE=properties forces it, FUZZ_SEED replays one). The test suite's sweeps step runs the
# same properties on a fixed number of inputs (FUZZ_ITERATIONS, FUZZ_SEED). Crashes land in Fuzz/artifacts.
FUZZ_TARGET ?= lines
FUZZ_SECONDS ?= 600
FUZZ_ENGINE ?= auto
fuzz: system-packages
	FUZZ_TARGET=$(FUZZ_TARGET) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_ENGINE=$(FUZZ_ENGINE) SWIFT=$(SWIFT) scripts/fuzz.sh

clean:
	rm -rf .build $(DIST) Fuzz/corpus Fuzz/artifacts
