package replay

import (
	"strings"
	"testing"
)

// Episode files are user input: parsing never panics, and every error names
// the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"kind":"task_start","text":"go"}` + "\n" + `{"kind":"model_call","model_call":{"purpose":"decide","tool_calls":[{"name":"a","arguments":"{}"}]}}` + "\n"))
	f.Add([]byte(`{"kind":"model_call"}`))
	f.Add([]byte("{\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ep, err := Parse("ep.jsonl", b)
		if err != nil {
			if !strings.Contains(err.Error(), "ep.jsonl") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		m := FromEpisode(ep)
		for _, c := range ep.Calls {
			_ = c.Response() // arguments of any text must convert
		}
		_ = m
	})
}
