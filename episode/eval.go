package episode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// Outcome is one episode of an evaluation: one seed, one fresh session.
type Outcome struct {
	Seed    uint64            `json:"seed"`
	Success bool              `json:"success"`
	Reason  runlog.DoneReason `json:"reason,omitempty"`
	// FailureKind groups failures: the done reason (max_turns,
	// failure_budget, error…) or "verdict_failure:TOOL" when the task ended
	// with a final answer but a tool's last verdict was a failure.
	FailureKind string      `json:"failure_kind,omitempty"`
	Turns       int         `json:"turns"`
	Usage       model.Usage `json:"usage"`
	// EstimatedUsage is the harness's estimate of the acting model's tokens
	// for the responses that reported no usage (a scripted, replayed or
	// human model, or a provider that leaves usage out): each request's
	// estimated size as it was sent, and each response's at four
	// characters a token. It is not a count: the table marks it with "~".
	EstimatedUsage model.Usage `json:"estimated_usage,omitzero"`
	// Verdicts counts the evaluator's verdicts by status.
	Verdicts map[string]int `json:"verdicts,omitempty"`
	Error    string         `json:"error,omitempty"`
	// Saved is the episode folder a failure was saved in
	// (EvalConfig.SaveFailures); not part of the result file.
	Saved string `json:"-"`
	// SaveError says why a failure was not saved (its folder exists, a
	// symbolic link is in the way); it is in Error too.
	SaveError string `json:"-"`
}

// Summary aggregates outcomes.
type Summary struct {
	Episodes    int     `json:"episodes"`
	Successes   int     `json:"successes"`
	SuccessRate float64 `json:"success_rate"`
	// SuccessInterval is the success rate's 95 % Wilson score interval.
	SuccessInterval Interval `json:"success_interval"`
	MeanTurns       float64  `json:"mean_turns"`
	// Tokens adds up the acting model's usage over every episode;
	// EstimatedTokens its estimated usage where none was reported.
	Tokens          model.Usage    `json:"tokens"`
	EstimatedTokens model.Usage    `json:"estimated_tokens,omitzero"`
	FailuresByKind  map[string]int `json:"failures_by_kind,omitempty"`
}

// EvalResult is an evaluation (or one shard of it): thea eval --format json
// writes it, thea eval merge reads and combines them.
type EvalResult struct {
	Spec        string    `json:"spec"`
	SpecDigest  string    `json:"spec_digest"`
	Instruction string    `json:"instruction"`
	Episodes    []Outcome `json:"episodes"`
	Summary     Summary   `json:"summary"`
}

// EvalConfig says what to evaluate.
type EvalConfig struct {
	Instruction string
	Seeds       []uint64
	// Parallel is how many sessions run at once (at least 1).
	Parallel int
	// SaveFailures, when set, is a folder where each failing seed's run is
	// saved as an episode, seed-N (see SaveRun), so it replays in thea
	// test. The seeds then run with a run log, in a temporary folder.
	SaveFailures string
	// Progress, when set, is called after each episode (from the worker
	// that ran it; calls do not overlap).
	Progress func(done, total int, o Outcome)
}

// Eval runs the instruction once per seed, each in a fresh session whose
// back-ends run with that seed (see WithSeed); run logs are off and memory
// goes to a temporary folder per episode, so episodes do not teach each
// other.
func Eval(ctx context.Context, spec *schema.Spec, cfg EvalConfig, newSession NewSession) (*EvalResult, error) {
	if cfg.Instruction == "" {
		return nil, errors.New("eval: no instruction")
	}
	if _, err := withSeedOrReset(spec, 0); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if spec.Episodes.Reset != nil && cfg.Parallel > 1 {
		return nil, fmt.Errorf("eval: %w", errResetParallel)
	}
	digest, err := runlog.SpecDigest(spec.Files)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	out := make([]Outcome, len(cfg.Seeds))
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	// A seed refused by the body lock stops the evaluation: its outcome
	// would say nothing about the robot.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	for range max(1, cfg.Parallel) {
		wg.Go(func() {
			for i := range work {
				if ctx.Err() != nil {
					continue // stopped: the outcome would be a cancellation
				}
				var refused error
				out[i], refused = runSeed(ctx, spec, cfg.Instruction, cfg.Seeds[i], cfg.SaveFailures, newSession)
				if refused != nil {
					stop(refused)
					continue
				}
				if ctx.Err() != nil {
					// Another seed stopped the evaluation while this one ran:
					// its outcome is that stop, not a result to report.
					continue
				}
				if cfg.Progress != nil {
					mu.Lock()
					done++
					cfg.Progress(done, len(cfg.Seeds), out[i])
					mu.Unlock()
				}
			}
		})
	}
	for i := range cfg.Seeds {
		if ctx.Err() != nil {
			break
		}
		select {
		case work <- i:
		case <-ctx.Done():
		}
	}
	close(work)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("eval: %w", context.Cause(ctx))
	}
	r := &EvalResult{Spec: spec.Name, SpecDigest: digest, Instruction: cfg.Instruction, Episodes: out}
	r.Summarize()
	return r, nil
}

// playSeed runs one episode, with a run log in runLog when it is set.
func playSeed(ctx context.Context, spec *schema.Spec, instruction string, seed uint64, runLog string, newSession NewSession) (o Outcome, refused error) {
	o = Outcome{Seed: seed}
	fail := func(err error) (Outcome, error) {
		o.Error, o.Reason, o.FailureKind = err.Error(), runlog.DoneError, string(runlog.DoneError)
		return o, nil
	}
	s, err := withSeedOrReset(spec, seed)
	if err != nil {
		return fail(err)
	}
	s.RunLog.Enabled, s.RunLog.Dir = runLog != "", runLog
	if s.Memory.Dir != "" {
		mem, err := os.MkdirTemp("", "thea-eval-memory-")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(mem)
		s.Memory.Dir = mem
	}
	h, err := newSession(ctx, s, nil)
	if err != nil {
		return fail(err)
	}
	defer h.Close()
	if err := Reset(ctx, s, h, &seed, instruction); err != nil {
		return fail(err)
	}
	last := map[string]world.VerdictStatus{}
	var tools []string
	var rep *runlog.Report
	requestTokens := 0 // the estimate of the latest decide request
	for ev := range h.RunStream(ctx, instruction) {
		switch {
		case ev.Kind == runlog.EventToolResult && ev.Result != nil && !ev.Result.Success && strings.Contains(ev.Result.Reason, lockRefusal):
			return o, lockRefusedError(seed, ev.Result.Reason)
		case ev.Kind == runlog.EventContext && ev.Tokens != nil:
			requestTokens = ev.Tokens.Total
		case ev.Kind == runlog.EventModel && ev.Usage == nil:
			o.EstimatedUsage.InputTokens += requestTokens
			o.EstimatedUsage.OutputTokens += responseTokens(ev)
		case ev.Kind == runlog.EventEvaluation && ev.Verdict != nil:
			if o.Verdicts == nil {
				o.Verdicts = map[string]int{}
			}
			o.Verdicts[string(ev.Verdict.Status)]++
			if _, seen := last[ev.Tool]; !seen {
				tools = append(tools, ev.Tool)
			}
			last[ev.Tool] = ev.Verdict.Status
		case ev.Kind == runlog.EventDone && ev.Done != nil:
			d := *ev.Done
			rep = &d
		}
	}
	if rep == nil {
		return fail(errors.New("the task ended without a done event"))
	}
	o.Reason, o.Turns, o.Usage, o.Error = rep.Reason, rep.Turns, rep.Usage, rep.Error
	if rep.Reason != runlog.DoneFinal {
		o.FailureKind = string(rep.Reason)
		return o, nil
	}
	for _, t := range tools {
		if last[t] == world.VerdictFailure {
			o.FailureKind = "verdict_failure:" + t
			return o, nil
		}
	}
	o.Success = true
	return o, nil
}

// lockRefusal marks a physical call the body's cross-process lock refused
// (embodiment.lock.mode refuse: another process holds the lock).
const lockRefusal = "embodiment.lock.mode refuse"

// ErrBodyLockRefused: an evaluation stopped because the body's
// cross-process lock refused a physical call of one of its seeds.
var ErrBodyLockRefused = errors.New("a physical call was refused by the body lock, not by the robot")

// lockRefusedError says why an evaluation stopped at a seed the body lock
// refused, and what to change.
func lockRefusedError(seed uint64, reason string) error {
	return fmt.Errorf("seed %d: %w: %s. "+
		"With embodiment.lock.mode refuse, evaluations and shards on one machine (one lock.dir) refuse each other's physical calls "+
		"and their seeds would fail for it: set embodiment.lock.mode: wait (they take turns on the body), or run each shard on its own machine",
		seed, ErrBodyLockRefused, strings.TrimSuffix(reason, "."))
}

// responseTokens estimates a response's size as the harness estimates
// text: four characters a token, its text and its call (name and
// arguments).
func responseTokens(ev runlog.Event) int {
	n := len(ev.Text) + len(ev.Tool)
	if len(ev.Args) > 0 {
		if b, err := json.Marshal(ev.Args); err == nil {
			n += len(b)
		}
	}
	return (n + 3) / 4
}

// Summarize sorts the episodes by seed and computes the summary from them.
func (r *EvalResult) Summarize() {
	sort.Slice(r.Episodes, func(i, j int) bool { return r.Episodes[i].Seed < r.Episodes[j].Seed })
	s := Summary{Episodes: len(r.Episodes)}
	turns := 0
	for _, o := range r.Episodes {
		turns += o.Turns
		s.Tokens.InputTokens += o.Usage.InputTokens
		s.Tokens.CachedInputTokens += o.Usage.CachedInputTokens
		s.Tokens.OutputTokens += o.Usage.OutputTokens
		s.EstimatedTokens.InputTokens += o.EstimatedUsage.InputTokens
		s.EstimatedTokens.OutputTokens += o.EstimatedUsage.OutputTokens
		if o.Success {
			s.Successes++
			continue
		}
		if s.FailuresByKind == nil {
			s.FailuresByKind = map[string]int{}
		}
		s.FailuresByKind[o.FailureKind]++
	}
	s.SuccessInterval = Wilson(s.Successes, s.Episodes)
	if s.Episodes > 0 {
		s.SuccessRate = float64(s.Successes) / float64(s.Episodes)
		s.MeanTurns = float64(turns) / float64(s.Episodes)
	}
	r.Summary = s
}

// Merge combines shard results of one evaluation: each valid (see
// Validate), the same spec digest and instruction, no seed twice. The
// summary is computed afresh.
func Merge(parts ...*EvalResult) (*EvalResult, error) {
	if len(parts) == 0 {
		return nil, errors.New("merge: no results")
	}
	m := &EvalResult{Spec: parts[0].Spec, SpecDigest: parts[0].SpecDigest, Instruction: parts[0].Instruction}
	seen := map[uint64]int{}
	for i, p := range parts {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("merge: result %d: %w", i+1, err)
		}
		if p.SpecDigest != m.SpecDigest || p.Instruction != m.Instruction {
			return nil, fmt.Errorf("merge: result %d is of another evaluation (spec digest %s, instruction %q; result 1: %s, %q)",
				i+1, p.SpecDigest, p.Instruction, m.SpecDigest, m.Instruction)
		}
		for _, o := range p.Episodes {
			if j, dup := seen[o.Seed]; dup {
				return nil, fmt.Errorf("merge: seed %d is in result %d and result %d (overlapping shards)", o.Seed, j, i+1)
			}
			seen[o.Seed] = i + 1
			m.Episodes = append(m.Episodes, o)
		}
	}
	m.Summarize()
	return m, nil
}

// tokens shows a reported count, the estimate marked "~" where none was
// reported, or both.
func tokens(reported, estimated int) string {
	switch {
	case estimated == 0:
		return strconv.Itoa(reported)
	case reported == 0:
		return "~" + strconv.Itoa(estimated)
	}
	return strconv.Itoa(reported) + " + ~" + strconv.Itoa(estimated)
}

// WriteTable prints the result for a person: one line per episode, then
// the summary and the failures by kind.
func (r *EvalResult) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEED\tRESULT\tTURNS\tTOKENS IN\tTOKENS OUT\tFAILURE")
	for _, o := range r.Episodes {
		res := "ok"
		if !o.Success {
			res = "FAIL"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\n", o.Seed, res, o.Turns,
			tokens(o.Usage.InputTokens, o.EstimatedUsage.InputTokens), tokens(o.Usage.OutputTokens, o.EstimatedUsage.OutputTokens),
			termesc.Escape(o.FailureKind))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("eval table: %w", err)
	}
	s := r.Summary
	_, err := fmt.Fprintf(w, "\n%s: %d/%d succeeded (%.1f%%, 95%% interval %.1f–%.1f%%), %.1f turns on average, %s input + %s output tokens\n",
		termesc.Escape(r.Spec), s.Successes, s.Episodes, 100*s.SuccessRate, 100*s.SuccessInterval.Low, 100*s.SuccessInterval.High, s.MeanTurns,
		tokens(s.Tokens.InputTokens, s.EstimatedTokens.InputTokens), tokens(s.Tokens.OutputTokens, s.EstimatedTokens.OutputTokens))
	if err != nil {
		return fmt.Errorf("eval table: %w", err)
	}
	if s.EstimatedTokens != (model.Usage{}) {
		if _, err := fmt.Fprintln(w, "  (~: the harness's estimate, four characters a token, where the model reported no usage)"); err != nil {
			return fmt.Errorf("eval table: %w", err)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.FailuresByKind)) {
		if _, err := fmt.Fprintf(w, "  %-28s %s\n", termesc.Escape(k), NewRate(s.FailuresByKind[k], s.Episodes)); err != nil {
			return fmt.Errorf("eval table: %w", err)
		}
	}
	return nil
}
