package episode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// doneReasons are the reasons a task ends, as an eval result records them.
func doneReasons() []runlog.DoneReason {
	return []runlog.DoneReason{
		runlog.DoneFinal, runlog.DoneMaxTurns, runlog.DoneFailureBudget,
		runlog.DoneLoopDetected, runlog.DoneCancelled, runlog.DoneError,
	}
}

// maxCount bounds every count an episode records (turns, tokens, verdicts):
// far above any real task, low enough that sums over millions of episodes
// cannot overflow.
const maxCount = 1 << 40

// specDigest is the form of runlog.SpecDigest.
var specDigest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// ParseEvalResult reads an eval result (thea eval --format json or --out)
// strictly: a key given twice, unknown fields, missing fields and trailing
// data are refused, and then Validate checks every value. name (the file) leads every error.
func ParseEvalResult(name string, b []byte) (*EvalResult, error) {
	if err := noDuplicateKeys(b); err != nil {
		return nil, fmt.Errorf("%s: not an eval result: %w", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r EvalResult
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not an eval result: %w", name, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: not an eval result: data after its JSON object", name)
	}
	if err := requireFields(b); err != nil {
		return nil, fmt.Errorf("%s: not an eval result: %w", name, err)
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &r, nil
}

// requireFields refuses a result that leaves out a field thea eval always
// writes: decoded into a struct, a missing seed or turn count would pass as
// a zero.
func requireFields(b []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return err
	}
	for _, k := range []string{"spec", "spec_digest", "instruction", "episodes", "summary"} {
		if _, ok := top[k]; !ok {
			return fmt.Errorf("no %q field", k)
		}
	}
	var episodes []map[string]json.RawMessage
	if err := json.Unmarshal(top["episodes"], &episodes); err != nil {
		return fmt.Errorf("episodes: %w", err)
	}
	for i, e := range episodes {
		for _, k := range []string{"seed", "success", "turns", "usage"} {
			if _, ok := e[k]; !ok {
				return fmt.Errorf("episodes[%d]: no %q field", i, k)
			}
		}
	}
	return nil
}

// Validate checks an eval result's values: a spec digest and an
// instruction; per episode a known reason, success only with a final answer
// and no failure kind, a failure kind that agrees with the reason, no
// negative turns, tokens or verdict counts, no seed twice; and a summary
// that agrees with the episodes. Errors name the episode (index and seed)
// and the field.
func (r *EvalResult) Validate() error {
	if !specDigest.MatchString(r.SpecDigest) {
		return fmt.Errorf("spec_digest %q: want sha256: and 64 hex digits", r.SpecDigest)
	}
	if strings.TrimSpace(r.Instruction) == "" {
		return errors.New("instruction is empty")
	}
	seen := map[episodeKey]int{}
	for i, o := range r.Episodes {
		if j, dup := seen[keyOf(o)]; dup {
			return fmt.Errorf("episodes[%d] and episodes[%d] both have seed %d repeat %d", j, i, o.Seed, o.Repeat)
		}
		seen[keyOf(o)] = i
		if err := o.validate(); err != nil {
			return fmt.Errorf("episodes[%d] (seed %d): %w", i, o.Seed, err)
		}
		if o.SuccessAtReset && r.SuccessAtReset == "" {
			return fmt.Errorf("episodes[%d] (seed %d): success_at_reset, but the result names no success_at_reset check that could have found it", i, o.Seed)
		}
	}
	want := EvalResult{Episodes: slices.Clone(r.Episodes)}
	want.Summarize()
	return r.Summary.agrees(want.Summary)
}

func (o Outcome) validate() error {
	if !slices.Contains(doneReasons(), o.Reason) {
		return fmt.Errorf("reason %q: want one of %s", o.Reason, joinReasons())
	}
	if err := countValid("repeat", o.Repeat); err != nil {
		return err
	}
	if err := countValid("turns", o.Turns); err != nil {
		return err
	}
	if err := usageValid("usage", o.Usage); err != nil {
		return err
	}
	if err := usageValid("estimated_usage", o.EstimatedUsage); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(o.Verdicts)) {
		if !world.VerdictStatus(k).Valid() {
			return fmt.Errorf("verdicts: %q is not a verdict status (success, failure, process)", k)
		}
		if err := countValid("verdicts."+k, o.Verdicts[k]); err != nil {
			return err
		}
	}
	switch {
	case o.Success && o.Reason != runlog.DoneFinal:
		return fmt.Errorf("success with reason %q: an episode succeeds only with a final answer", o.Reason)
	case o.Success && o.FailureKind != "":
		return fmt.Errorf("success with failure_kind %q", o.FailureKind)
	case o.Success:
		return nil
	case o.Reason == runlog.DoneFinal:
		tool, ok := strings.CutPrefix(o.FailureKind, "verdict_failure:")
		if !ok || tool == "" {
			return fmt.Errorf("a failure with a final answer has failure_kind %q: want verdict_failure:TOOL", o.FailureKind)
		}
	case o.FailureKind != string(o.Reason):
		return fmt.Errorf("a failure with reason %q has failure_kind %q: want %q", o.Reason, o.FailureKind, o.Reason)
	}
	return nil
}

func usageValid(field string, u model.Usage) error {
	for _, f := range []struct {
		name string
		n    int
	}{{"input_tokens", u.InputTokens}, {"cached_input_tokens", u.CachedInputTokens}, {"output_tokens", u.OutputTokens}} {
		if err := countValid(field+"."+f.name, f.n); err != nil {
			return err
		}
	}
	return nil
}

func countValid(field string, n int) error {
	switch {
	case n < 0:
		return fmt.Errorf("%s %d is negative", field, n)
	case n > maxCount:
		return fmt.Errorf("%s %d is larger than %d", field, n, maxCount)
	}
	return nil
}

// agrees compares a recorded summary with the one its episodes give.
func (s Summary) agrees(want Summary) error {
	type field struct {
		name      string
		got, want any
	}
	for _, f := range []field{
		{"episodes", s.Episodes, want.Episodes},
		{"at_reset", s.AtReset, want.AtReset},
		{"successes", s.Successes, want.Successes},
		{"success_rate", s.SuccessRate, want.SuccessRate},
		{"success_interval", s.SuccessInterval, want.SuccessInterval},
		{"mean_turns", s.MeanTurns, want.MeanTurns},
		{"tokens", s.Tokens, want.Tokens},
		{"estimated_tokens", s.EstimatedTokens, want.EstimatedTokens},
	} {
		if f.got != f.want {
			return fmt.Errorf("summary.%s is %v, its episodes give %v", f.name, f.got, f.want)
		}
	}
	if !slices.Equal(s.PassK, want.PassK) {
		return fmt.Errorf("summary.pass_k is %v, its episodes give %v", s.PassK, want.PassK)
	}
	if !maps.Equal(s.FailuresByKind, want.FailuresByKind) {
		return fmt.Errorf("summary.failures_by_kind is %v, its episodes give %v", s.FailuresByKind, want.FailuresByKind)
	}
	return nil
}

func joinReasons() string {
	rs := doneReasons()
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return strings.Join(s, ", ")
}

// Merge combines shard results of one evaluation: each valid (see
// Validate), the same spec digest and instruction, no seed twice. The
// summary is computed afresh.
func Merge(parts ...*EvalResult) (*EvalResult, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no results")
	}
	m := &EvalResult{Spec: parts[0].Spec, SpecDigest: parts[0].SpecDigest, Instruction: parts[0].Instruction,
		Blind: parts[0].Blind, SuccessAtReset: parts[0].SuccessAtReset}
	seen := map[episodeKey]int{}
	for i, p := range parts {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("merge: result %d: %w", i+1, err)
		}
		if p.SpecDigest != m.SpecDigest || p.Instruction != m.Instruction {
			return nil, fmt.Errorf("merge: result %d is of another evaluation (spec digest %s, instruction %q; result 1: %s, %q)",
				i+1, p.SpecDigest, p.Instruction, m.SpecDigest, m.Instruction)
		}
		if p.Blind != m.Blind || p.SuccessAtReset != m.SuccessAtReset {
			return nil, fmt.Errorf("merge: result %d ran with blind %v and success_at_reset %q, result 1 with %v and %q: shards of one evaluation run with the same flags",
				i+1, p.Blind, p.SuccessAtReset, m.Blind, m.SuccessAtReset)
		}
		for _, o := range p.Episodes {
			if j, dup := seen[keyOf(o)]; dup {
				return nil, fmt.Errorf("merge: seed %d repeat %d is in result %d and result %d (overlapping shards)", o.Seed, o.Repeat, j, i+1)
			}
			seen[keyOf(o)] = i + 1
			m.Episodes = append(m.Episodes, o)
		}
	}
	m.Summarize()
	return m, nil
}
