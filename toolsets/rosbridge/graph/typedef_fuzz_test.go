package graph

import "testing"

// FuzzTypedefs: whatever rosapi answers, reading it and looking fields up
// in what was accepted never panics, and an accepted typedef's fields all
// have a type.
func FuzzTypedefs(f *testing.F) {
	f.Add([]byte(`{"typedefs": [{"type": "pkg/A", "fieldnames": ["a", "b"], "fieldtypes": ["double", "pkg/B"], "fieldarraylen": [-1, 0]}]}`))
	f.Add([]byte(`{"typedefs": [{"type": "pkg/A", "fieldnames": ["a", "b"], "fieldtypes": ["double"]}]}`))
	f.Add([]byte(`{"typedefs": [{"type": "pkg/A", "fieldnames": ["a"], "fieldtypes": ["double"], "fieldarraylen": [1, 2]}]}`))
	f.Add([]byte(`{"typedefs": [{"type": "", "fieldnames": ["a", "a"], "fieldtypes": ["x", "y"]}]}`))
	f.Add([]byte(`{"typedefs": null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		defs, err := ParseTypedefs(raw)
		if err != nil {
			return
		}
		for i := range defs {
			d := &defs[i]
			for _, name := range d.FieldNames {
				if _, _, ok := d.Field(name); !ok {
					t.Fatalf("%s: field %q accepted but not found", d.Type, name)
				}
			}
			_, _, _ = d.Field("no such field")
			_ = d.FieldList()
		}
	})
}
