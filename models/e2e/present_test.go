package e2e_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runEvent is what checkPresent reads of a run-log event.
type runEvent struct {
	Kind        string `json:"kind"`
	Turn        int    `json:"turn"`
	Text        string `json:"text"`
	Observation *struct {
		Summary string            `json:"summary"`
		Images  []json.RawMessage `json:"images"`
	} `json:"observation"`
}

// turnWorld is the present of one turn as the run log has it: the Brief
// and the observation.
type turnWorld struct {
	brief, summary string
	images         int
}

// worldByTurn reads the one task's run log under runs.
func worldByTurn(t *testing.T, runs string) map[int]*turnWorld {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
	must(t, err)
	if len(paths) != 1 {
		t.Fatalf("run logs %v, want one", paths)
	}
	f, err := os.Open(paths[0])
	must(t, err)
	defer f.Close()
	out := map[int]*turnWorld{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var ev runEvent
		must(t, json.Unmarshal(sc.Bytes(), &ev))
		w := out[ev.Turn]
		if w == nil {
			w = &turnWorld{}
			out[ev.Turn] = w
		}
		switch {
		case ev.Kind == "scene" && strings.HasPrefix(ev.Text, briefHeader):
			w.brief = ev.Text
		case ev.Kind == "observation" && ev.Observation != nil:
			w.summary, w.images = ev.Observation.Summary, len(ev.Observation.Images)
		}
	}
	must(t, sc.Err())
	return out
}

// jsonText is s as it reads inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b[1 : len(b)-1])
}

// checkPresent reads every decide request of the household task, as the
// wire carried it:
//   - it ends with the Refreshed tail: the whole Brief of its turn, then
//     the whole observation of its turn (its text, then its camera images);
//   - it holds no Brief or observation of an earlier turn anywhere;
//   - its latest Task Notes snapshot is whole: the goal, the phase and an
//     event of every earlier turn;
//   - Anthropic's cache_control marks the system prompt and the last block
//     before the tail;
//   - from the second request on, it repeats the part of the request before
//     it that preceded that one's tail: at least 0.97 of it (token-weighted),
//     and what a prefix cache misses is within 10% of the floor (the tail
//     and the messages the turn added).
func checkPresent(t *testing.T, bodies [][]byte, runs string, anthropic bool) {
	world := worldByTurn(t, runs)
	reqs := make([]request, len(bodies))
	var shares, misses, totals []string
	for i, body := range bodies {
		turn := i + 1
		w := world[turn]
		if w == nil || w.brief == "" || w.summary == "" {
			t.Fatalf("turn %d: the run log has no Brief or observation", turn)
		}
		r := segments(t, body)
		reqs[i] = r
		// The tail: [the head of its own message,] its text, its images.
		tail := r.segs[r.tail:]
		if strings.HasPrefix(tail[0].key, `t{`) {
			tail = tail[1:]
		}
		text := strings.TrimPrefix(tail[0].key, "t")
		wantObs := fmt.Sprintf("\n\nObservation (turn %d, from observe):\nsummary: %s\n", turn, w.summary)
		notes, present, _ := strings.Cut(text, "\n\n"+briefHeader)
		if present = briefHeader + present; !strings.HasPrefix(present, w.brief+wantObs) {
			t.Errorf("request %d: its tail is not the whole Task Notes, Brief and observation of turn %d:\n%s\nwant the Brief and observation to start with\n%s", turn, turn, text, w.brief+wantObs)
		}
		// Each image follows its label (a text segment of its own, or the
		// end of the text before it).
		var images []segment
		for _, s := range tail[1:] {
			if !strings.HasPrefix(s.key, "t\nCamera ") {
				images = append(images, s)
			}
		}
		if len(images) != w.images {
			t.Errorf("request %d: its tail has %d segments after its text, want the observation's %d images", turn, len(images), w.images)
		} else {
			for _, s := range images {
				if !strings.HasPrefix(s.key, "i") {
					t.Errorf("request %d: its tail holds more than the present: %.200s", turn, s.key)
				}
			}
		}
		for k := 1; k < turn; k++ {
			for _, old := range []string{fmt.Sprintf("Observation (turn %d,", k), fmt.Sprintf("%s%d,", briefHeader, k)} {
				if strings.Contains(string(body), old) {
					t.Errorf("request %d holds %q: a Refreshed text of an earlier turn", turn, old)
				}
			}
			if s := world[k].summary; s != w.summary && strings.Contains(string(body), jsonText(s)) {
				t.Errorf("request %d holds the observation of turn %d: %q", turn, k, s)
			}
		}
		// Anthropic's cache breakpoints: on the system prompt and on the
		// last block before the tail, none in the tail.
		var marks []int
		for k, s := range r.segs {
			if s.breakpoint {
				marks = append(marks, k)
			}
		}
		if len(marks) > 0 && (len(marks) != 2 || marks[1] != r.tail-1) {
			t.Errorf("request %d: cache_control on segments %v, want the system prompt's and the last before the tail (%d)", turn, marks, r.tail-1)
		}
		if anthropic && len(marks) == 0 {
			t.Errorf("request %d: no cache_control", turn)
		}
		totals = append(totals, fmt.Sprintf("%.0f", weight(r.segs)))
		if !strings.HasPrefix(notes, "Task Notes\nGoal: Put the mug in the top drawer\nPhase: ") {
			t.Errorf("request %d: the tail's Task Notes are not whole:\n%s", turn, notes)
		}
		for k := 1; k < turn; k++ {
			if !strings.Contains(notes, fmt.Sprintf("\n- turn %d: ", k)) {
				t.Errorf("request %d: the tail's Task Notes have no event of turn %d:\n%s", turn, k, notes)
			}
		}
		if i == 0 {
			continue
		}
		share, miss, floor := cacheFigures(reqs[i-1], r)
		shares = append(shares, fmt.Sprintf("%.3f", share))
		misses = append(misses, fmt.Sprintf("%.0f/%.0f(tail %.0f)", miss, floor, weight(r.segs[r.tail:])))
		if share < 0.97 {
			t.Errorf("request %d repeats %.3f of request %d's part before the tail, want at least 0.97", turn, share, turn-1)
		}
		if miss > 1.10*floor {
			t.Errorf("request %d: a prefix cache misses %.0f tokens, more than 10%% over the floor of %.0f (the tail and the turn's new messages)", turn, miss, floor)
		}
	}
	t.Logf("tokens by request: %s", strings.Join(totals, " "))
	t.Logf("share of the previous request's part before the tail repeated, requests 2..%d: %s", len(bodies), strings.Join(shares, " "))
	t.Logf("tokens a prefix cache misses / the floor (the tail and the turn's new messages), with the tail's tokens, requests 2..%d: %s", len(bodies), strings.Join(misses, " "))
}
