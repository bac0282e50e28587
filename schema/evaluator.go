package schema

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// evalRequest is what Load sends its evaluator process on stdin: the spec's
// files as Load read them, and the bounds to keep.
type evalRequest struct {
	Paths   []string      `json:"paths"`
	Sources [][]byte      `json:"sources"`
	Heap    uint64        `json:"heap"`
	Time    time.Duration `json:"time"`
}

// evalAnswer is the evaluator's one line on stdout.
type evalAnswer struct {
	// Done: Load finished within the bounds (the spec may still be invalid:
	// the parent loads it again and reports).
	Done bool `json:"done,omitempty"`
	// Bound is the bound hit: "memory" or "time".
	Bound string `json:"bound,omitempty"`
	// Used is the heap and stacks in bytes, or the CPU time, at the breach.
	Used uint64 `json:"used,omitempty"`
}

// evalBoundExit is the evaluator's exit code at a bound.
const evalBoundExit = 3

// evalSamplePeriod is how often the evaluator reads its own memory: a
// doubling string at the bound grows by at most a few MiB between two reads.
const evalSamplePeriod = 5 * time.Millisecond

// ServeEvaluation is the evaluator process that Load starts when
// LoadOptions.Evaluator is set: it reads one request from r, loads the spec
// with opts while watching its own heap and CPU time, and writes one answer to
// w. It returns the exit code: 0 when Load finished, 3 at a bound. At a
// bound the evaluation is still running (CUE's evaluator cannot be
// stopped), so the caller must exit with the code at once.
func ServeEvaluation(r io.Reader, w io.Writer, opts LoadOptions) int {
	var req evalRequest
	if err := json.NewDecoder(io.LimitReader(r, evalRequestMax)).Decode(&req); err != nil {
		fmt.Fprintf(w, "reading the evaluation request: %v\n", err)
		return 2
	}
	if len(req.Paths) != len(req.Sources) || req.Heap == 0 || req.Time <= 0 {
		fmt.Fprintln(w, "the evaluation request is malformed")
		return 2
	}
	opts.Evaluator = nil
	opts.sources = map[string][]byte{}
	for i, p := range req.Paths {
		opts.sources[p] = req.Sources[i]
	}
	// The collector keeps garbage under the bound, so only live data
	// reaches it; a deep recursion crashes early instead of growing a 1 GiB
	// stack.
	debug.SetMemoryLimit(int64(req.Heap))
	debug.SetMaxStack(maxEvalStack)

	done := make(chan struct{})
	go func() {
		defer close(done)
		Load(req.Paths, opts)
	}()
	answer := func(a evalAnswer, code int) int {
		if err := json.NewEncoder(w).Encode(a); err != nil {
			return 2
		}
		return code
	}
	start, cpu0 := time.Now(), evalCPU(time.Now())
	tick := time.NewTicker(evalSamplePeriod)
	defer tick.Stop()
	samples := []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/stacks:bytes"},
	}
	for {
		select {
		case <-done:
			return answer(evalAnswer{Done: true}, 0)
		case <-tick.C:
			if used := evalCPU(start) - cpu0; used > req.Time {
				return answer(evalAnswer{Bound: "time", Used: uint64(used)}, evalBoundExit)
			}
			metrics.Read(samples)
			var used uint64
			for _, s := range samples {
				if s.Value.Kind() == metrics.KindUint64 {
					used += s.Value.Uint64()
				}
			}
			if used > req.Heap {
				return answer(evalAnswer{Bound: "memory", Used: used}, evalBoundExit)
			}
		}
	}
}

// evalRequestMax bounds a request: a spec's files are each at most
// readfile's spec limit, and a spec has few.
const evalRequestMax = 256 << 20
