package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
)

// quadrupedCopy copies testdata/quadruped (a spec with eight clearance
// sectors and two cameras, a door skill, a back-end whose detections have no
// position) and applies the replacements, each of which must apply.
func quadrupedCopy(t *testing.T, replace ...string) string {
	t.Helper()
	spec := testutil.ExampleCopy(t, filepath.Join("testdata", "quadruped", "spec.yaml"))
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(src, replace[i]) {
			t.Fatalf("testdata/quadruped/spec.yaml no longer has %q", replace[i])
		}
		src = strings.Replace(src, replace[i], replace[i+1], 1)
	}
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec
}

// briefs returns the Scene Graph Brief the model read at each turn.
func briefs(evs []runlog.Event) map[int]string {
	out := map[int]string{}
	for _, ev := range evs {
		if ev.Kind == runlog.EventScene && ev.Tool == "" {
			out[ev.Turn] = ev.Text
		}
	}
	return out
}

// The whole path a newcomer takes with a quadruped, valid: the spec
// validates, statically and live (the back-end's detections carry position
// and id, which the contract documents); a run keeps one ref for a door the
// back-end reports without position across turns and cameras, the door
// skill's state effect updates that object (not a new container), and the
// door's state.doors reading reaches it; the JSON output says ok.
func TestQuadrupedBringUp(t *testing.T) {
	spec := quadrupedCopy(t)
	if code, out, errs := thea(t, "validate", spec); code != 0 || !strings.HasPrefix(out, "spec ok: ") {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := thea(t, "validate", "--live", spec); code != 0 || !strings.HasSuffix(out, "back-ends checked live\n") {
		t.Fatalf("validate --live: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ := thea(t, "validate", "--format", "json", spec)
	var res struct {
		OK          bool            `json:"ok"`
		Diagnostics json.RawMessage `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || !res.OK || string(res.Diagnostics) != "[]" {
		t.Fatalf("validate --format json: exit %d, %v:\n%s", code, err, out)
	}

	evs := runTask(t, spec, "Open the front door")
	bs := briefs(evs)
	if len(bs) != 5 {
		t.Fatalf("%d Briefs, want one for each of 5 turns", len(bs))
	}
	for turn := 1; turn <= 5; turn++ {
		b := bs[turn]
		if strings.Contains(b, "obj:front_door#") || strings.Contains(b, "container:front_door") || strings.Contains(b, "obj:ball#") {
			t.Errorf("turn %d: the door or the ball got a second ref:\n%s", turn, b)
		}
		state := "closed"
		if turn > 3 {
			state = "open"
		}
		if want := fmt.Sprintf("- obj:front_door (door): %s [observe t%d], room hall", state, turn); !strings.Contains(b, want) {
			t.Errorf("turn %d Brief lacks %q:\n%s", turn, want, b)
		}
		if want := fmt.Sprintf("- obj:ball (toy): at (1.50, -0.40) [observe/front t%d]", turn); !strings.Contains(b, want) {
			t.Errorf("turn %d Brief lacks %q:\n%s", turn, want, b)
		}
	}
	var effects []string
	for _, ev := range evs {
		if ev.Kind == runlog.EventScene && ev.Tool != "" {
			effects = append(effects, ev.Tool+": "+ev.Text)
		}
	}
	if len(effects) != 1 || effects[0] != "open_door: obj:front_door open" {
		t.Errorf("effects applied: %q, want the door opened, as an object", effects)
	}
}

// Each mistake a newcomer made with the quadruped is reported where it
// stands, and only real mistakes are: an unrelated type error says nothing
// about the limits and sectors the embodiment declares; a literal sector
// that is not declared, and an argument an effect reads that the back-end's
// tool does not take (live), are errors; a bad answers file fails validate
// and run in words; a rule in a folded YAML string is reported at its line.
func TestQuadrupedMistakes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replace []string
		live    bool
		want    string // the only diagnostic: file:line:col is checked
		line    string // the spec line it stands on, and the text at its column
		col     string
	}{
		{
			name:    "an unrelated type error",
			replace: []string{"tags: [motion]", "tags: motion"},
			want:    `tools.walk.tags: want a list, got a string "motion"`,
			line:    "    tags: motion", col: "motion",
		},
		{
			name:    "a literal sector the embodiment lacks",
			replace: []string{"toward('front_right')", "toward('frnt_right')"},
			want:    `hooks.pre[3].rule: clearance.toward("frnt_right"): "frnt_right" is not a clearance sector of the embodiment (did you mean "front_right"?)`,
			line:    "        clearance.toward('frnt_right') < limits.min_clearance_m", col: "'frnt_right'",
		},
		{
			name:    "a misspelt sector on a folded rule's second line",
			replace: []string{"|| clearance.front < limits", "|| clearance.frnt < limits"},
			want:    `hooks.pre[3].rule: clearance has no sector "frnt" (did you mean "front"?)`,
			line:    "        || clearance.frnt < limits.min_clearance_m", col: "frnt",
		},
		{
			name:    "an effect reading an argument the back-end's tool lacks",
			replace: []string{"of: args.door,", "of: args.dor,"},
			live:    true,
			want:    `tools.open_door.effects[0].of: reads args.dor, but no tool it applies to (open_door) has an argument "dor" (did you mean "door"?)`,
			line:    `      - {set: state, of: args.dor, to: "'open'"}`, col: "dor,",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := quadrupedCopy(t, tc.replace...)
			args := []string{"validate", spec}
			if tc.live {
				if code, out, errs := thea(t, args...); code != 0 {
					t.Fatalf("static validate: exit %d, want 0 (an mcp tool's arguments are known live only)\n%s%s", code, out, errs)
				}
				args = []string{"validate", "--live", spec}
			}
			code, out, _ := thea(t, args...)
			b, err := os.ReadFile(spec)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(b), "\n")
			ln := 0
			for i, l := range lines {
				if l == tc.line {
					ln = i + 1
				}
			}
			if ln == 0 {
				t.Fatalf("the spec has no line %q", tc.line)
			}
			col := strings.Index(tc.line, tc.col) + 1
			want := fmt.Sprintf("%s:%d:%d: %s", spec, ln, col, tc.want)
			if code != 1 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, want) {
				t.Fatalf("%s: exit %d, want 1 and only\n%s\ngot:\n%s", strings.Join(args[:len(args)-1], " "), code, want, out)
			}
		})
	}

	t.Run("an answers file that is not a list", func(t *testing.T) {
		spec := quadrupedCopy(t)
		answers := filepath.Join(filepath.Dir(spec), "answers.yaml")
		if err := os.WriteFile(answers, []byte("answers:\n  answer: yes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want := answers + ":2:3: user.script: answers: want a list of {answer: ..., match?: ...}, got a mapping"
		if code, out, _ := thea(t, "validate", spec); code != 1 || out != want+"\n" {
			t.Fatalf("validate: exit %d, want 1 and\n%s\ngot:\n%s", code, want, out)
		}
		code, out, errs := thea(t, "run", "--spec", spec, "Open the front door")
		if code == 0 || !strings.Contains(out+errs, want) || strings.Contains(out+errs, "unmarshal") || strings.Contains(out+errs, "!!") {
			t.Fatalf("run: exit %d, want a failure saying\n%s\nstdout:\n%s\nstderr:\n%s", code, want, out, errs)
		}
	})
}

// The quadruped's evaluation sharded on one machine, as documented: the
// shards run side by side under embodiment.lock.mode wait, take turns on the
// body, and every seed succeeds; merged, they are the unsharded result.
func TestQuadrupedShardsOnOneMachine(t *testing.T) {
	spec := quadrupedCopy(t, "  summary: A four-legged", "  lock: {mode: wait, dir: \""+t.TempDir()+"\"}\n  summary: A four-legged")
	dir := filepath.Dir(spec)
	const shards = 3
	var wg sync.WaitGroup
	results := make([]string, shards)
	for i := range shards {
		results[i] = filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		wg.Go(func() {
			code, out, errs := thea(t, "eval", "--spec", spec, "--episodes", "6", "--shard", fmt.Sprintf("%d/%d", i, shards),
				"--format", "json", "--out", results[i], "Open the front door")
			if code != 0 {
				t.Errorf("shard %d: exit %d\nstdout:\n%s\nstderr:\n%s", i, code, out, errs)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	code, merged, errs := thea(t, append([]string{"eval", "merge"}, results...)...)
	if code != 0 || !strings.Contains(merged, "6/6 succeeded") {
		t.Fatalf("merge: exit %d\n%s%s", code, merged, errs)
	}
	code, whole, errs := thea(t, "eval", "--spec", spec, "--episodes", "6", "Open the front door")
	if code != 0 || whole != merged {
		t.Fatalf("unsharded: exit %d\n%s%s\nmerged:\n%s", code, whole, errs, merged)
	}
}
