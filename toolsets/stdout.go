package toolsets

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/anyjson"
)

// SafetyStdoutGarbage is the MCP transport's safety event: non-JSON lines
// on a back-end's stdout, counted and sampled.
const SafetyStdoutGarbage = "backend_stdout_garbage"

// garbageSample bounds the sample of a garbage line kept in its event.
const garbageSample = 120

// maxStdoutLine bounds one line of a back-end's stdout held in memory: a
// longer line (no JSON-RPC reply is that big, and a back-end printing without
// newlines would otherwise grow it without end) is dropped and reported.
const maxStdoutLine = 256 << 20

// maxLineDepth is encoding/json's nesting limit: the transport drops a
// deeper line unread, so the call it answers would wait for its timeout
// and no one would learn why (a tool list whose inputSchema nests 20,000
// levels failed a toolset's start after 10 s, naming nothing).
const maxLineDepth = 10000

// cutDepth is how deep a line past maxLineDepth is kept: each value below
// it becomes cutMarker, and the rest of the reply reaches the transport.
// The schema bounds (engine.MaxSchemaDepth) then refuse the tool whose
// inputSchema was cut, by name.
const cutDepth = 1000

// cutMarker is the JSON string a cut value becomes.
const cutMarker = `"(cut by thea: nested deeper than 1000 levels)"`

// filterStdout copies a back-end's stdout to w line by line, passing on only
// lines that are JSON objects (all that JSON-RPC sends). Anything else (a
// print left in a driver, a start-up banner, escape codes) would be skipped
// silently by the transport; here each such line goes to garbage instead, as
// does the start of a line longer than limit. A JSON object nested past
// maxLineDepth is passed on cut at cutDepth (deepLine). It reads r to its end
// even once w is closed, so the back-end never blocks on a full pipe, and
// closes w at the end so the transport sees the back-end go.
func filterStdout(r io.Reader, w *io.PipeWriter, limit int, garbage func(line []byte)) {
	br := bufio.NewReaderSize(r, 64<<10)
	open := true
	for {
		line, over, err := readLine(br, limit)
		if body := bytes.TrimSpace(line); len(body) > 0 {
			switch {
			case over > 0:
				garbage(fmt.Appendf(body[:min(len(body), garbageSample)], "… (a line of %d bytes, over the %d-byte bound: dropped)", over, limit))
			case !jsonObject(body):
				cut, ok := deepLine(body)
				if !ok {
					garbage(body)
					break
				}
				if open {
					if _, werr := w.Write(append(cut, '\n')); werr != nil {
						open = false
					}
				}
			case open:
				if _, werr := w.Write(line); werr != nil {
					open = false // the client closed: drain only
				}
			}
		}
		if err != nil {
			_ = w.Close() // the transport reads EOF: the back-end is gone
			return
		}
	}
}

// readLine reads one line (its newline included) of at most limit bytes; of
// a longer one it keeps the first limit bytes, discards the rest and returns
// its whole length as over.
func readLine(br *bufio.Reader, limit int) (line []byte, over int, err error) {
	n := 0
	for {
		chunk, err := br.ReadSlice('\n')
		n += len(chunk)
		if len(line) < limit {
			line = append(line, chunk[:min(len(chunk), limit-len(line))]...)
		}
		if err != bufio.ErrBufferFull {
			if n > limit {
				over = n
			}
			return line, over, err
		}
	}
}

// deepLine cuts a JSON object that is refused only for nesting past
// maxLineDepth (see cutDepth); ok is false for any other line.
func deepLine(b []byte) (cut []byte, ok bool) {
	if len(b) == 0 || b[0] != '{' || anyjson.Depth(b) <= maxLineDepth {
		return nil, false
	}
	cut, _ = anyjson.Cut(b, cutDepth, []byte(cutMarker))
	return cut, jsonObject(cut)
}

func jsonObject(b []byte) bool {
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

// garbageCount counts one connection's garbage lines and decides which are
// reported: the first three, then the 10th, 100th, 1000th... so a back-end
// that prints on every call cannot flood the event stream.
type garbageCount struct {
	mu       sync.Mutex
	n        int
	reported int
}

// add counts a line and tells whether to report it, with the count so far.
func (g *garbageCount) add() (int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n++
	if g.n <= 3 || isPow10(g.n) {
		g.reported = g.n
		return g.n, true
	}
	return g.n, false
}

// unreported returns the total when lines were counted since the last report.
func (g *garbageCount) unreported() (int, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n > g.reported {
		g.reported = g.n
		return g.n, true
	}
	return g.n, false
}

func isPow10(n int) bool {
	p := math.Log10(float64(n))
	return p == math.Trunc(p)
}

// stdoutGarbage reports a non-JSON line of the back-end's stdout (counted,
// sampled, quoted so control characters cannot reach a terminal).
func (c *conn) stdoutGarbage(line []byte) {
	n, report := c.garbage.add()
	if !report {
		return
	}
	sample := line
	if len(sample) > garbageSample {
		sample = sample[:garbageSample]
	}
	c.b.env.Logger.Warn("mcp back-end wrote a non-JSON line on stdout", "count", n, "bytes", len(line))
	c.b.env.Emit(engine.SafetyEvent{Kind: SafetyStdoutGarbage,
		Text: fmt.Sprintf("%d non-JSON line(s) on stdout so far (ignored); this one, %d bytes: %q", n, len(line), sample)})
}

// garbageTotal reports, when a connection ends, the lines counted since the
// last sampled event.
func (c *conn) garbageTotal() {
	if n, ok := c.garbage.unreported(); ok {
		c.b.env.Emit(engine.SafetyEvent{Kind: SafetyStdoutGarbage, Text: fmt.Sprintf("%d non-JSON line(s) on stdout in all (ignored)", n)})
	}
}
