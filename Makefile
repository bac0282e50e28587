GO ?= go
BIN := bin/thea

.PHONY: build test demo demo-ros demo-ros-arm bench turn-instructions lint chaos docs sim-mujoco test-mujoco demo-mujoco bench-mujoco release

# thea, and beside it the fake robots `thea sim <kind>` runs (test code, so
# programs of their own: the thea binary links none).
build:
	$(GO) build -o $(BIN) ./cmd/thea
	$(GO) build -o $(dir $(BIN))thea-sim-rosbridge ./cmd/thea-sim-rosbridge

# The spec reference, generated from the embedded CUE schema and the
# component catalog; a test in schema/reference fails when it is stale.
docs:
	@mkdir -p docs/reference
	$(GO) run ./cmd/thea schema --format markdown > docs/reference/spec.md.tmp && mv docs/reference/spec.md.tmp docs/reference/spec.md

# The tests start their own -race binary as thea, as its spec evaluator and
# as the fake robots, thousands of times; the race runtime sleeps a second
# before every exit (atexit_sleep_ms), which was over a quarter of the
# resume chaos test's wall time. A GORACE of the caller's comes later and wins.
RACE_ENV = GORACE="atexit_sleep_ms=0 $$GORACE"

test:
	$(GO) vet ./... && $(RACE_ENV) $(GO) test -race -timeout 45m ./...
	@if [ -f $(MUJOCO_H) ]; then $(MAKE) test-mujoco; else \
		echo "warning: libmujoco-dev is not installed; the MuJoCo back-end's tests (make test-mujoco) skip"; fi

# The MuJoCo physics back-end: its own program (cgo, build tag mujoco), so
# thea and make build stay free of cgo. Needs Debian's libmujoco-dev, and
# for cameras libegl-dev, libegl-mesa0 and libgl1-mesa-dri.
MUJOCO_H ?= /usr/include/mujoco/mujoco.h
sim-mujoco:
	$(GO) build -tags mujoco -o $(dir $(BIN))thea-sim-mujoco ./cmd/thea-sim-mujoco

test-mujoco:
	$(GO) vet -tags mujoco ./cmd/thea-sim-mujoco/ && \
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 -tags mujoco ./cmd/thea-sim-mujoco/ && \
	$(RACE_ENV) $(GO) test -race -tags mujoco -timeout 20m ./cmd/thea-sim-mujoco/...

# The tabletop example against the physics: the scripted episode at seed 7,
# cameras rendered headless (EGL) into the run log.
demo-mujoco: build sim-mujoco
	PATH="$(abspath $(dir $(BIN))):$$PATH" $(BIN) run --spec examples/mujoco-tabletop/spec.cue --seed 7 "Put the mug in the bin"

bench-mujoco:
	$(GO) test -tags mujoco -run '^$$' -bench . -benchtime 3s ./cmd/thea-sim-mujoco/

demo: build
	$(BIN) run --spec examples/household/spec.cue "Put the mug in the top drawer"

# The ROS example offline: a fake TurtleBot with Nav2 behind rosbridge on
# ws://127.0.0.1:9090 (the spec's url), the scripted episode against it.
demo-ros: build
	$(BIN) sim rosbridge -addr 127.0.0.1:9090 -nav-speed 1 >/dev/null & pid=$$!; \
	trap 'kill $$pid 2>/dev/null' EXIT; \
	$(BIN) run --spec examples/turtlebot/spec.cue "Go to the window at (2, 0.5), then come back and dock."

# The ROS arm example offline: a fake UR-class arm behind rosbridge on
# ws://127.0.0.1:9090 (the spec's url), the scripted pick-and-place against it.
demo-ros-arm: build
	$(BIN) sim rosbridge -robot arm -addr 127.0.0.1:9090 >/dev/null & pid=$$!; \
	trap 'kill $$pid 2>/dev/null' EXIT; \
	$(BIN) run --spec examples/ros-arm/spec.cue "Put the mug in the bin, then move the arm home."

# The whole benchmark suite, in under five minutes on 2 cores. The long-task
# benchmarks run one 1,000- or 2,000-turn task per iteration: three each.
LONG_BENCH := Benchmark(SessionMemory1000Turns|RequestSize2000Turns)
bench:
	$(GO) test -run '^$$' -bench . -skip '$(LONG_BENCH)' -benchmem ./...
	$(GO) test -run '^$$' -bench '$(LONG_BENCH)' -benchtime 3x ./engine/

# Instructions a harness turn costs, from valgrind's callgrind: a count, not a
# time, so it repeats on a loaded machine (one thread: GOMAXPROCS=1; no
# preemption signals, which callgrind cannot follow). Two runs of
# BenchmarkTurnAt1000, 500 and 2,000 timed turns; their difference is three
# sessions of 1,500 turns (1,000 warm-up, 500 timed), divided by 4,500.
TURN_BENCH ?= BenchmarkTurnAt1000
turn-instructions:
	@command -v valgrind >/dev/null || { echo "turn-instructions needs valgrind (apt-get install valgrind)"; exit 1; }
	$(GO) test -c -o bin/engine.test ./engine/
	@count() { out=$$(GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		bin/engine.test -test.run '^$$' -test.bench '^$(TURN_BENCH)$$' -test.benchtime $$1 2>&1); \
		if ! printf '%s\n' "$$out" | grep -q '^PASS$$'; then \
			printf '%s\n' "$$out" | grep -m1 -e 'unhandled instruction' -e 'SIGILL' -e FAIL >&2; \
			echo "turn-instructions: the benchmark did not run to the end under valgrind (a CPU instruction valgrind cannot follow, such as RDTSCP on newer CPUs?): no count" >&2; return 1; fi; \
		printf '%s\n' "$$out" | sed -n 's/.*Collected : //p'; }; \
	a=$$(count 500x) && b=$$(count 2000x) || exit 1; \
	echo "$(TURN_BENCH): $$(( (b - a) / 4500 )) instructions a turn (500x: $$a, 2000x: $$b)"

lint:
	$(GO) vet ./... && $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# The chaos run: N seeded fault schedules from SEED (each a fresh session
# against a misbehaving model server and fault-server back-end), invariants
# checked after each. A failure prints its seed; `make chaos N=1 SEED=<seed>`
# reruns it alone.
N ?= 1000
SEED ?= 1
chaos: SHELL := /bin/bash
chaos:
	set -o pipefail; $(GO) test -count=1 -timeout 3h -run '^TestChaos$$' -v ./toolsets/internal/chaos -args -chaos.n=$(N) -chaos.seed=$(SEED) \
		| grep -v -e '^=== RUN' -e '^    --- PASS'

# Static binaries for the robot's own computer (a Jetson-class linux/arm64
# board) and for linux/amd64: no cgo, -trimpath, VERSION (git describe by
# default) in thea --version, and dist/SHA256SUMS.
RELEASE_ARCHS := amd64 arm64
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
release:
	rm -rf dist && mkdir -p dist
	for arch in $(RELEASE_ARCHS); do \
		for cmd in thea thea-sim-rosbridge; do \
			GOOS=linux GOARCH=$$arch CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w -X github.com/thea-harness/thea/cmd/thea/cli.release=$(VERSION)' -o dist/$$cmd-linux-$$arch ./cmd/$$cmd || exit 1; \
		done; \
	done
	cd dist && sha256sum thea-linux-* thea-sim-rosbridge-linux-* > SHA256SUMS
