package toolsets

import (
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Only JSON objects reach the transport; everything else, an over-long line
// included (cut to its bound, the rest discarded), is reported as garbage,
// and a line without a final newline is not lost.
func TestFilterStdout(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" +
		"hello \x1b[31mworld\n" +
		"[1,2,3]\n" +
		"\n" +
		strings.Repeat("y", 300) + "\n" +
		`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":3` // cut short: garbage
	pr, pw := io.Pipe()
	var (
		mu  sync.Mutex
		bad []string
	)
	go filterStdout(strings.NewReader(in), pw, 100, func(line []byte) {
		mu.Lock()
		defer mu.Unlock()
		bad = append(bad, string(line))
	})
	got, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	if string(got) != want {
		t.Fatalf("passed on %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bad) != 4 || bad[0] != "hello \x1b[31mworld" || bad[1] != "[1,2,3]" ||
		!strings.HasSuffix(bad[2], "(a line of 301 bytes, over the 100-byte bound: dropped)") || bad[3] != `{"jsonrpc":"2.0","id":3` {
		t.Fatalf("garbage %q", bad)
	}
}

// The garbage count reports lines 1, 2, 3, 10, 100 and the total since.
func TestGarbageSampling(t *testing.T) {
	var g garbageCount
	var reported []int
	for range 150 {
		if n, ok := g.add(); ok {
			reported = append(reported, n)
		}
	}
	if !slices.Equal(reported, []int{1, 2, 3, 10, 100}) {
		t.Fatalf("reported at %v", reported)
	}
	if n, ok := g.unreported(); !ok || n != 150 {
		t.Fatalf("total %d %v", n, ok)
	}
	if _, ok := g.unreported(); ok {
		t.Fatal("total reported twice")
	}
}
