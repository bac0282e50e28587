package memory

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
)

// Config is the memory section of a spec, resolved.
type Config struct {
	// Dir is the memory directory (memory.dir resolved against the spec).
	Dir string
	// Threshold: candidates at or above it are written
	// (memory.consolidation.threshold).
	Threshold float64
	// MaxEntries and MaxFileBytes bound one file (memory.max_entries,
	// memory.max_file_bytes); a file past either is merged. Zero: no bound.
	MaxEntries   int
	MaxFileBytes int
	// Redactor removes declared secrets from every entry before it is
	// written (consolidation, merge, Append); nil writes entries as given.
	// The session's model requests are redacted where the engine sends
	// them, so this guards against what a model writes back: a secret it
	// knew, or one an older file held.
	Redactor *redact.Redactor
}

// Notes are a finished task's Task Notes as plain data.
type Notes struct {
	Goal     string
	Phase    string
	Timeline []string // one line per event, e.g. "turn 3: pick_up(mug) failed: out of reach"
}

// Answer is one settled query_user exchange.
type Answer struct {
	Question string
	Answer   string
}

// Input is what consolidation reads of one finished task.
type Input struct {
	Notes Notes
	// Evidence are lines of the trace: tool results, evaluator verdicts,
	// blocked calls, how the task ended. Verdicts enter only here.
	Evidence []string
	// Answers are the user's answers to query_user in this task.
	Answers []Answer
	// Tools are the session's tool names: the only valid tool scopes.
	Tools []string
	// Task stamps the written entries (letters, digits, _ . : -); optional.
	Task string
	// Now dates the entries; zero means the current time.
	Now time.Time
}

// Result says what one consolidation did; String is the memory event text.
type Result struct {
	// Proposed is how many candidates the model returned.
	Proposed   int
	Written    []Written
	Below      []Candidate // under the threshold
	Duplicates []Candidate // already present
	// Rejected is non-empty when nothing was written because the call failed
	// or its answer was malformed; it says exactly why.
	Rejected string
	// Merges are the files merged after passing their bound.
	Merges []Merge
}

// Written is one entry written, with its file relative to the memory dir.
type Written struct {
	Candidate
	File string
}

// Merge is one merge of a file grown past its bound. Error non-empty: the
// file was left as it was.
type Merge struct {
	File   string
	Before int // entries before
	After  int // entries after
	Error  string
}

// String is a one-line account for the memory event.
func (r Result) String() string {
	if r.Rejected != "" {
		return "memory: nothing written: " + r.Rejected
	}
	var b strings.Builder
	fmt.Fprintf(&b, "memory: %d of %d candidates written", len(r.Written), r.Proposed)
	if len(r.Below) > 0 {
		fmt.Fprintf(&b, ", %d below threshold", len(r.Below))
	}
	if len(r.Duplicates) > 0 {
		fmt.Fprintf(&b, ", %d already present", len(r.Duplicates))
	}
	files := map[string]int{}
	var order []string
	for _, w := range r.Written {
		if files[w.File] == 0 {
			order = append(order, w.File)
		}
		files[w.File]++
	}
	for i, f := range order {
		sep := " ("
		if i > 0 {
			sep = ", "
		}
		fmt.Fprintf(&b, "%s%s +%d", sep, f, files[f])
	}
	if len(order) > 0 {
		b.WriteString(")")
	}
	for _, m := range r.Merges {
		if m.Error != "" {
			fmt.Fprintf(&b, "; %s not merged: %s", m.File, m.Error)
		} else {
			fmt.Fprintf(&b, "; %s merged from %d to %d entries", m.File, m.Before, m.After)
		}
	}
	return b.String()
}

// Consolidate runs the task-end consolidation into cfg.Dir; see
// (*Store).Consolidate.
func Consolidate(ctx context.Context, m model.Model, cfg Config, in Input) (Result, error) {
	s, err := NewStore(cfg)
	if err != nil {
		return Result{}, err
	}
	return s.Consolidate(ctx, m, in)
}

// Consolidate makes one call with purpose consolidate over the finished
// task and writes the candidates at or above the threshold, each to its
// file, skipping entries already present. A failed call or a malformed
// answer writes nothing and sets Result.Rejected; the returned error is for
// the store's own failures (lock, I/O) and cancellation. A file that grows
// past its bound is then merged by a second call (see merge).
func (s *Store) Consolidate(ctx context.Context, m model.Model, in Input) (Result, error) {
	var res Result
	if in.Task != "" && !taskRE.MatchString(in.Task) {
		return res, fmt.Errorf("memory: task stamp %q may hold only letters, digits and _ . : -", in.Task)
	}
	known, err := s.summarise(ctx, MemoryFile, maxKnownChars)
	if err != nil {
		return res, err
	}
	resp, err := m.Generate(ctx, model.Request{Purpose: model.PurposeConsolidate, Messages: []model.Message{
		{Role: model.RoleSystem, Parts: []model.Part{{Text: consolidateSystem(s.cfg.Threshold)}}},
		{Role: model.RoleUser, Parts: []model.Part{{Text: consolidateUser(in, known)}}},
	}})
	if err != nil {
		if ctx.Err() != nil {
			return res, fmt.Errorf("memory: consolidation call: %w", ctx.Err())
		}
		res.Rejected = "the consolidation call failed: " + err.Error()
		return res, nil
	}
	cands, err := parseCandidates(resp.Text, in.Tools)
	if err != nil {
		res.Rejected = "malformed consolidation answer: " + err.Error()
		return res, nil
	}
	for i := range cands {
		cands[i].Entry = s.redact(cands[i].Entry)
	}
	res.Proposed = len(cands)
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	byFile := map[string][]Candidate{}
	var files []string
	for _, c := range cands {
		if c.Confidence < s.cfg.Threshold {
			res.Below = append(res.Below, c)
			continue
		}
		rel := MemoryFile
		if c.Scope == ScopeTool {
			rel, _ = experienceRel(c.Tool) // checked by parseCandidates
		}
		if byFile[rel] == nil {
			files = append(files, rel)
		}
		byFile[rel] = append(byFile[rel], c)
	}
	if len(files) == 0 {
		return res, nil
	}
	err = s.locked(ctx, func(r *os.Root) error {
		for _, rel := range files {
			cs := byFile[rel]
			es := make([]Entry, len(cs))
			for i, c := range cs {
				es[i] = Entry{Text: c.Entry, Confidence: c.Confidence, Date: dayOf(now), Task: in.Task}
			}
			added, err := s.appendEntries(r, rel, es)
			if err != nil {
				return err
			}
			for i, c := range cs {
				if slices.Contains(added, i) {
					res.Written = append(res.Written, Written{Candidate: c, File: rel})
				} else {
					res.Duplicates = append(res.Duplicates, c)
				}
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	for _, rel := range files {
		mg, err := s.mergeIfOver(ctx, m, rel)
		if err != nil {
			return res, err
		}
		if mg != nil {
			res.Merges = append(res.Merges, *mg)
		}
	}
	return res, nil
}

// redact removes declared secrets from an entry's text before it is
// written or compared with what a file holds.
func (s *Store) redact(text string) string { return s.cfg.Redactor.String(text) }
