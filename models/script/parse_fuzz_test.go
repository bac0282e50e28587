package script

import (
	"strings"
	"testing"
)

// Script files are user input: parsing never panics, and every error names
// the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte("- text: hi\n  tool_calls: [{name: a, arguments: {x: 1}}]\n"))
	f.Add([]byte("{\"purpose\":\"compact\",\"text\":\"s\"}\n{\"tool_calls\":[{\"name\":\"b\"}]}\n"))
	f.Add([]byte("- purpose: [\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, path := range []string{"f.yaml", "f.jsonl"} {
			var es []Entry
			var err error
			if path == "f.yaml" {
				es, err = parseYAML(path, b)
			} else {
				es, err = parseJSONL(path, b)
			}
			if err == nil {
				_, err = FromEntries(path, es...)
			}
			if err != nil && !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file name: %v", err)
			}
		}
	})
}
