package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// fakeTool answers by its function; it knows nothing of guarantees.
type fakeTool struct {
	name, schema string
	selfTimed    bool
	fn           func(ctx context.Context) runlog.Envelope
}

func (f *fakeTool) Def() model.ToolDef {
	return model.ToolDef{Name: f.name, InputSchema: json.RawMessage(f.schema)}
}
func (f *fakeTool) Call(ctx context.Context, _ json.RawMessage) runlog.Envelope { return f.fn(ctx) }
func (f *fakeTool) SelfTimed() bool                                             { return f.selfTimed }

type fakeSet struct{ tools []Tool }

func (s *fakeSet) Name() string                          { return "fake" }
func (s *fakeSet) Tools(context.Context) ([]Tool, error) { return s.tools, nil }
func (s *fakeSet) Close() error                          { return nil }

// Every tool of a kind that implements only its transport gets the
// guarantees from the engine: arguments checked, a panic recovered, the
// result capped; a name no provider accepts and a schema that refers outside
// itself leave the tool out; a tools list naming a missing tool fails.
func TestGuardToolsetGivesEveryToolTheGuarantees(t *testing.T) {
	ok := func(context.Context) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"big": strings.Repeat("x", 8000)}}
	}
	set := &fakeSet{tools: []Tool{
		&fakeTool{name: "move", schema: `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, fn: ok},
		&fakeTool{name: "boom", fn: func(context.Context) runlog.Envelope { panic("driver fault") }},
		&fakeTool{name: "bad\x1bname", fn: ok},
		&fakeTool{name: "ext", schema: `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`, fn: ok},
	}}
	cfg := ToolsetConfig{Name: "fake", Section: schema.Toolset{Kind: "fake", MaxResultBytes: 2048}}
	g, err := GuardToolset(t.Context(), set, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, _ := g.Tools(t.Context())
	var names []string
	byName := map[string]Tool{}
	for _, tl := range tools {
		names = append(names, tl.Def().Name)
		byName[tl.Def().Name] = tl
	}
	if strings.Join(names, ",") != "move,boom" {
		t.Fatalf("offered %v, want move and boom", names)
	}
	if why := g.Unavailable()["ext"]; !strings.Contains(why, "outside the schema") {
		t.Fatalf("Unavailable = %v", g.Unavailable())
	}
	// A session whose tools list names it does not start without it.
	if err := listedOffered("fake", []string{"move", "ext"}, tools, g.Unavailable()); err == nil ||
		!strings.Contains(err.Error(), `toolsets.fake.tools: toolset does not provide "ext": `) || !strings.Contains(err.Error(), "outside the schema") {
		t.Fatalf("listed but unavailable: %v", err)
	}
	wantFailure(t, byName["move"].Call(t.Context(), json.RawMessage(`{}`)), `missing required argument "n"`)
	env := byName["move"].Call(t.Context(), json.RawMessage(`{"n":1}`))
	if _, cut := env.Value["truncated"]; !env.Success || !cut {
		t.Fatalf("result not capped: %+v", env.Value["truncated"])
	}
	wantFailure(t, byName["boom"].Call(t.Context(), nil), "internal error", "driver fault")

	// Guarding a guarded tool changes nothing: one check, one recovery.
	again, err := GuardTool(byName["move"], schema.ToolContract{}, 0, 1<<20)
	if err != nil || again != byName["move"] {
		t.Fatalf("a guarded tool was wrapped again (%v)", err)
	}

	cfg.Section.Tools = []string{"move", "jump"}
	if _, err := GuardToolset(t.Context(), set, cfg, nil); err == nil || !strings.Contains(err.Error(), `toolset does not provide "jump"`) {
		t.Fatalf("missing listed tool: %v", err)
	}
}

// A SelfTimed tool is bounded by its contract's timeout only, never the
// toolset's.
func TestGuardSelfTimed(t *testing.T) {
	bound := func(ctx context.Context) runlog.Envelope {
		d, ok := ctx.Deadline()
		if !ok {
			return runlog.Envelope{Success: true, Value: map[string]any{"bound": "none"}}
		}
		return runlog.Envelope{Success: true, Value: map[string]any{"bound": time.Until(d).Round(time.Hour).String()}}
	}
	for _, tc := range []struct {
		self     bool
		contract time.Duration
		want     string
	}{{false, 0, "1h0m0s"}, {true, 0, "none"}, {true, 2 * time.Hour, "2h0m0s"}} {
		g, err := GuardTool(&fakeTool{name: "ask", selfTimed: tc.self, fn: bound},
			schema.ToolContract{Timeout: schema.Duration(tc.contract)}, time.Hour, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if env := g.Call(t.Context(), nil); env.Value["bound"] != tc.want {
			t.Errorf("self-timed %v, contract %s: bound %v, want %s", tc.self, tc.contract, env.Value["bound"], tc.want)
		}
	}
}
