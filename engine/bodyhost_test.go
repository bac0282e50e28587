package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// The host's part of the body layer, without a back-end: a kind reaches a
// started toolset only through the installed layer (its Transport) or as
// in-process tools that move nothing. What the layer does to the calls is
// proved over real back-ends in toolsets/bodysuite, its bare row a kind
// written in the test alone.

// recordingBody is a host's body layer that records what it was asked to
// start and hands back a fixed toolset.
type recordingBody struct {
	started []string
	set     Toolset
}

func (b *recordingBody) Start(_ context.Context, cfg ToolsetConfig, open Transport) (Toolset, error) {
	if open == nil {
		return nil, errors.New("no transport")
	}
	b.started = append(b.started, cfg.Name)
	return b.set, nil
}

type closeCount struct {
	Toolset
	closes int
}

func (c *closeCount) Close() error { c.closes++; return nil }

func okTool(name string) Tool {
	return &fakeTool{name: name, schema: `{"type":"object"}`, fn: func(context.Context) runlog.Envelope { return runlog.Envelope{Success: true} }}
}

func unusedTransport(ToolsetConfig, BackendEnv) (Backend, error) {
	return nil, errors.New("a recordingBody never opens it")
}

// A kind is its Transport or its InProcess tools: one of them, not both.
func TestToolsetKindStartsOneWay(t *testing.T) {
	inProc := func(context.Context, ToolsetConfig) (Toolset, error) { return &fakeSet{}, nil }
	for _, tc := range []struct {
		kind ToolsetKind
		want string
	}{
		{ToolsetKind{Name: "none"}, "neither a Transport nor InProcess"},
		{ToolsetKind{Name: "both", Transport: unusedTransport, InProcess: inProc}, "both a Transport and InProcess"},
	} {
		if err := NewComponents().Add(tc.kind); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Add(%s) = %v, want %q", tc.kind.Name, err, tc.want)
		}
		if _, err := StartToolset(t.Context(), tc.kind, ToolsetConfig{Name: "x"}, &recordingBody{}, nil); err == nil {
			t.Errorf("StartToolset(%s) started", tc.kind.Name)
		}
	}
}

// A transport kind starts under the installed body layer and its tools are
// guarded; with no layer installed it does not start at all.
func TestTransportStartsOnlyUnderTheBodyLayer(t *testing.T) {
	kind := ToolsetKind{Name: "wire", Transport: unusedTransport}
	c := NewComponents()
	if err := c.Add(kind); err != nil {
		t.Fatal(err)
	}
	cfg := ToolsetConfig{Name: "base", Section: schema.Toolset{Kind: "wire", MaxResultBytes: 1 << 20}}
	if _, err := c.StartToolset(t.Context(), cfg, nil); err == nil || !strings.Contains(err.Error(), "installed no body layer") {
		t.Fatalf("start without a body layer: %v", err)
	}
	body := &recordingBody{set: &fakeSet{tools: []Tool{okTool("move")}}}
	c.SetBody(body)
	g, err := c.StartToolset(t.Context(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(body.started) != 1 || body.started[0] != "base" {
		t.Fatalf("the body layer started %v", body.started)
	}
	if env := g.tools[0].Call(t.Context(), []byte(`[]`)); env.Success {
		t.Fatal("an unguarded tool: arguments that are not an object ran")
	}
}

// In-process tools move nothing: an in-process toolset that would offer a
// tool the spec declares physical does not start, and is closed.
func TestInProcessToolsetRefusesAPhysicalTool(t *testing.T) {
	set := &closeCount{Toolset: &fakeSet{tools: []Tool{okTool("look"), okTool("move")}}}
	kind := ToolsetKind{Name: "inproc", InProcess: func(context.Context, ToolsetConfig) (Toolset, error) { return set, nil }}
	cfg := ToolsetConfig{Name: "core", Section: schema.Toolset{MaxResultBytes: 1 << 20}, Contract: func(tool string) schema.ToolContract {
		return schema.ToolContract{Physical: tool == "move"}
	}}
	_, err := StartToolset(t.Context(), kind, cfg, &recordingBody{}, nil)
	if err == nil || !strings.Contains(err.Error(), "move is declared physical") || !strings.Contains(err.Error(), "outside the body layer") {
		t.Fatalf("start: %v", err)
	}
	if set.closes != 1 {
		t.Fatalf("closes = %d, want 1", set.closes)
	}
	// Left out by the toolset's tools list, the physical tool is not offered.
	cfg.Section.Tools = []string{"look"}
	if _, err := StartToolset(t.Context(), kind, cfg, nil, nil); err != nil {
		t.Fatalf("start without the physical tool: %v", err)
	}
}
