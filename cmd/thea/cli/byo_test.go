package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/runlog"
)

// kbServer is the third-party MCP server the bring-your-own-mcp example uses.
const kbServer = "mcp-server-memory"

// The bring-your-own-mcp example, end to end: its back-end is the official
// knowledge-graph memory server, which Thea knows nothing about. A first
// session records where the keys live and reads it back; a second session,
// a new server process, recalls it from the server's file and is stopped by
// the spec's hook from writing a kind of entity the spec forbids.
func TestBringYourOwnMCP(t *testing.T) {
	if _, err := exec.LookPath(kbServer); err != nil {
		t.Skipf("%s is not on PATH; install it with `npm install -g @modelcontextprotocol/server-memory@2026.8.31`", kbServer)
	}
	// A copy, so the server's knowledge graph lands in a temp dir rather
	// than in examples/bring-your-own-mcp/.thea.
	dir := t.TempDir()
	for _, name := range []string{"spec.cue", "episode.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "bring-your-own-mcp", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kbFile := filepath.Join(dir, ".thea", "where-things-live.jsonl")

	// Session 1: the example's own episode.
	evs := runKB(t, dir, "The spare house keys live in the top drawer of the hallway console. Remember that, then tell me where they are.")
	got := toolOutcomes(evs)
	want := []string{"create_entities ok", "create_relations ok", "add_observations ok", "search_nodes ok"}
	if !slices.Equal(got, want) {
		t.Errorf("session 1 tool results:\n got %v\nwant %v", got, want)
	}
	found := resultOf(t, evs, "search_nodes")
	if obs := observationsOf(found, "spare house keys"); !slices.Contains(obs, "kept in the top drawer of the hallway console") {
		t.Errorf("search_nodes: keys' observations = %v, want the recorded place; value %v", obs, found)
	}
	if !hasRelation(found, "spare house keys", "lives in", "hallway console") {
		t.Errorf("search_nodes: no lives-in relation in %v", found)
	}
	if n := countHooks(evs, "note_kb_write", "note"); n != 3 {
		t.Errorf("note_kb_write noted %d writes, want 3", n)
	}
	if done := doneOf(evs); done == nil || done.Reason != runlog.DoneFinal || done.Turns != 5 || !strings.Contains(done.Text, "hallway console") {
		t.Errorf("session 1 done = %+v, want a final answer after 5 turns naming the hallway console", done)
	}
	b, err := os.ReadFile(kbFile)
	if err != nil {
		t.Fatalf("the server's knowledge graph: %v", err)
	}
	if !strings.Contains(string(b), `"relationType":"lives in"`) {
		t.Errorf("%s lacks the relation:\n%s", kbFile, b)
	}

	// Session 2: a new server process reads the same file; the pre-hook
	// blocks a person entity before it reaches the server.
	recall := `
- tool_calls:
    - name: open_nodes
      arguments: {names: [spare house keys]}
- tool_calls:
    - name: create_entities
      arguments:
        entities: [{name: Alice, entityType: person, observations: [owns the spare keys]}]
- text: "The spare house keys are in the top drawer of the hallway console. I did not record Alice: the knowledge base holds only objects and places."
`
	if err := os.WriteFile(filepath.Join(dir, "episode.yaml"), []byte(recall), 0o644); err != nil {
		t.Fatal(err)
	}
	evs = runKB(t, dir, "Where are the spare house keys? Also remember that Alice owns them.")
	got = toolOutcomes(evs)
	want = []string{"open_nodes ok", `create_entities failed: blocked by hook objects_and_places_only: The household knowledge base holds only entities of type "object" or "place".`}
	if !slices.Equal(got, want) {
		t.Errorf("session 2 tool results:\n got %v\nwant %v", got, want)
	}
	opened := resultOf(t, evs, "open_nodes")
	if obs := observationsOf(opened, "spare house keys"); !slices.Contains(obs, "kept in the top drawer of the hallway console") {
		t.Errorf("open_nodes in a new session: keys' observations = %v, want the place recorded in session 1", obs)
	}
	if n := countHooks(evs, "objects_and_places_only", "block"); n != 1 {
		t.Errorf("objects_and_places_only blocked %d calls, want 1", n)
	}
	if done := doneOf(evs); done == nil || done.Reason != runlog.DoneFinal || done.Turns != 3 {
		t.Errorf("session 2 done = %+v, want a final answer after 3 turns", done)
	}
	b, err = os.ReadFile(kbFile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "Alice") {
		t.Errorf("the blocked entity reached the server:\n%s", b)
	}
}

// runKB runs one task of the spec in dir and returns its run log.
func runKB(t *testing.T, dir, instruction string) []runlog.Event {
	t.Helper()
	runs := t.TempDir()
	var out, errb bytes.Buffer
	code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, []string{
		"run", "--spec", filepath.Join(dir, "spec.cue"), "--run-log", runs, instruction,
	})
	if code != 0 {
		t.Fatalf("thea run exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	return readRunLog(t, runs)
}

// toolOutcomes lists each tool result as "tool ok" or "tool failed: reason".
func toolOutcomes(evs []runlog.Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Kind != runlog.EventToolResult {
			continue
		}
		if ev.Result.Success {
			out = append(out, ev.Tool+" ok")
		} else {
			out = append(out, ev.Tool+" failed: "+ev.Result.Reason)
		}
	}
	return out
}

// resultOf returns the value of tool's first successful result.
func resultOf(t *testing.T, evs []runlog.Event, tool string) map[string]any {
	t.Helper()
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult && ev.Tool == tool && ev.Result.Success {
			return ev.Result.Value
		}
	}
	t.Fatalf("no successful %s result in the run log", tool)
	return nil
}

// observationsOf reads the named entity's observations from a graph value
// ({entities: [{name, entityType, observations}], relations: [...]}).
func observationsOf(graph map[string]any, name string) []string {
	entities, _ := graph["entities"].([]any)
	for _, e := range entities {
		m, _ := e.(map[string]any)
		if m["name"] != name {
			continue
		}
		obs, _ := m["observations"].([]any)
		var out []string
		for _, o := range obs {
			if s, ok := o.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func hasRelation(graph map[string]any, from, kind, to string) bool {
	relations, _ := graph["relations"].([]any)
	return slices.ContainsFunc(relations, func(r any) bool {
		m, _ := r.(map[string]any)
		return m["from"] == from && m["relationType"] == kind && m["to"] == to
	})
}

func countHooks(evs []runlog.Event, hook, decision string) int {
	n := 0
	for _, ev := range evs {
		if ev.Kind == runlog.EventHook && ev.Hook.Hook == hook && string(ev.Hook.Decision) == decision {
			n++
		}
	}
	return n
}

func doneOf(evs []runlog.Event) *runlog.Report {
	for _, ev := range evs {
		if ev.Kind == runlog.EventDone {
			return ev.Done
		}
	}
	return nil
}
