package episode

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Matching is how a replay is compared with its recording.
type Matching struct {
	// Tolerance bounds the numbers of observations and tool results (and
	// of the Brief's text): the spec's episodes.tolerance.
	Tolerance schema.Tolerance
	// Format is the recording's format version (runlog.Format); 0 or 1 for
	// a run log that carries none. A field a recording older than this
	// Thea's format lacks is what that Thea did not record, not a change.
	Format int
}

// older reports whether the recording predates this Thea's format.
func (c Matching) older() bool { return c.Format < runlog.Format }

// Mismatch is where a replayed step differs from the recorded one.
type Mismatch struct {
	// Path is the field, dotted ("observation.pose.x").
	Path string `json:"path"`
	// Recorded and Now are the values, as JSON ("absent" when missing).
	Recorded string `json:"recorded"`
	Now      string `json:"now"`
	// Tolerance is the difference the spec allows there, "" when the field
	// is compared exactly.
	Tolerance string `json:"tolerance,omitempty"`
}

func (m *Mismatch) String() string {
	s := fmt.Sprintf("%s: recorded %s, now %s", m.Path, m.Recorded, m.Now)
	if m.Tolerance != "" {
		s += " (tolerance " + m.Tolerance + ")"
	}
	return s
}

// tolerantRoot is the field of a step whose numbers are measurements (an
// observation, a tool's result) and compare within the tolerances; "" for
// a step compared exactly.
func tolerantRoot(kind runlog.EventKind) string {
	switch kind {
	case runlog.EventObservation:
		return "observation"
	case runlog.EventToolResult:
		return "result"
	case runlog.EventScene:
		return "text"
	}
	return ""
}

// match compares one recorded step with the replayed one; nil when they
// agree within c.
func (c Matching) match(want, got Step) *Mismatch {
	w := matcher{c: c, root: tolerantRoot(want.Kind)}
	return w.value(want.Value, got.Value, nil)
}

type matcher struct {
	c    Matching
	root string
}

// tolerance is the allowed difference of the numbers at path and how to
// print it; ok is false where numbers compare exactly.
func (m matcher) tolerance(path []string) (tol float64, label string, ok bool) {
	if m.root == "" || len(path) == 0 || path[0] != m.root {
		return 0, "", false
	}
	rel := path[1:]
	t := m.c.Tolerance
	if len(rel) > 0 {
		if v, found := fieldTolerance(t.Fields, rel); found {
			return v, strconv.FormatFloat(v, 'g', -1, 64), true
		}
	}
	if m.root == "observation" && len(rel) > 0 && rel[0] == "age_s" {
		return t.Age.D().Seconds(), t.Age.D().String(), true
	}
	return t.Number, strconv.FormatFloat(t.Number, 'g', -1, 64), true
}

// fieldTolerance is the tolerance the spec gives the field at rel: a path
// without * first, then the patterns in their order.
func fieldTolerance(fields map[string]float64, rel []string) (float64, bool) {
	if v, ok := fields[strings.Join(rel, ".")]; ok {
		return v, true
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		pat := strings.Split(k, ".")
		if len(pat) != len(rel) {
			continue
		}
		hit := true
		for i, p := range pat {
			if p != "*" && p != rel[i] {
				hit = false
				break
			}
		}
		if hit {
			return fields[k], true
		}
	}
	return 0, false
}

func (m matcher) value(want, got any, path []string) *Mismatch {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return m.differ(path, want, got, "")
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, in := w[k]; !in {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := append(slices.Clip(path), k)
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inW && m.c.older():
				// An older Thea did not record this field: nothing to
				// compare it with.
			case !inW:
				return &Mismatch{Path: strings.Join(p, "."), Recorded: "absent", Now: compact(gv)}
			case !inG:
				return &Mismatch{Path: strings.Join(p, "."), Recorded: compact(wv), Now: "absent"}
			default:
				if d := m.value(wv, gv, p); d != nil {
					return d
				}
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return m.differ(path, want, got, "")
		}
		for i := range w {
			if d := m.value(w[i], g[i], append(slices.Clip(path), strconv.Itoa(i))); d != nil {
				return d
			}
		}
		return nil
	case float64:
		g, ok := got.(float64)
		if !ok {
			return m.differ(path, want, got, "")
		}
		tol, label, tolerant := m.tolerance(path)
		if g == w || (tolerant && math.Abs(g-w) <= tol) {
			return nil
		}
		return m.differ(path, want, got, label)
	case string:
		g, ok := got.(string)
		if !ok {
			return m.differ(path, want, got, "")
		}
		tol, label, tolerant := m.tolerance(path)
		if g == w || (tolerant && tol > 0 && numbersClose(w, g, tol)) {
			return nil
		}
		return m.differ(path, want, got, label)
	default:
		if want == got {
			return nil
		}
		return m.differ(path, want, got, "")
	}
}

func (m matcher) differ(path []string, want, got any, tol string) *Mismatch {
	return &Mismatch{Path: strings.Join(path, "."), Recorded: compact(want), Now: compact(got), Tolerance: tol}
}

// compact is v as one line of JSON.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// numberInText finds the numbers written in a text.
var numberInText = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?`)

// numbersClose reports whether two texts say the same thing with numbers
// at most tol apart: the same words, the same count of numbers.
func numbersClose(a, b string, tol float64) bool {
	if numberInText.ReplaceAllString(a, "#") != numberInText.ReplaceAllString(b, "#") {
		return false
	}
	na, nb := numberInText.FindAllString(a, -1), numberInText.FindAllString(b, -1)
	for i := range na {
		x, errX := strconv.ParseFloat(na[i], 64)
		y, errY := strconv.ParseFloat(nb[i], 64)
		if errX != nil || errY != nil || math.Abs(x-y) > tol {
			return false
		}
	}
	return true
}
