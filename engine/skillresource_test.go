package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/skills"
)

// A skill's resources are readable only after the skill was loaded in the
// same task, and only inside its folder.
func TestSkillResourceNeedsLoadedSkill(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "drawer"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "drawer", "SKILL.md"), []byte("---\nname: drawer\ndescription: Opening drawers.\n---\nSee handles.md."), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "drawer", "handles.md"), []byte("knobs and bars"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("outside"), 0o644))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "drawer", "escape.md")))
	cat, err := skills.Load(t.Context(), []string{dir})
	must(t, err)

	read := func(path string) string { return `{"skill":"drawer","path":"` + path + `"}` }
	f := newFixture(t,
		toolResp("", call("read", read("handles.md"))),
		toolResp("", call("load_skill", `{"name":"drawer"}`)),
		toolResp("", call("read", read("handles.md"))),
		toolResp("", call("read", read("../drawer/handles.md"))),
		toolResp("", call("read", read("escape.md"))),
		toolResp("done"),
		toolResp("", call("read", read("handles.md"))),
		toolResp("done again"),
	)
	f.skills = cat
	f.addInProcessTool("core", "load_skill", func(_ context.Context, h *engine.CallHandle, args map[string]any) runlog.Envelope {
		if _, err := h.Skills.Load(args["name"].(string)); err != nil {
			return runlog.Failure(err.Error())
		}
		return runlog.Envelope{Success: true}
	})
	var got []string
	var last *engine.CallHandle
	f.addInProcessTool("core", "read", func(ctx context.Context, h *engine.CallHandle, args map[string]any) runlog.Envelope {
		last = h
		text, err := h.Skills.Resource(ctx, args["skill"].(string), args["path"].(string))
		if err != nil {
			got = append(got, "error: "+err.Error())
			return runlog.Failure(err.Error())
		}
		got = append(got, text)
		return runlog.Envelope{Success: true, Value: map[string]any{"content": text}}
	})
	h := f.harness(t)
	for _, in := range []string{"open the drawer", "again"} {
		if _, err := h.Run(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		`error: read_skill_resource: skill "drawer" is not loaded in this task: load it with load_skill first`,
		"knobs and bars",
		`may not contain ".."`,
		"leads outside its folder",
		`error: read_skill_resource: skill "drawer" is not loaded in this task`, // a new task
	}
	if len(got) != len(want) {
		t.Fatalf("reads %q", got)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("read %d = %q, want it to contain %q", i+1, got[i], want[i])
		}
		if strings.Contains(got[i], "outside") && !strings.HasPrefix(got[i], "error") {
			t.Errorf("read %d left the skill's folder: %q", i+1, got[i])
		}
	}
	// A handle kept past its call's task reads nothing, even of a skill
	// that task loaded.
	if _, err := last.Skills.Resource(t.Context(), "drawer", "handles.md"); err == nil || !strings.Contains(err.Error(), "the task of this call has ended") {
		t.Errorf("after its task: %v", err)
	}
}
