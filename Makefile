GO ?= go
BIN := bin/thea

.PHONY: build test demo bench lint

build:
	$(GO) build -o $(BIN) ./cmd/thea

test:
	$(GO) vet ./... && $(GO) test -race ./...

demo: build
	$(BIN) run --spec examples/household/spec.cue "Put the mug in the top drawer"

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

lint:
	$(GO) vet ./... && $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
