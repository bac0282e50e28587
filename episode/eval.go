package episode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// Outcome is one episode of an evaluation: one seed, one fresh session.
type Outcome struct {
	Seed uint64 `json:"seed"`
	// Repeat is the episode's index among its seed's repeats (thea eval
	// --repeats), from 0; see RepeatSeed for the back-end seed it runs on.
	Repeat int `json:"repeat,omitzero"`
	// SuccessAtReset: the task's success held before the model's first
	// decision (see ResetCheck), so the episode says nothing about the
	// model and is left out of the rates; counted in Summary.AtReset.
	SuccessAtReset bool              `json:"success_at_reset,omitzero"`
	Success        bool              `json:"success"`
	Reason         runlog.DoneReason `json:"reason,omitempty"`
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
	Episodes int `json:"episodes"`
	// AtReset counts the episodes whose success held at reset: they are
	// left out of Successes, the rate, its interval and FailuresByKind.
	AtReset     int     `json:"at_reset,omitzero"`
	Successes   int     `json:"successes"`
	SuccessRate float64 `json:"success_rate"`
	// SuccessInterval is the success rate's 95 % Wilson score interval.
	SuccessInterval Interval `json:"success_interval"`
	// PassK is pass^k for k = 1 … the repeats of a seed, when seeds were
	// repeated (thea eval --repeats).
	PassK     []PassK `json:"pass_k,omitempty"`
	MeanTurns float64 `json:"mean_turns"`
	// Tokens adds up the acting model's usage over every episode;
	// EstimatedTokens its estimated usage where none was reported.
	Tokens          model.Usage    `json:"tokens"`
	EstimatedTokens model.Usage    `json:"estimated_tokens,omitzero"`
	FailuresByKind  map[string]int `json:"failures_by_kind,omitempty"`
}

// EvalResult is an evaluation (or one shard of it): thea eval --format json
// writes it, thea eval merge reads and combines them.
type EvalResult struct {
	Spec        string `json:"spec"`
	SpecDigest  string `json:"spec_digest"`
	Instruction string `json:"instruction"`
	// Blind: observations were withheld from the model (thea eval --blind).
	Blind bool `json:"blind,omitzero"`
	// SuccessAtReset is the check (thea eval --success-at-reset) that
	// flagged the episodes whose success held at reset.
	SuccessAtReset string    `json:"success_at_reset,omitempty"`
	Episodes       []Outcome `json:"episodes"`
	Summary        Summary   `json:"summary"`
}

// EvalConfig says what to evaluate.
type EvalConfig struct {
	Instruction string
	Seeds       []uint64
	// Parallel is how many sessions run at once (at least 1).
	Parallel int
	// Repeats is how many episodes each seed runs (0 and 1: one), each on
	// its own back-end seed (RepeatSeed); the summary then gives pass^k.
	Repeats int
	// Blind records that the sessions withhold observations from the model
	// (thea eval --blind): newSession must build them so
	// (engine.Options.Blind); Eval marks the result.
	Blind bool
	// SuccessAtReset, when set, is the task's success as a check over the
	// first observation (see ResetCheck): an episode where it holds is
	// flagged and left out of the rates.
	SuccessAtReset *ResetCheck
	// SaveFailures, when set, is a folder where each failing seed's run is
	// saved as an episode, seed-N (seed-N-repeat-R for a repeat; see
	// SaveRun), so it replays in thea test. The seeds then run with a run
	// log, in a temporary folder.
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
	runs := episodeRuns(cfg.Seeds, cfg.Repeats)
	out := make([]Outcome, len(runs))
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
				out[i], refused = runSeed(ctx, spec, &cfg, runs[i], newSession)
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
					cfg.Progress(done, len(runs), out[i])
					mu.Unlock()
				}
			}
		})
	}
	for i := range runs {
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
	r := &EvalResult{Spec: spec.Name, SpecDigest: digest, Instruction: cfg.Instruction, Episodes: out, Blind: cfg.Blind}
	if cfg.SuccessAtReset != nil {
		r.SuccessAtReset = cfg.SuccessAtReset.Source
	}
	r.Summarize()
	return r, nil
}

// playSeed runs one episode, with a run log in runLog when it is set.
func playSeed(ctx context.Context, spec *schema.Spec, cfg *EvalConfig, run episodeKey, runLog string, newSession NewSession) (o Outcome, refused error) {
	o = Outcome{Seed: run.seed, Repeat: run.repeat}
	seed := RepeatSeed(run.seed, run.repeat)
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
	if err := Reset(ctx, s, h, &seed, cfg.Instruction); err != nil {
		return fail(err)
	}
	last := map[string]world.VerdictStatus{}
	var tools []string
	var rep *runlog.Report
	requestTokens := 0 // the estimate of the latest decide request
	decided := false   // the model has answered once
	var atResetErr error
	for ev := range h.RunStream(ctx, cfg.Instruction) {
		switch {
		case ev.Kind == runlog.EventModel:
			decided = true
		case ev.Kind == runlog.EventObservation && !decided && ev.Observation != nil && cfg.SuccessAtReset != nil:
			// The first observation, before the model's first decision:
			// what the world was at reset.
			held, err := cfg.SuccessAtReset.holds(s, *ev.Observation)
			o.SuccessAtReset = o.SuccessAtReset || held
			if err != nil {
				atResetErr = err
			}
		}
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
	if atResetErr != nil {
		o.Error = strings.TrimPrefix(o.Error+"; "+atResetErr.Error(), "; ")
	}
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

// Summarize sorts the episodes by seed (and repeat) and computes the
// summary from them.
func (r *EvalResult) Summarize() {
	sort.Slice(r.Episodes, func(i, j int) bool {
		a, b := r.Episodes[i], r.Episodes[j]
		return a.Seed < b.Seed || a.Seed == b.Seed && a.Repeat < b.Repeat
	})
	s := Summary{Episodes: len(r.Episodes)}
	turns := 0
	for _, o := range r.Episodes {
		turns += o.Turns
		s.Tokens.InputTokens += o.Usage.InputTokens
		s.Tokens.CachedInputTokens += o.Usage.CachedInputTokens
		s.Tokens.OutputTokens += o.Usage.OutputTokens
		s.EstimatedTokens.InputTokens += o.EstimatedUsage.InputTokens
		s.EstimatedTokens.OutputTokens += o.EstimatedUsage.OutputTokens
		if o.SuccessAtReset {
			s.AtReset++
			continue
		}
		if o.Success {
			s.Successes++
			continue
		}
		if s.FailuresByKind == nil {
			s.FailuresByKind = map[string]int{}
		}
		s.FailuresByKind[o.FailureKind]++
	}
	rated := s.Episodes - s.AtReset
	s.SuccessInterval = Wilson(s.Successes, rated)
	if rated > 0 {
		s.SuccessRate = float64(s.Successes) / float64(rated)
	}
	if s.Episodes > 0 {
		s.MeanTurns = float64(turns) / float64(s.Episodes)
	}
	s.PassK = passK(r.Episodes)
	r.Summary = s
}
