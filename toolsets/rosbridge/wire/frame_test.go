package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// frameClient is a Client with no socket, for feeding frames directly.
func frameClient(t testing.TB, o Options) (*Client, *[]Garbage) {
	t.Helper()
	o.URL = "ws://unused"
	var got []Garbage
	o.OnGarbage = func(g Garbage) { got = append(got, g) }
	n, err := o.normalized()
	if err != nil {
		t.Fatal(err)
	}
	c, err := newClient(n)
	if err != nil {
		t.Fatal(err)
	}
	return c, &got
}

func fragmentFrame(id any, num, total any, data string) []byte {
	b, _ := json.Marshal(map[string]any{"op": "fragment", "id": id, "num": num, "total": total, "data": data})
	return b
}

func TestReassembly(t *testing.T) {
	whole := `{"op":"publish","topic":"/t","msg":{"a":1}}`
	parts := []string{whole[:10], whole[10:25], whole[25:]}
	cases := []struct {
		name    string
		frames  [][]byte
		arrives bool
		reason  string
	}{
		{"in order, string id", [][]byte{fragmentFrame("m", 0, 3, parts[0]), fragmentFrame("m", 1, 3, parts[1]), fragmentFrame("m", 2, 3, parts[2])}, true, ""},
		{"out of order, id 0 (rosbridge's first seed)", [][]byte{fragmentFrame(0, 2, 3, parts[2]), fragmentFrame(0, 0, 3, parts[0]), fragmentFrame(0, 1, 3, parts[1])}, true, ""},
		{"a repeat is harmless", [][]byte{fragmentFrame("m", 0, 3, parts[0]), fragmentFrame("m", 0, 3, parts[0]), fragmentFrame("m", 1, 3, parts[1]), fragmentFrame("m", 2, 3, parts[2])}, true, ""},
		{"a fractional total, as Python 3 rosbridge sends", [][]byte{fragmentFrame("m", 0, 3.4, parts[0]), fragmentFrame("m", 1, 3.4, parts[1]), fragmentFrame("m", 2, 3.4, parts[2])}, true, ""},
		{"num past total", [][]byte{fragmentFrame("m", 3, 3, parts[0])}, false, GarbageBadFragment},
		{"no id", [][]byte{fragmentFrame(nil, 0, 1, whole)}, false, GarbageBadFragment},
		{"data not a string", [][]byte{[]byte(`{"op":"fragment","id":"m","num":0,"total":1,"data":{"x":1}}`)}, false, GarbageBadFragment},
		{"negative num", [][]byte{fragmentFrame("m", -1, 3, parts[0])}, false, GarbageBadFragment},
		{"total changes", [][]byte{fragmentFrame("m", 0, 3, parts[0]), fragmentFrame("m", 1, 4, parts[1])}, false, GarbageBadFragment},
		{"same piece, other data", [][]byte{fragmentFrame("m", 0, 3, parts[0]), fragmentFrame("m", 0, 3, "xx")}, false, GarbageBadFragment},
		{"too many fragments", [][]byte{fragmentFrame("m", 0, 5000, parts[0])}, false, GarbageFragmentBounds},
		{"a fragment inside", [][]byte{fragmentFrame("m", 0, 1, string(fragmentFrame("n", 0, 1, whole)))}, false, GarbageBadFragment},
		{"pieces that are not JSON", [][]byte{fragmentFrame("m", 0, 2, "{nope"), fragmentFrame("m", 1, 2, "}")}, false, GarbageInvalidJSON},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, got := frameClient(t, Options{})
			c.subs["/t"] = &subscription{notify: make(chan struct{})}
			c.subscribed["/t"] = true
			asm := newReassembler(c.opts, c.garbage)
			for _, f := range tc.frames {
				c.handleFrame(asm, false, f, 1)
			}
			_, arrived := c.Latest("/t")
			if arrived != tc.arrives {
				t.Errorf("arrived %v, want %v (garbage %v)", arrived, tc.arrives, *got)
			}
			if tc.reason == "" && len(*got) != 0 {
				t.Errorf("garbage %v", *got)
			}
			if tc.reason != "" && (len(*got) == 0 || (*got)[len(*got)-1].Reason != tc.reason) {
				t.Errorf("garbage %v, want reason %q", *got, tc.reason)
			}
		})
	}
}

func TestReassemblyBoundsHeldBytesAndEvicts(t *testing.T) {
	c, got := frameClient(t, Options{MaxMessageBytes: 100, MaxPartialMessages: 2})
	asm := newReassembler(c.opts, c.garbage)
	piece := strings.Repeat("x", 40)
	c.handleFrame(asm, false, fragmentFrame("a", 0, 2, piece), 1)
	c.handleFrame(asm, false, fragmentFrame("b", 0, 2, piece), 1)
	// 80 bytes held; 40 more would pass the 100-byte bound.
	c.handleFrame(asm, false, fragmentFrame("a", 1, 2, piece+"!"), 1)
	if len(*got) != 1 || (*got)[0].Reason != GarbageFragmentBounds || asm.held != 40 {
		t.Fatalf("garbage %v, held %d", *got, asm.held)
	}
	// Two messages in progress at most: a third pushes out the oldest.
	c.handleFrame(asm, false, fragmentFrame("c", 0, 2, "y"), 1)
	c.handleFrame(asm, false, fragmentFrame("d", 0, 2, "z"), 1)
	if last := (*got)[len(*got)-1]; last.Reason != GarbageFragmentEvicted || !strings.Contains(last.Detail, `"b"`) {
		t.Errorf("eviction: %v", *got)
	}
	if len(asm.partials) != 2 || len(asm.order) != 2 || asm.held != 2 {
		t.Errorf("partials %d, order %v, held %d", len(asm.partials), asm.order, asm.held)
	}
}

func TestRepairNonFinite(t *testing.T) {
	for in, want := range map[string]string{
		`{"r":[1.0,NaN,Infinity,-Infinity]}`:  `{"r":[1.0,null,null,null]}`,
		`{"s":"NaN Infinity","r":NaN}`:        `{"s":"NaN Infinity","r":null}`,
		`{"s":"a \"NaN\" b","r":[-Infinity]}`: `{"s":"a \"NaN\" b","r":[null]}`,
		`{"r":[1]}`:                           `{"r":[1]}`,
	} {
		got, _ := repairNonFinite([]byte(in))
		if string(got) != want {
			t.Errorf("%s → %s, want %s", in, got, want)
		}
	}
}

func TestBytesAndFloat(t *testing.T) {
	for in, want := range map[string]string{`"AAEC/w=="`: "00 01 02 ff", `[0,1,2,255]`: "00 01 02 ff", `null`: ""} {
		var b Bytes
		if err := json.Unmarshal([]byte(in), &b); err != nil || fmt.Sprintf("% x", []byte(b)) != want {
			t.Errorf("%s: % x, %v", in, []byte(b), err)
		}
	}
	for _, bad := range []string{`"%%%"`, `[256]`, `[-1]`, `{"x":1}`} {
		var b Bytes
		if err := json.Unmarshal([]byte(bad), &b); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	out, _ := json.Marshal([]Float{{V: 1.5, Valid: true}, {V: math.Inf(1), Valid: true}, {}})
	if string(out) != `[1.5,null,null]` {
		t.Errorf("Float encodes as %s", out)
	}
	f, err := Floats(json.RawMessage(`[0.5,null,2]`))
	if err != nil || f[0] != 0.5 || !math.IsNaN(f[1]) || f[2] != 2 {
		t.Errorf("Floats: %v, %v", f, err)
	}
}

func TestBackoffGrowsToItsMax(t *testing.T) {
	b := Backoff{Initial: 10 * time.Millisecond, Max: 35 * time.Millisecond, Factor: 2}
	var got []time.Duration
	d := time.Duration(0)
	for range 4 {
		d = b.next(d)
		got = append(got, d)
	}
	if fmt.Sprint(got) != "[10ms 20ms 35ms 35ms]" {
		t.Errorf("backoff %v", got)
	}
}

// FuzzHandleFrame feeds arbitrary frames, whole and in fragments, to the
// frame handler: it must never panic, and a frame it cannot use is
// counted.
func FuzzHandleFrame(f *testing.F) {
	f.Add([]byte(`{"op":"publish","topic":"/t","msg":{"ranges":[1,NaN,null]}}`), uint8(3))
	f.Add([]byte(`{"op":"service_response","id":"x","service":"/s","result":true}`), uint8(1))
	f.Add([]byte(`{"op":"action_result","id":7,"action":"/a","status":"4"}`), uint8(2))
	f.Add([]byte(`{"op":"fragment","id":"f","num":0,"total":1e9,"data":"x"}`), uint8(1))
	f.Add([]byte(`[{"op":"status"}]`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, pieces uint8) {
		c, got := frameClient(t, Options{MaxMessageBytes: 1 << 16, MaxFragments: 64, MaxPartialMessages: 4})
		c.subs["/t"] = &subscription{notify: make(chan struct{})}
		asm := newReassembler(c.opts, c.garbage)
		before := c.Stats().Frames
		c.handleFrame(asm, false, data, 1)
		n := int(pieces%8) + 1
		size := len(data)/n + 1
		for i := 0; i*size < len(data); i++ {
			end := min((i+1)*size, len(data))
			c.handleFrame(asm, false, fragmentFrame("fz", i, n, string(data[i*size:end])), 1)
		}
		if uint64(len(*got)) != c.Stats().Garbage || before != 0 {
			t.Fatalf("garbage reported %d, counted %d", len(*got), c.Stats().Garbage)
		}
		if asm.held < 0 || asm.held > c.opts.MaxMessageBytes || len(asm.partials) > c.opts.MaxPartialMessages {
			t.Fatalf("reassembler out of bounds: held %d, partials %d", asm.held, len(asm.partials))
		}
	})
}
