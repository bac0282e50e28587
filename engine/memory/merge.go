package memory

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine/model"
)

// maxMerge bounds the entries given to one merge call; a file far past its
// bound shrinks over several task ends.
const maxMerge = 64

// MergedTask stamps entries a merge wrote.
const MergedTask = "merged"

// over reports whether a file passed one of its bounds.
func (s *Store) over(d doc) bool {
	return (s.cfg.MaxEntries > 0 && len(d.entries) > s.cfg.MaxEntries) ||
		(s.cfg.MaxFileBytes > 0 && len(d.String()) > s.cfg.MaxFileBytes)
}

// victims picks the entries to merge: written (never pinned) entries,
// oldest and then least confident first, as many as bring the rest of the
// file to three quarters of its bounds (so a file is not merged at every
// task end), at least two.
func (s *Store) victims(d doc) []Entry {
	var cand []Entry
	for _, e := range d.entries {
		if !e.Pinned {
			cand = append(cand, e)
		}
	}
	slices.SortStableFunc(cand, func(a, b Entry) int {
		if c := a.Date.Compare(b.Date); c != 0 {
			return c
		}
		switch {
		case a.Confidence < b.Confidence:
			return -1
		case a.Confidence > b.Confidence:
			return 1
		}
		return a.line - b.line
	})
	count, size := len(d.entries), len(d.String())
	fits := func() bool {
		return (s.cfg.MaxEntries == 0 || count <= s.cfg.MaxEntries*3/4) &&
			(s.cfg.MaxFileBytes == 0 || size <= s.cfg.MaxFileBytes*3/4)
	}
	k := 0
	for k < len(cand) && k < maxMerge && (k < 2 || !fits()) {
		count--
		size -= len(d.lines[cand[k].line]) + 1
		k++
	}
	return cand[:k]
}

// mergeIfOver merges the oldest, least confident entries of a file that
// passed its bound into fewer entries by one model call. Whatever goes
// wrong (the call, its answer, a file changed meanwhile) leaves the file as
// it was and says why in the Merge; nothing is ever cut blindly. The model
// call runs without the lock; the lock is taken again to replace exactly
// the merged lines.
func (s *Store) mergeIfOver(ctx context.Context, m model.Model, rel string) (*Merge, error) {
	text, err := s.read(ctx, rel)
	if err != nil {
		return nil, err
	}
	d := parseDoc(text)
	if !s.over(d) {
		return nil, nil
	}
	mg := &Merge{File: rel, Before: len(d.entries), After: len(d.entries)}
	vs := s.victims(d)
	if len(vs) < 2 {
		mg.Error = "past its bound but fewer than two written entries to merge (pinned entries are never merged)"
		return mg, nil
	}
	resp, err := m.Generate(ctx, model.Request{Purpose: model.PurposeConsolidate, Messages: []model.Message{
		{Role: model.RoleSystem, Parts: []model.Part{{Text: mergeSystem(len(vs))}}},
		{Role: model.RoleUser, Parts: []model.Part{{Text: mergeUser(rel, vs)}}},
	}})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("memory: merge call: %w", ctx.Err())
		}
		mg.Error = "the merge call failed: " + err.Error()
		return mg, nil
	}
	out, err := parseMerge(resp.Text, len(vs))
	if err != nil {
		mg.Error = "malformed merge answer: " + err.Error()
		return mg, nil
	}
	// A merged entry is as recent as its newest source and no surer than
	// its surest one.
	newest, surest := vs[0].Date, 0.0
	raw := make([]string, len(vs))
	for i, v := range vs {
		if v.Date.After(newest) {
			newest = v.Date
		}
		surest = max(surest, v.Confidence)
		raw[i] = d.lines[v.line]
	}
	repl := make([]Entry, len(out))
	for i, o := range out {
		repl[i] = Entry{Text: s.redact(*o.Entry), Confidence: min(*o.Confidence, surest), Date: newest, Task: MergedTask}
	}
	err = s.locked(ctx, func(r *os.Root) error {
		cur, err := readRel(ctx, r, rel)
		if err != nil {
			return err
		}
		next, ok := replaceLines(parseDoc(cur), raw, repl)
		if !ok {
			mg.Error = "the file changed during the merge; left as it was"
			return nil
		}
		if err := s.write(r, rel, []byte(next.String())); err != nil {
			return err
		}
		mg.After = len(next.entries)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return mg, nil
}

// replaceLines removes the lines raw (each must still be present) and puts
// repl where the first of them was, skipping entries the rest of the file
// already holds. ok is false when a line to remove is gone.
func replaceLines(d doc, raw []string, repl []Entry) (doc, bool) {
	drop := map[int]bool{}
	for _, r := range raw {
		i := slices.IndexFunc(d.lines, func(l string) bool { return l == r })
		for i >= 0 && drop[i] {
			j := slices.IndexFunc(d.lines[i+1:], func(l string) bool { return l == r })
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i < 0 {
			return d, false
		}
		drop[i] = true
	}
	var kept []string
	for i, l := range d.lines {
		if !drop[i] {
			kept = append(kept, l)
		}
	}
	rest := parseDoc(joinLines(kept))
	first := len(d.lines)
	for i := range drop {
		first = min(first, i)
	}
	var lines []string
	inserted := false
	for i, l := range d.lines {
		if i == first {
			for _, e := range repl {
				if !rest.has(e.Text) {
					lines = append(lines, e.render())
					rest.entries = append(rest.entries, e)
				}
			}
			inserted = true
		}
		if !drop[i] {
			lines = append(lines, l)
		}
	}
	if !inserted {
		return d, false
	}
	return parseDoc(joinLines(lines)), true
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") + "\n" }
