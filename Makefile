GO ?= go
BIN := bin/thea

.PHONY: build test demo bench lint

build:
	$(GO) build -o $(BIN) ./cmd/thea

test:
	$(GO) vet ./... && $(GO) test -race ./...

demo: build
	$(BIN) run --spec examples/household/spec.cue "Put the mug in the top drawer"

# The whole benchmark suite, in under five minutes on 2 cores. The long-task
# benchmarks run one 1,000- or 2,000-turn task per iteration: three each.
LONG_BENCH := Benchmark(SessionMemory1000Turns|RequestSize2000Turns)
bench:
	$(GO) test -run '^$$' -bench . -skip '$(LONG_BENCH)' -benchmem ./...
	$(GO) test -run '^$$' -bench '$(LONG_BENCH)' -benchtime 3x ./engine/

lint:
	$(GO) vet ./... && $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
