package toolsets

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// fakeSession is the session side the builtin tools reach through their
// call's handle: the user, the skills (TaskSkills) and the Scene Graph
// (SceneReader).
type fakeSession struct {
	user   engine.UserChannel
	mu     sync.Mutex
	events []runlog.Event
	skills map[string]string
	loaded []string // the skills Load added to the task
	// resources by "skill/path"
	resources map[string]string
	entries   []scenegraph.Entry
	panics    bool
	// graph answers the ref look-ups (an empty graph when nil).
	graph *scenegraph.Graph
}

var (
	_ engine.TaskSkills  = (*fakeSession)(nil)
	_ engine.SceneReader = (*fakeSession)(nil)
)

// handle is what the engine would hand one call.
func (h *fakeSession) handle() *engine.CallHandle {
	return &engine.CallHandle{User: h.user, Skills: h, Scene: h, Emit: h.emit}
}

func (h *fakeSession) scene() *scenegraph.Graph {
	if h.graph == nil {
		h.graph = scenegraph.New(10)
	}
	return h.graph
}
func (h *fakeSession) Relations(ref, rel string) ([]scenegraph.Relation, error) {
	return h.scene().Relations(ref, rel)
}
func (h *fakeSession) View(ref string) (scenegraph.View, error) { return h.scene().View(ref) }
func (h *fakeSession) Describe(refs []string) ([]string, error) {
	if err := h.scene().Known(refs...); err != nil {
		return nil, err
	}
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i], _ = h.scene().Describe(r)
	}
	return out, nil
}

func (h *fakeSession) Load(name string) (string, error) {
	if b, ok := h.skills[name]; ok {
		h.loaded = append(h.loaded, name)
		return b, nil
	}
	return "", fmt.Errorf("unknown skill %q (known: open_drawer)", name)
}
func (h *fakeSession) Resource(_ context.Context, skill, path string) (string, error) {
	if r, ok := h.resources[skill+"/"+path]; ok {
		return r, nil
	}
	return "", fmt.Errorf("skill %q is not loaded in this task", skill)
}
func (h *fakeSession) Lookup(q string) []scenegraph.Entry {
	if h.panics {
		panic("scene graph corrupted")
	}
	var out []scenegraph.Entry
	for _, e := range h.entries {
		if strings.Contains(e.Name, q) || e.Class == q {
			out = append(out, e)
		}
	}
	return out
}
func (h *fakeSession) emit(e runlog.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, e)
}

// sessionSet hands every call of its (in-process) tools the fake
// session's handle, as the engine does.
type sessionSet struct {
	engine.Toolset
	s *fakeSession
}

func (w sessionSet) Tools(ctx context.Context) ([]engine.Tool, error) {
	tools, err := w.Toolset.Tools(ctx)
	out := make([]engine.Tool, len(tools))
	for i, t := range tools {
		out[i] = withHandle{t.(engine.InProcessTool), w.s}
	}
	return out, err
}

type withHandle struct {
	engine.InProcessTool
	s *fakeSession
}

func (w withHandle) Call(ctx context.Context, args json.RawMessage) runlog.Envelope {
	return w.CallWith(ctx, w.s.handle(), args)
}

func builtinSpec(tools ...string) *schema.Spec {
	return &schema.Spec{Toolsets: map[string]schema.Toolset{"core": {Kind: "builtin", Tools: tools}}}
}

// configFor is the ToolsetConfig the engine would build for spec's toolset.
func configFor(spec *schema.Spec, name string, stream engine.TaskStream) engine.ToolsetConfig {
	return engine.ToolsetConfig{Name: name, Section: withSchemaDefaults(spec.Toolsets[name]), Dir: spec.Dir,
		Observation: spec.Observation.Tool, Stream: stream, Body: spec.Embodiment, Uncertainty: spec.Safety.Uncertainty,
		Contract: func(tool string) schema.ToolContract { return spec.ContractFor(name, tool) }}
}

// newBuiltin starts a builtin toolset whose calls reach s.
func newBuiltin(t *testing.T, spec *schema.Spec, s *fakeSession) engine.Toolset {
	t.Helper()
	ts, err := engine.StartToolset(t.Context(), BuiltinKind(), configFor(spec, "core", nil), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sessionSet{ts, s}
}

func TestQueryUser(t *testing.T) {
	script := channels.NewScript(channels.Answer{Match: "which mug", Answer: "2"})
	h := &fakeSession{user: script, graph: twoMugs()}
	ts := newBuiltin(t, builtinSpec(), h)
	env := call(t, ts, "query_user", `{"question":"Put away which mug?","choices":["red","blue"],"refs":["obj:mug","obj:mug#2"]}`)
	wantSuccess(t, env)
	// The second choice stands for the second ref: the answer is grounded.
	if env.Value["answer"] != "blue" || env.Value["ref"] != "obj:mug#2" {
		t.Fatalf("answer = %v", env.Value)
	}
	q := script.Questions()
	if len(q) != 1 || strings.Join(q[0].Refs, ",") != "obj:mug,obj:mug#2" || len(q[0].Candidates) != 2 {
		t.Fatalf("questions = %+v", q)
	}
	if c := q[0].Candidates[1]; !strings.HasPrefix(c.Line, "obj:mug#2: on place:cabinet") || c.View == nil || string(c.View.Data) != "head-png" {
		t.Fatalf("candidate = %+v", c)
	}
	if len(h.events) != 1 || h.events[0].Kind != runlog.EventQuestion || h.events[0].Args["answer"] != "blue" || h.events[0].Args["ref"] != "obj:mug#2" {
		t.Fatalf("events = %+v", h.events)
	}
	// An unknown ref is refused before anyone is asked, naming the known refs.
	wantFailure(t, call(t, ts, "query_user", `{"question":"Which mug?","refs":["obj:3"]}`), `unknown scene-graph ref "obj:3"`, "obj:mug#2", "not asked")
	if len(script.Questions()) != 1 {
		t.Fatal("a question with an unknown ref must not reach the user")
	}
	// Nothing left to answer: a failure the model can act on.
	wantFailure(t, call(t, ts, "query_user", `{"question":"Really?"}`), "did not answer", "no answer")
	wantFailure(t, call(t, ts, "query_user", `{"question":""}`), `argument "question"`)
}

func TestNotifyUser(t *testing.T) {
	script := channels.NewScript()
	h := &fakeSession{user: script}
	ts := newBuiltin(t, builtinSpec(), h)
	wantSuccess(t, call(t, ts, "notify_user", `{"message":"halfway there"}`))
	if n := script.Notifications(); len(n) != 1 || n[0] != "halfway there" {
		t.Fatalf("notifications = %v", n)
	}
	if len(h.events) != 1 || h.events[0].Kind != runlog.EventNotify || h.events[0].Text != "halfway there" {
		t.Fatalf("events = %+v", h.events)
	}
}

func TestLoadSkillAndSceneLookup(t *testing.T) {
	h := &fakeSession{user: channels.NewScript(), skills: map[string]string{"open_drawer": "Pull the handle."},
		entries: []scenegraph.Entry{{Ref: "obj:1", Name: "red mug", Class: "mug", Source: "head", SeenTurn: 3}}}
	ts := newBuiltin(t, builtinSpec(), h)
	env := call(t, ts, "load_skill", `{"name":"open_drawer"}`)
	wantSuccess(t, env)
	// The body joins the system message (Resident context); the result
	// only says so: a body in the result would be sent twice, and stay in
	// the history of later tasks.
	if _, ok := env.Value["instructions"]; ok || !strings.Contains(fmt.Sprint(env.Value["loaded"]), "system message") {
		t.Fatalf("load_skill = %v, want where the body went, not the body", env.Value)
	}
	if got := h.loaded; len(got) != 1 || got[0] != "open_drawer" {
		t.Fatalf("skills loaded into the task: %v", got)
	}
	wantFailure(t, call(t, ts, "load_skill", `{"name":"fly"}`), `unknown skill "fly"`, "open_drawer")

	env = call(t, ts, "scene_lookup", `{"query":"mug"}`)
	wantSuccess(t, env)
	entries, _ := env.Value["entries"].([]any)
	if env.Value["count"] != 1 || len(entries) != 1 || entries[0].(map[string]any)["ref"] != "obj:1" {
		t.Fatalf("scene_lookup = %v", env.Value)
	}
}

func TestBuiltinPanicBecomesFailure(t *testing.T) {
	h := &fakeSession{user: channels.NewScript(), panics: true}
	ts := newBuiltin(t, builtinSpec(), h)
	wantFailure(t, call(t, ts, "scene_lookup", `{"query":"mug"}`), "internal error", "scene graph corrupted")
}

func TestBuiltinRestriction(t *testing.T) {
	ts := newBuiltin(t, builtinSpec("notify_user"), &fakeSession{user: channels.NewScript()})
	tools, _ := ts.Tools(t.Context())
	if len(tools) != 1 || tools[0].Def().Name != "notify_user" {
		t.Fatalf("tools = %v", tools)
	}
	_, err := engine.StartToolset(t.Context(), BuiltinKind(), configFor(builtinSpec("notify_user", "teleport"), "core", nil), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "teleport") {
		t.Fatalf("err = %v", err)
	}
}

func TestQueryUserIgnoresToolsetTimeout(t *testing.T) {
	// A person answers on their own time: the toolset's timeout does not
	// bound query_user (the session's user channel applies user.timeout).
	r, w := io.Pipe()
	t.Cleanup(func() { _ = w.Close() })
	spec := builtinSpec()
	cfg := spec.Toolsets["core"]
	cfg.Timeout = schema.Duration(time.Millisecond)
	spec.Toolsets["core"] = cfg
	ts := newBuiltin(t, spec, &fakeSession{user: channels.NewTerminal(r, io.Discard)})
	go func() {
		time.Sleep(20 * time.Millisecond) // well past the toolset's timeout
		_, _ = io.WriteString(w, "later\n")
	}()
	env := call(t, ts, "query_user", `{"question":"anyone?"}`)
	wantSuccess(t, env)
	if env.Value["answer"] != "later" {
		t.Fatalf("answer = %v", env.Value["answer"])
	}
}

func TestReadSkillResource(t *testing.T) {
	h := &fakeSession{user: channels.NewScript(), resources: map[string]string{"open_drawer/handles.md": "knobs and bars"}}
	ts := newBuiltin(t, builtinSpec("read_skill_resource"), h)
	env := call(t, ts, "read_skill_resource", `{"skill":"open_drawer","path":"handles.md"}`)
	wantSuccess(t, env)
	if env.Value["content"] != "knobs and bars" || env.Value["path"] != "handles.md" {
		t.Fatalf("read_skill_resource = %v", env.Value)
	}
	wantFailure(t, call(t, ts, "read_skill_resource", `{"skill":"wipe","path":"a.md"}`), "resource not read", `skill "wipe" is not loaded`)
	wantFailure(t, call(t, ts, "read_skill_resource", `{"skill":"open_drawer"}`), "path")
}

// A builtin tool reaches its session only through the handle its call
// gets: called without one (outside a session) it refuses.
func TestBuiltinWithoutHandleRefuses(t *testing.T) {
	ts, err := engine.StartToolset(t.Context(), BuiltinKind(), configFor(builtinSpec(), "core", nil), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantFailure(t, call(t, ts, "notify_user", `{"message":"hi"}`), "notify_user runs only inside a session")
}

// withSchemaDefaults gives a section built in Go the schema's defaults for
// the body layer's fields it leaves zero, as schema.Load fills them: the
// body layer itself keeps no default of its own.
func withSchemaDefaults(ts schema.Toolset) schema.Toolset {
	d, err := schema.ToolsetDefaults(ts.Kind)
	if err != nil {
		panic(err)
	}
	if ts.StartTimeout == 0 {
		ts.StartTimeout = d.StartTimeout
	}
	if ts.StopGrace == 0 {
		ts.StopGrace = d.StopGrace
	}
	if ts.MaxResultBytes == 0 {
		ts.MaxResultBytes = d.MaxResultBytes
	}
	return ts
}
