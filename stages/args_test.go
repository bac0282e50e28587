package stages

import (
	"reflect"
	"testing"
)

// The copy execute takes must be deep: a hook rewriting a nested argument
// in place must not change what the model event recorded.
func TestCloneValueIsDeep(t *testing.T) {
	orig, err := parseArgs([]byte(`{"a":1,"path":[{"x":0.5},"s",null,true],"o":{"k":"v"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := parseArgs([]byte(`{"a":1,"path":[{"x":0.5},"s",null,true],"o":{"k":"v"}}`))
	c := cloneValue(orig).(map[string]any)
	if !reflect.DeepEqual(c, orig) {
		t.Fatalf("copy %#v differs from %#v", c, orig)
	}
	c["a"] = 2.0
	c["path"].([]any)[0].(map[string]any)["x"] = 9.0
	c["o"].(map[string]any)["k"] = "w"
	if !reflect.DeepEqual(orig, want) {
		t.Fatalf("changing the copy changed the original: %#v", orig)
	}
}
