package e2e_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/png" // the simulator's camera frames
	"regexp"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/runlog"
)

// facts are what the checks know beside the request: the run log's events
// so far (what ran, what a hook changed), the budget, the skill body.
type facts struct {
	events   []runlog.Event
	limit    int    // context_window - reserve_tokens
	skill    string // a line of the loaded skill's body
	skillsIn map[int]bool
}

// check reads one request and says what is wrong with it (nil: nothing).
type check struct {
	name  string
	issue string // the issue-38 item it holds the harness to
	run   func(v view, f *facts) []string
}

var (
	briefTurn  = regexp.MustCompile(`Scene Graph Brief \(turn (\d+)`)
	obsTurn    = regexp.MustCompile(`Observation \(turn (\d+)`)
	factStamp  = regexp.MustCompile(` t(\d+)\]`)
	notesTurn  = regexp.MustCompile(`(?m)^- turn (\d+):`)
	briefObj   = regexp.MustCompile(`(?m)^- obj:(\w+): .*at \(([^)]*)\).* t(\d+)\]$`)
	detection  = regexp.MustCompile(`^(\w+) .*?at \(([^)]*)\)(?:, ([\d.]+) m away)?`)
	sees       = regexp.MustCompile(`sees (\w+) [^;]*? at ([\d.]+) m`)
	robotRoom  = regexp.MustCompile(`(?m)^- robot: in (\w+)`)
	heldRoom   = regexp.MustCompile(`(?m)^- obj:(\w+): held by robot, room (\w+)`)
	imageLabel = regexp.MustCompile(`(?:Camera "[^"]+"|Image) \((\d+)x(\d+)\):\s*$`)
	claimRan   = regexp.MustCompile(`\(([\w.]+)\) ran\b`)
)

// present is the request's Brief, its observation and its latest Task
// Notes snapshot.
func present(v view) (brief, obs, notes string) {
	for _, it := range v.items {
		t := it.text
		if strings.HasPrefix(t, "Task Notes") {
			notes = t
		}
		if i := strings.Index(t, "Scene Graph Brief (turn"); i >= 0 {
			brief = t[i:]
		}
		if i := strings.Index(t, "Observation (turn"); i >= 0 {
			obs = t[i:]
			if j := strings.Index(brief, "Observation (turn"); j >= 0 {
				brief = brief[:j]
			}
		}
	}
	return brief, obs, notes
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// conformanceChecks are what every request must hold to.
func conformanceChecks() []check {
	return []check{
		{"one_clock", "two clocks: every turn stamp of a request on the task's clock", checkClock},
		{"same_rounding", "the same fact rounded differently in the Brief and the Observation", checkRounding},
		{"held_object_room", "a held object keeps its old room", checkHeld},
		{"changes_stated", "a hook that rewrites or clamps says so in the result", checkChanges},
		{"refusal_well_formed", "the one-call-per-turn refusal glued onto the JSON envelope", checkWellFormed},
		{"placeholder_apart", "a consumed image's placeholder glued onto its result's JSON", checkPlaceholder},
		{"refusal_true", "the refusal names as ran a call that was refused", checkTrue},
		{"schema_before_hooks", "a wrong-typed argument reported as a safety block", checkSchemaFirst},
		{"never_judged", "a call that never ran is never judged", checkJudged},
		{"budget", "requests over context_window - reserve_tokens in the provider's count", checkBudget},
		{"images_labelled", "observation images follow the text unlabelled", checkLabels},
		{"images_once", "after get_image the same frame is sent twice", checkImagesOnce},
		{"skill_once", "a skill body in the system message and in the tool result, and in later tasks", checkSkill},
	}
}

func checkClock(v view, _ *facts) []string {
	brief, obs, notes := present(v)
	m := obsTurn.FindStringSubmatch(obs)
	if m == nil {
		return nil
	}
	now := atoi(m[1])
	var bad []string
	if b := briefTurn.FindStringSubmatch(brief); b != nil && atoi(b[1]) != now {
		bad = append(bad, fmt.Sprintf("the Brief says turn %s, the Observation turn %d", b[1], now))
	}
	for _, s := range factStamp.FindAllStringSubmatch(brief, -1) {
		if atoi(s[1]) > now {
			bad = append(bad, fmt.Sprintf("a Brief fact stamped t%s, after the Observation's turn %d", s[1], now))
			break
		}
	}
	for _, s := range notesTurn.FindAllStringSubmatch(notes, -1) {
		if atoi(s[1]) >= now {
			bad = append(bad, fmt.Sprintf("Task Notes record turn %s before the Observation's turn %d", s[1], now))
			break
		}
	}
	return bad
}

func checkRounding(v view, _ *facts) []string {
	brief, obs, _ := present(v)
	m := obsTurn.FindStringSubmatch(obs)
	if m == nil {
		return nil
	}
	fresh := map[string]string{}
	for _, b := range briefObj.FindAllStringSubmatch(brief, -1) {
		if b[3] == m[1] {
			fresh[b[1]] = b[2]
		}
	}
	away := map[string]string{}
	var bad []string
	for _, line := range strings.Split(obs, "\n") {
		list, ok := strings.CutPrefix(line, "detections: ")
		if !ok {
			continue
		}
		for _, d := range strings.Split(list, "; ") {
			x := detection.FindStringSubmatch(d)
			if x == nil {
				continue
			}
			if p, ok := fresh[x[1]]; ok && p != x[2] {
				bad = append(bad, fmt.Sprintf("%s at (%s) in the Brief, at (%s) in the Observation", x[1], p, x[2]))
			}
			away[x[1]] = x[3]
		}
	}
	for _, s := range sees.FindAllStringSubmatch(obs, -1) {
		if d, ok := away[s[1]]; ok && d != "" && d != s[2] {
			bad = append(bad, fmt.Sprintf("%s at %s m in the summary, %s m away in the detections", s[1], s[2], d))
		}
	}
	return bad
}

func checkHeld(v view, _ *facts) []string {
	brief, _, _ := present(v)
	r := robotRoom.FindStringSubmatch(brief)
	if r == nil {
		return nil
	}
	var bad []string
	for _, h := range heldRoom.FindAllStringSubmatch(brief, -1) {
		if h[2] != r[1] {
			bad = append(bad, fmt.Sprintf("the robot is in %s holding %s, which the Brief puts in %s", r[1], h[1], h[2]))
		}
	}
	return bad
}

// results are the tool results of the request by call id.
func results(v view) map[string]string {
	out := map[string]string{}
	for _, it := range v.items {
		if it.result != "" {
			out[it.result] = strings.Join(it.pieces, "")
		}
	}
	return out
}

func checkChanges(v view, f *facts) []string {
	res := results(v)
	var bad []string
	for _, ev := range f.events {
		h := ev.Hook
		if ev.Kind != runlog.EventHook || h == nil || (h.Decision != runlog.DecisionClamp && h.Decision != runlog.DecisionRewrite) {
			continue
		}
		before, _ := json.Marshal(h.Before)
		after, _ := json.Marshal(h.After)
		if r, ok := res[ev.CallID]; ok && !bytes.Equal(before, after) && !strings.Contains(r, h.Hook) {
			bad = append(bad, fmt.Sprintf("hook %s changed %s's arguments %s → %s; its result does not say so: %.200s", h.Hook, ev.Tool, before, after, r))
		}
	}
	return bad
}

var placeholder = regexp.MustCompile(`\n\[image: [^\]]*\]`)

// checkWellFormed reads each result's text, its image placeholders aside
// (checkPlaceholder reads those).
func checkWellFormed(v view, _ *facts) []string {
	var bad []string
	for _, it := range v.items {
		for _, p := range it.pieces {
			s := strings.TrimSpace(placeholder.ReplaceAllString(p, ""))
			if !strings.HasPrefix(s, "{") { // an envelope is an object
				continue
			}
			d := json.NewDecoder(strings.NewReader(s))
			var x any
			if err := d.Decode(&x); err != nil || d.InputOffset() != int64(len(s)) {
				bad = append(bad, fmt.Sprintf("the result of %s is JSON with text glued on: %.300s", it.result, s))
			}
		}
	}
	return bad
}

// checkPlaceholder fails a result whose JSON has an image placeholder
// glued after it.
func checkPlaceholder(v view, _ *facts) []string {
	var bad []string
	for _, it := range v.items {
		for _, p := range it.pieces {
			if s := strings.TrimSpace(p); strings.HasPrefix(s, "{") && placeholder.MatchString(s) {
				bad = append(bad, fmt.Sprintf("the result of %s: %.200s", it.result, s))
			}
		}
	}
	return bad
}

// ran reports whether the run log says the call reached its tool.
func ran(f *facts, id string) bool {
	for _, ev := range f.events {
		if ev.Kind == runlog.EventToolCall && ev.CallID == id {
			return true
		}
	}
	return false
}

// checkTrue reads every text after a tool result (inside it, or beside it
// until the next result) as being about that result's call.
func checkTrue(v view, f *facts) []string {
	var bad []string
	id := ""
	for _, it := range v.items {
		if it.result != "" {
			id = it.result
		}
		text := it.text + strings.Join(it.pieces, "\n")
		if m := claimRan.FindStringSubmatch(text); m != nil && id != "" && !ran(f, id) {
			bad = append(bad, fmt.Sprintf("beside the result of %s: %q, but that call never ran", id, m[0]))
		}
	}
	return bad
}

// fits reports whether args fit a tool's input schema, as far as the top
// level's required names and the JSON types of its properties go.
func fits(schema map[string]any, args string) bool {
	var a map[string]any
	if json.Unmarshal([]byte(args), &a) != nil {
		return false
	}
	props, _ := schema["properties"].(map[string]any)
	for k, val := range a {
		p, _ := props[k].(map[string]any)
		want, _ := p["type"].(string)
		ok := true
		switch want {
		case "string":
			_, ok = val.(string)
		case "number", "integer":
			_, ok = val.(float64)
		case "boolean":
			_, ok = val.(bool)
		}
		if !ok {
			return false
		}
	}
	req, _ := schema["required"].([]any)
	for _, r := range req {
		if _, ok := a[fmt.Sprint(r)]; !ok {
			return false
		}
	}
	return true
}

func checkSchemaFirst(v view, _ *facts) []string {
	var bad []string
	for id, r := range results(v) {
		c, ok := v.calls[id]
		s, known := v.tools[c.name]
		if ok && known && strings.Contains(r, "blocked by hook") && !fits(s, c.args) {
			bad = append(bad, fmt.Sprintf("%s %s does not fit its schema, and is reported as a safety block: %.200s", c.name, c.args, r))
		}
	}
	return bad
}

func checkJudged(_ view, f *facts) []string {
	var bad []string
	for _, ev := range f.events {
		if ev.Kind == runlog.EventEvaluation && ev.CallID != "" && !ran(f, ev.CallID) {
			bad = append(bad, fmt.Sprintf("%s (call %s) was judged but never ran", ev.Tool, ev.CallID))
		}
	}
	return bad
}

// estimate counts a request the way the harness's estimator does: a token
// per four characters, four a message, 800 an image.
func estimate(v view) int {
	n := 0
	for name, s := range v.tools {
		b, _ := json.Marshal(s)
		n += (len(name)+len(b)+3)/4 + 4
	}
	for _, it := range v.items {
		n += 4
		switch {
		case it.image != "":
			n += 800
		default:
			n += (len(it.text) + len(strings.Join(it.pieces, "")) + 3) / 4
		}
	}
	for _, c := range v.calls {
		n += (len(c.name) + len(c.args) + 3) / 4
	}
	return n
}

func checkBudget(v view, f *facts) []string {
	if v.purpose != "decide" {
		return nil
	}
	if n := estimate(v); n > f.limit {
		return []string{fmt.Sprintf("%d tokens in the provider's count, over context_window - reserve_tokens (%d)", n, f.limit)}
	}
	return nil
}

func checkLabels(v view, _ *facts) []string {
	var bad []string
	for i, it := range v.items {
		if it.image == "" {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(it.image)
		cfg, _, derr := image.DecodeConfig(bytes.NewReader(data))
		prev := ""
		if i > 0 {
			prev = v.items[i-1].text
		}
		m := imageLabel.FindStringSubmatch(prev)
		switch {
		case err != nil || derr != nil:
			bad = append(bad, fmt.Sprintf("image %d is not a readable image: %v %v", i, err, derr))
		case m == nil:
			bad = append(bad, fmt.Sprintf("image %d follows %q, not its label Camera \"name\" (WxH):", i, tailOf(prev)))
		case atoi(m[1]) != cfg.Width || atoi(m[2]) != cfg.Height:
			bad = append(bad, fmt.Sprintf("image %d is %dx%d, labelled %q", i, cfg.Width, cfg.Height, m[0]))
		}
	}
	return bad
}

func tailOf(s string) string { return s[max(0, len(s)-60):] }

func checkImagesOnce(v view, _ *facts) []string {
	seen := map[string]int{}
	var bad []string
	for i, it := range v.items {
		if it.image == "" {
			continue
		}
		if j, ok := seen[it.image]; ok {
			bad = append(bad, fmt.Sprintf("images %d and %d are the same bytes", j, i))
		}
		seen[it.image] = i
	}
	return bad
}

func checkSkill(v view, f *facts) []string {
	if f.skill == "" {
		return nil
	}
	n := 0
	for _, it := range v.items {
		n += strings.Count(it.text, f.skill) + strings.Count(strings.Join(it.pieces, ""), f.skill)
	}
	switch {
	case n > 1:
		return []string{fmt.Sprintf("the skill body is in the request %d times", n)}
	case n == 1 && !f.skillsIn[v.task]:
		return []string{fmt.Sprintf("the skill body is in a request of task %d, which never loaded it", v.task)}
	}
	return nil
}
