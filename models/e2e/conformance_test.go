package e2e_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// knownGaps are the checks that still fail on this branch because another
// slice of issue 38 fixes them (check → the item). The suite fails when a
// check fails that is not listed, and when a listed check passes: the list
// only shrinks, and is empty once every slice is merged.
var knownGaps = map[string]string{}

// conformance plays a real model behind one wire: each decide request is
// answered with the task's next step, the evaluator with a success verdict,
// compaction with a checkpoint, consolidation with no candidates; every
// request is kept with the run-log events emitted before it.
type conformance struct {
	t      *testing.T
	encode func(n int, s step, count int) any
	read   func([]byte) (view, error)
	path   string
	script map[int][]step // by task

	mu     sync.Mutex
	task   int
	next   int // the task's next step
	events []runlog.Event
	views  []view
	evs    [][]runlog.Event // the events before each request
}

func (c *conformance) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || r.URL.Path != c.path {
		http.Error(w, `{"error":{"message":"unexpected request"}}`, 400)
		return
	}
	v, err := c.read(body)
	if err != nil {
		c.t.Errorf("request: %v", err)
		http.Error(w, `{"error":{"message":"unreadable request"}}`, 400)
		return
	}
	text := string(body)
	switch {
	case len(v.tools) > 0:
		v.purpose = "decide"
	case strings.Contains(text, "You judge whether one robot action"):
		v.purpose = "evaluate"
	case strings.Contains(text, "checkpoint summary"):
		v.purpose = "compact"
	default:
		v.purpose = "consolidate"
	}
	c.mu.Lock()
	v.n, v.task = len(c.views)+1, c.task
	c.views = append(c.views, v)
	c.evs = append(c.evs, slices.Clone(c.events))
	var s step
	switch v.purpose {
	case "decide":
		steps := c.script[c.task]
		if c.next < len(steps) {
			s = steps[c.next]
		} else {
			s = step{text: "The script has ended."}
		}
		c.next++
	case "evaluate":
		s = step{text: `{"status": "success", "reason": "The observation after the call shows the outcome.", "confidence": 0.9}`}
	case "compact":
		s = step{text: "Checkpoint: the robot worked on the task; see the Task Notes for each turn."}
	default:
		s = step{text: `{"candidates":[]}`}
	}
	c.mu.Unlock()
	out, err := json.Marshal(c.encode(v.n, s, estimate(v)))
	if err != nil {
		c.t.Errorf("encoding answer: %v", err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// householdScript is the household task as a real model plays it: the
// mistakes are the model's, the world answers for real.
func householdScript() map[int][]step {
	return map[int][]step{
		1: {
			{reasoning: "The user wants the mug put away: the kitchen skill covers it.", calls: []rawCall{{"load_skill", `{"name":"tidy-kitchen"}`}}},
			{text: "Driving to the table first.", calls: []rawCall{{"functions.navigate_to", `{"target":"table"}`}}},
			{text: "Again, with the tool's own name.", calls: []rawCall{{"navigate_to", `{"target":"table"}`}}},
			{calls: []rawCall{{"pick_up", `{"object_name":5}`}}},
			{calls: []rawCall{{"pick_up", `{"object_name": "mug"`}}},
			{text: "Let me look at the mug.", calls: []rawCall{{"get_image", `{"ref":"obj:mug"}`}}},
			{text: "Closing in, then grasping.", calls: []rawCall{{"move_base", `{"direction":"forward","distance_m":"3"}`}, {"pick_up", `{"object_name":"mug"}`}}},
			{calls: []rawCall{{"robot.move_base", `"{\"direction\":\"forward\",\"distance_m\":3}"`}}},
			{text: "Moving forward.", calls: []rawCall{{"move_base", `{"direction":"forward","distance_m":3}`}}},
			{calls: []rawCall{{"pick_up", `{"object_name":"mug"}`}}},
			{text: "Showing the mug to the living room on the way.", calls: []rawCall{{"navigate_to", `{"target":"sofa"}`}}},
			{calls: []rawCall{{"navigate_to", `{"target":"cabinet"}`}}},
			{calls: []rawCall{{"open_drawer", `{"name":"top_drawer"}`}}},
			{calls: []rawCall{{"place", `{"object_name":"mug","target":"top_drawer","relation":"in"}`}}},
			{text: "Closing the drawer.", calls: []rawCall{{"close_drawer", `{"name":"top_drawer"}`}}},
			{text: "Done: the mug is in the top drawer and the drawer is closed."},
		},
		2: {
			{text: "Going to the living room.", calls: []rawCall{{"navigate_to", `{"target":"sofa"}`}}},
			{calls: []rawCall{{"rotate", `{"degrees":90}`}}},
			{refusal: "I can't help with that request."},
		},
	}
}

// scenario is one robot's tasks: its spec (model section replaced by the
// wire's), the instructions in order and the model's answers to each.
type scenario struct {
	name         string
	spec         func(t *testing.T) *schema.Spec
	instructions []string
	script       map[int][]step
	// skill is a line of a skill body the script loads in the tasks of
	// skillsIn ("" when none).
	skill    string
	skillsIn map[int]bool
}

func householdScenario() scenario {
	return scenario{name: "household", instructions: []string{"Put the mug in the top drawer", "Look around the living room"},
		script: householdScript(), skill: "2. For each item, navigate to it, pick it up, and check that it is held.", skillsIn: map[int]bool{1: true},
		spec: func(t *testing.T) *schema.Spec {
			spec, _ := household(t)
			// A budget the household's requests press (Resident and the
			// tail are about 4,100 tokens), and room for the script's
			// malformed calls.
			cc := &spec.Context.Compaction
			cc.ContextWindow, cc.ReserveTokens = 5600, 1000
			spec.Safety.FailureBudget.Format = 10
			return spec
		}}
}

// The model-conformance suite: the household and TurtleBot tasks driven
// through each provider's wire by a server playing what real models do,
// every request held to what the model must be told (conformanceChecks).
func TestModelConformance(t *testing.T) {
	wires := []struct {
		name   string
		wire   wire
		encode func(int, step, int) any
		read   func([]byte) (view, error)
	}{
		{"openai", openaiWire(), encodeOpenAI, viewOpenAI},
		{"anthropic", anthropicWire(), encodeAnthropic, viewAnthropic},
	}
	t.Setenv("THEA_E2E_KEY", key)
	for _, sc := range []scenario{householdScenario(), turtlebotScenario()} {
		for _, w := range wires {
			t.Run(sc.name+"/"+w.name, func(t *testing.T) {
				// The TurtleBot's time is mostly the fake robot's motions:
				// the runs overlap.
				t.Parallel()
				failed := runConformance(t, sc, w.wire, w.encode, w.read)
				for _, ch := range conformanceChecks() {
					gap, known := knownGaps[sc.name+"/"+ch.name]
					switch msgs := failed[ch.name]; {
					case len(msgs) > 0 && !known:
						t.Errorf("%s (%s): %d requests fail it, first: %s", ch.name, ch.issue, len(msgs), msgs[0])
					case len(msgs) == 0 && known:
						t.Errorf("%s passes: remove %s/%s from knownGaps", ch.name, sc.name, ch.name)
					case len(msgs) > 0:
						t.Logf("known gap %s (%s): %d, first: %s", ch.name, gap, len(msgs), msgs[0])
					}
				}
			})
		}
	}
}

// runConformance runs a scenario's tasks in one session and returns each
// check's failures.
func runConformance(t *testing.T, sc scenario, w wire, encode func(int, step, int) any, read func([]byte) (view, error)) map[string][]string {
	spec := sc.spec(t)
	srv := &conformance{t: t, encode: encode, read: read, path: w.path, script: sc.script}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	spec.Model = w.model(call.Endpoint{Name: "conformance-model", BaseURL: hs.URL + "/v1", APIKeyEnv: "THEA_E2E_KEY", MaxTokens: 1024},
		schema.Duration(testtime.Scale(20*time.Second)), 0)
	var h *engine.Harness
	if _, ok := spec.User.Config.(channels.ScriptConfig); ok {
		h = newHarness(t, spec, t.TempDir())
	} else {
		opts, err := components.Session(components.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		must(t, err)
		opts.RunLogDir = t.TempDir()
		h, err = engine.New(t.Context(), spec, opts)
		must(t, err)
		t.Cleanup(func() { _ = h.Close() })
	}
	for task, instruction := range sc.instructions {
		srv.mu.Lock()
		srv.task, srv.next = task+1, 0
		srv.mu.Unlock()
		var done *runlog.Report
		for ev := range h.RunStream(t.Context(), instruction) {
			srv.mu.Lock()
			srv.events = append(srv.events, ev)
			srv.mu.Unlock()
			if ev.Kind == runlog.EventDone {
				done = ev.Done
			}
		}
		srv.mu.Lock()
		steps, next := len(srv.script[task+1]), srv.next
		srv.mu.Unlock()
		if done == nil || done.Reason != runlog.DoneFinal || next != steps {
			t.Fatalf("task %d ended %+v after %d of its %d answers", task+1, done, next, steps)
		}
	}
	f := &facts{limit: spec.Context.Compaction.ContextWindow - spec.Context.Compaction.ReserveTokens, skill: sc.skill, skillsIn: sc.skillsIn}
	failed := map[string][]string{}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	peak := 0
	for i, v := range srv.views {
		peak = max(peak, estimate(v))
		// A request is read with the run log's events up to the next
		// request: what happened to the calls whose results it carries.
		f.events = srv.events
		if i+1 < len(srv.evs) {
			f.events = srv.evs[i+1]
		}
		for _, ch := range conformanceChecks() {
			for _, m := range ch.run(v, f) {
				failed[ch.name] = append(failed[ch.name], fmt.Sprintf("request %d (task %d, %s): %s", v.n, v.task, v.purpose, m))
			}
		}
	}
	t.Logf("%d requests checked; the largest counted %d tokens of %d", len(srv.views), peak, f.limit)
	return failed
}
