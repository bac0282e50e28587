package anyjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDepth(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`1`, 0},
		{`"[[[{"`, 0},
		{`{}`, 1},
		{`{"a":[1,{"b":"]}\"{"}]}`, 3},
		{`[[],[[]]]`, 3},
		{strings.Repeat("[", 20000) + strings.Repeat("]", 20000), 20000},
	} {
		if got := Depth([]byte(tc.in)); got != tc.want {
			t.Errorf("Depth(%.40q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestCut(t *testing.T) {
	deep := `{"id":1,"s":"[{\"","v":` + strings.Repeat(`{"x":[`, 10000) + `"end"` + strings.Repeat(`]}`, 10000) + `,"after":true}`
	if json.Valid([]byte(deep)) {
		t.Fatal("the test text should be past encoding/json's depth")
	}
	out, cut := Cut([]byte(deep), 4, []byte(`"CUT"`))
	if !cut {
		t.Fatal("not cut")
	}
	want := `{"id":1,"s":"[{\"","v":{"x":[{"x":"CUT"}]},"after":true}`
	if string(out) != want {
		t.Errorf("Cut = %s, want %s", out, want)
	}
	if d := Depth(out); d != 4 {
		t.Errorf("depth after the cut %d, want 4", d)
	}
	same := []byte(`{"a":[{"b":1}]}`)
	if out, cut := Cut(same, 3, []byte(`"CUT"`)); cut || string(out) != string(same) {
		t.Errorf("a text within the limit changed: %s", out)
	}
}
