package stages_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/thea-harness/thea/engine"
)

// The Turn a stage gets is a handful of methods, none of which runs a tool
// outside the hook chain: no Invoke, no Pre or Post, no way to read or
// change the model's decision or to answer a call. A method added to Turn
// must be added here, on purpose.
func TestTurnAPIIsSmall(t *testing.T) {
	want := []string{"AppendNotesSnapshot", "CallTool", "Cancelled", "Compact", "Emit",
		"Observe", "SetBrief", "SetObservation", "Spec", "String", "WithScene"}
	typ := reflect.TypeFor[*engine.Turn]()
	var got []string
	for m := range typ.Methods() {
		got = append(got, m.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("*engine.Turn has methods %v, want exactly %v", got, want)
	}
	for _, name := range []string{"Invoke", "Pre", "Post", "SetDecision", "AddResult"} {
		if _, ok := typ.MethodByName(name); ok {
			t.Errorf("*engine.Turn.%s lets a stage reach a tool or a call outside the hook chain", name)
		}
	}
}
