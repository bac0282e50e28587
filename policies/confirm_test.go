package policies

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A user channel that only answers questions (its input is the instruction
// stream) never confirms a call, even answering "yes": it blocks, saying
// why.
func TestConfirmNeedsAConfirmationChannel(t *testing.T) {
	s := chainSpec(schema.PreHook{Name: "ask", Action: "confirm", Prompt: "Move?"})
	p := newPolicy(t, s, &fakeTools{}, nil, askOnlyUser{answer: "yes"})
	var evs []runlog.Event
	res := p.Pre(t.Context(), callCtx(s, "move_base", map[string]any{"distance_m": 0.2}, &evs))
	if res.Allowed || !strings.Contains(res.Reason, "no confirmation channel") || !strings.Contains(res.Reason, "never from the instructions") {
		t.Fatalf("allowed %v, reason %q", res.Allowed, res.Reason)
	}
}

// A clamp that would have to flip a value's sign blocks; a two-sided clamp
// keeps a backwards value within its min.
func TestClampNeverFlipsSign(t *testing.T) {
	for _, tc := range []struct {
		name     string
		clamp    schema.Clamp
		value    float64
		allowed  bool
		want     float64
		contains string
	}{
		{"forward beyond a negative max", schema.Clamp{Arg: "distance_m", Max: "-0.1"}, 0.5, false, 0, "without reversing"},
		{"backward below a positive min", schema.Clamp{Arg: "distance_m", Min: "0.05", Max: "1"}, -0.5, false, 0, "without reversing"},
		{"backward within a two-sided clamp", schema.Clamp{Arg: "distance_m", Min: "-0.05", Max: "1"}, -50, true, -0.05, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.clamp
			s := chainSpec(schema.PreHook{Name: "c", Action: "clamp", Clamp: &c})
			p := newPolicy(t, s, &fakeTools{}, nil, nil)
			var evs []runlog.Event
			res := p.Pre(t.Context(), callCtx(s, "move_base", map[string]any{"distance_m": tc.value}, &evs))
			if res.Allowed != tc.allowed || !strings.Contains(res.Reason, tc.contains) {
				t.Fatalf("allowed %v (reason %q), want %v", res.Allowed, res.Reason, tc.allowed)
			}
			if tc.allowed && res.Args["distance_m"] != tc.want {
				t.Fatalf("distance_m = %v, want %v", res.Args["distance_m"], tc.want)
			}
		})
	}
}

// A confirmation names the call it asks about: the tool, its arguments as
// the hooks before the confirm hook left them (here clamped), and the confirm
// hook, so a channel can show what it would allow.
func TestConfirmNamesTheCall(t *testing.T) {
	s := chainSpec(
		schema.PreHook{Name: "c", Action: "clamp", Clamp: &schema.Clamp{Arg: "distance_m", Max: "0.5"}},
		schema.PreHook{Name: "ask", Action: "confirm", Prompt: "Move?"})
	u := &fakeUser{answer: "yes"}
	p := newPolicy(t, s, &fakeTools{}, nil, u)
	var evs []runlog.Event
	if res := p.Pre(t.Context(), callCtx(s, "move_base", map[string]any{"distance_m": 2.0}, &evs)); !res.Allowed {
		t.Fatalf("blocked: %s", res.Reason)
	}
	if len(u.asked) != 1 || u.asked[0].Call == nil {
		t.Fatalf("asked %+v, want one question naming its call", u.asked)
	}
	c := u.asked[0].Call
	if c.Tool != "move_base" || c.Hook != "ask" || c.Args["distance_m"] != 0.5 {
		t.Errorf("call to confirm %+v, want move_base clamped to 0.5 by hook ask", c)
	}
}
