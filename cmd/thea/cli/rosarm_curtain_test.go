package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// rosArmCurtainEpisode is the model's side of a pick-and-place whose first
// place the light curtain blocks: the model tries once more, and the second
// place runs.
const rosArmCurtainEpisode = `- tool_calls: [{name: pick, arguments: {object: mug}}]
- text: The gripper holds the mug. Putting it in the bin.
  tool_calls: [{name: place, arguments: {target: bin}}]
- text: The light curtain blocked the place. Trying again.
  tool_calls: [{name: place, arguments: {target: bin}}]
- text: The mug is in the bin.
`

// cell is the test's own socket to the fake arm: its state and its
// sensors.
type cell struct {
	t   *testing.T
	cl  *wire.Client
	url string
}

func dialCell(t *testing.T, url string) *cell {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	cl, err := wire.Dial(ctx, wire.Options{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	return &cell{t: t, cl: cl, url: url}
}

func (c *cell) call(service string, args any) json.RawMessage {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	raw, err := c.cl.CallService(ctx, service, args)
	if err != nil {
		c.t.Fatalf("%s: %v", service, err)
	}
	return raw
}

func (c *cell) state() rosbridgetest.State {
	c.t.Helper()
	st, err := c.stateErr()
	if err != nil {
		c.t.Fatal(err)
	}
	return st
}

// stateErr is the fake arm's State; unlike state it may be called from any
// goroutine.
func (c *cell) stateErr() (rosbridgetest.State, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testtime.Scale(10*time.Second))
	defer cancel()
	var st rosbridgetest.State
	raw, err := c.cl.CallService(ctx, rosbridgetest.ServiceState, nil)
	if err != nil {
		return st, fmt.Errorf("%s: %w", rosbridgetest.ServiceState, err)
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, fmt.Errorf("%s: %w", rosbridgetest.ServiceState, err)
	}
	if st.Arm == nil {
		return st, errors.New("the fake is not the arm")
	}
	return st, nil
}

// setCurtain breaks or clears the light curtain, and returns once every
// message of its former state is older than the reading's maxAge and the
// fake has published two of the new one: a fresh reading taken from then
// on can only see the new state (or none, which blocks too).
func (c *cell) setCurtain(broken bool, maxAge time.Duration) {
	c.t.Helper()
	c.call(rosbridgetest.ServiceArmCell, map[string]any{"curtain_broken": broken})
	changed := time.Now()
	n := c.state().Published[rosbridgetest.TopicLightCurtain]
	testtime.Wait(c.t, "the curtain's former state stale and its new one published", func() bool {
		return time.Since(changed) > maxAge && c.state().Published[rosbridgetest.TopicLightCurtain] >= n+2
	})
}

// rosArmSession builds a session of the spec through the Go API, with the
// wiring call the CLI makes; Close ends it with the test.
func rosArmSession(t *testing.T, spec string) (*engine.Harness, *schema.Spec) {
	t.Helper()
	opts, err := components.Session(components.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{spec}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: opts.Components.Descriptors()})
	if s == nil {
		t.Fatalf("load: %v", diags)
	}
	opts.RunLogDir = t.TempDir()
	h, err := engine.New(t.Context(), s, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	return h, s
}

// curtainMaxAge is the example's max_age of its light curtain reading.
func curtainMaxAge(t *testing.T, s *schema.Spec) time.Duration {
	t.Helper()
	sec, ok := s.Toolsets["robot"].Config.(rosbridge.Section)
	if !ok {
		t.Fatalf("toolset robot is a %T", s.Toolsets["robot"].Config)
	}
	cfg, err := rosbridge.DecodeConfig(sec.Rosbridge)
	if err != nil {
		t.Fatal(err)
	}
	d, err := time.ParseDuration(cfg.Readings.Sources["curtain_broken"].MaxAge)
	if err != nil || d <= 0 {
		t.Fatalf("curtain_broken's max_age: %v, %v", d, err)
	}
	return d
}

// The light curtain breaks between the model's decision and the call: the
// observation the model decided on was taken with the curtain clear, the
// curtain breaks while the engine holds the decision (the test consumes
// the decision's event, which the engine yields before it runs the call),
// and the reading the pre-chain takes immediately before the call blocks
// it: no goal reaches the arm while the curtain is broken. Cleared, the
// model's next place runs and the mug ends in the bin. The session is the
// example's spec through the Go API (the CLI's wiring call), so the test
// can act at that moment; the arm is the fake in a real subprocess.
func TestROSArmCurtainBreaksAfterTheDecision(t *testing.T) {
	spec, url := rosArmCopy(t)
	if err := os.WriteFile(filepath.Join(filepath.Dir(spec), "episode.yaml"), []byte(rosArmCurtainEpisode), 0o644); err != nil {
		t.Fatal(err)
	}
	h, s := rosArmSession(t, spec)
	maxAge := curtainMaxAge(t, s)
	c := dialCell(t, url)

	var evs []runlog.Event
	places := 0
	for ev := range h.RunStream(t.Context(), rosArmInstruction) {
		evs = append(evs, ev)
		switch {
		case ev.Kind == runlog.EventModel && ev.Tool == "place":
			if places++; places == 1 {
				c.setCurtain(true, maxAge)
			}
		case ev.Kind == runlog.EventHook && ev.Hook != nil && ev.Hook.Hook == "light_curtain" && ev.Hook.Decision == runlog.DecisionBlock:
			c.setCurtain(false, maxAge)
		}
	}

	// The observation of the blocked place's turn said nothing was wrong:
	// only the fresh reading saw the curtain broken.
	if obs := observationAt(evs, 2); obs == nil || obs.Held != "mug" {
		t.Fatalf("turn 2 observation: %+v", obs)
	}
	var blocked []runlog.Decision
	var results []string
	for _, ev := range evs {
		switch {
		case ev.Kind == runlog.EventHook && ev.Hook != nil && ev.Hook.Decision == runlog.DecisionBlock:
			blocked = append(blocked, *ev.Hook)
			if ev.Tool != "place" || ev.Turn != 2 {
				t.Errorf("turn %d: %s blocked", ev.Turn, ev.Tool)
			}
		case ev.Kind == runlog.EventToolResult && ev.Result != nil:
			results = append(results, ev.Tool+" "+map[bool]string{true: "ok", false: "failed"}[ev.Result.Success])
		}
	}
	t.Logf("blocked: %+v", blocked)
	// Blocked by the reading of a broken curtain; a curtain whose messages
	// stopped coming would be blocked too, as stale.
	if len(blocked) != 1 || blocked[0].Hook != "light_curtain" ||
		!(strings.Contains(blocked[0].Reason, "light curtain is broken") || strings.Contains(blocked[0].Reason, "older than its max_age")) {
		t.Fatalf("blocks: %+v", blocked)
	}
	if want := []string{"pick ok", "place failed", "place ok"}; !slices.Equal(results, want) {
		t.Fatalf("tool results %v, want %v", results, want)
	}
	if got, want := verdicts(evs), []string{"pick success by check", "place success by check"}; !slices.Equal(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	st := c.state()
	if st.Arm.GoalsWhileCurtainBroken != 0 || st.GoalsReceived != 2 || st.Arm.Mug != "bin" || st.MaxMotions != 1 {
		t.Fatalf("fake arm: %d goals while the curtain was broken, %d goals in all, mug %q, most motions at once %d",
			st.Arm.GoalsWhileCurtainBroken, st.GoalsReceived, st.Arm.Mug, st.MaxMotions)
	}
}
