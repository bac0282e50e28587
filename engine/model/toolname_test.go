package model

import (
	"strings"
	"testing"
)

// Valid names pass as they are; others get a stable alias inside the
// pattern; long ones keep a prefix and a hash, so names sharing 55
// characters stay apart.
func TestWireToolName(t *testing.T) {
	long := strings.Repeat("a", 70)
	for in, want := range map[string]string{
		"move_base":     "move_base",
		"arm-status":    "arm-status",
		"arm.status":    "arm_status",
		"sim/arm:reset": "sim_arm_reset",
		"grüßen":        "gr__en",
		"":              "_e3b0c442",
		"...":           "___",
	} {
		if got := WireToolName(in); got != want {
			t.Errorf("WireToolName(%q) = %q, want %q", in, got, want)
		}
	}
	a, b := WireToolName(long), WireToolName(long+"b")
	if len(a) != 64 || len(b) != 64 || a == b || !strings.HasPrefix(a, strings.Repeat("a", 55)+"_") || !ValidToolName(a) {
		t.Fatalf("long names: %q %q", a, b)
	}
	if WireToolName(long) != a {
		t.Fatal("not stable")
	}
	if ValidToolName(strings.Repeat("x", 65)) || !ValidToolName(strings.Repeat("x", 64)) {
		t.Fatal("length bound")
	}
}

// A set maps aliases back; names it does not offer map to themselves; a
// collision names both tools.
func TestToolNames(t *testing.T) {
	tn, err := NewToolNames([]string{"move", "arm.status", "arm.home"})
	if err != nil {
		t.Fatal(err)
	}
	if tn.Wire("arm.status") != "arm_status" || tn.Name("arm_status") != "arm.status" || tn.Name("move") != "move" ||
		tn.Name("made_up") != "made_up" || tn.Wire("gone.tool") != "gone_tool" {
		t.Fatalf("mapping %+v", tn)
	}
	if got := tn.Aliases(); len(got) != 2 || got[0] != (Alias{"arm.home", "arm_home"}) || got[1] != (Alias{"arm.status", "arm_status"}) {
		t.Fatalf("aliases %v", got)
	}
	calls := []ToolCall{{Name: "arm_status"}, {Name: "move"}}
	tn.FromWire(calls)
	if calls[0].Name != "arm.status" || calls[0].WireName != "arm_status" || calls[1].WireName != "" {
		t.Fatalf("calls %+v", calls)
	}
	for _, names := range [][]string{{"arm_status", "arm.status"}, {"arm.status", "arm:status"}} {
		if err := CheckToolNames(names); err == nil || !strings.Contains(err.Error(), "would both reach the model as \"arm_status\"") {
			t.Errorf("%v: err %v", names, err)
		}
	}
	if tn, err := NewToolNames([]string{"a", "b"}); err != nil || tn.toWire != nil {
		t.Fatalf("all valid: %+v %v", tn, err)
	}
}
