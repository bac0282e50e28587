package policies

import (
	"errors"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// namedUser is a confirmation channel that says who answers through it.
type namedUser struct{ *fakeUser }

func (namedUser) ChannelName() string { return "console" }

// A confirm hook records the person's answer as data on its decision: who
// answered, what was asked (the call as the hooks before it left it, the
// hook, the prompt), the outcome and the answer's text, and when; or why
// no answer came. A replay reads this, never the reason's wording.
func TestConfirmRecordsTheAnswerAsData(t *testing.T) {
	for _, tc := range []struct {
		name    string
		user    engine.UserChannel
		by      string
		outcome runlog.ConfirmOutcome
		answer  string
		errText string
	}{
		{"approve", namedUser{&fakeUser{answer: "Yes"}}, "console", runlog.ConfirmApprove, "Yes", ""},
		{"deny", namedUser{&fakeUser{answer: "not now"}}, "console", runlog.ConfirmDeny, "not now", ""},
		{"failed", namedUser{&fakeUser{err: errors.New("the terminal closed")}}, "console", runlog.ConfirmFailed, "", "the terminal closed"},
		{"no channel", askOnlyUser{answer: "yes"}, "", runlog.ConfirmNoChannel, "", ErrNoConfirmChannel.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := chainSpec(
				schema.PreHook{Name: "c", Action: "clamp", Config: ClampConfig{Clamp: &Clamp{Arg: "distance_m", Max: "0.5"}}},
				schema.PreHook{Name: "ask", Action: "confirm", Config: ConfirmConfig{Prompt: "Move?"}})
			p := newPolicy(t, s, &fakeTools{}, nil, tc.user)
			var evs []runlog.Event
			res := p.Pre(t.Context(), callCtx(s, "move_base", map[string]any{"distance_m": 2.0}, &evs))
			if res.Allowed != (tc.outcome == runlog.ConfirmApprove) {
				t.Fatalf("allowed %v: %s", res.Allowed, res.Reason)
			}
			var c *runlog.Confirmation
			for _, ev := range evs {
				if ev.Kind == runlog.EventHook && ev.Hook.Hook == "ask" {
					c = ev.Hook.Confirmation
				}
			}
			if c == nil {
				t.Fatalf("the confirm hook's decision records no confirmation: %+v", evs)
			}
			if c.By != tc.by || c.Tool != "move_base" || c.Hook != "ask" || c.Prompt != "Move?" || c.Args["distance_m"] != 0.5 {
				t.Errorf("asked %+v, want move_base clamped to 0.5, hook ask, prompt Move?, by %q", c, tc.by)
			}
			if c.Outcome != tc.outcome || c.Answer != tc.answer || c.Error != tc.errText || c.Time.IsZero() {
				t.Errorf("answer %+v, want %s %q (error %q) with a time", c, tc.outcome, tc.answer, tc.errText)
			}
		})
	}
}
