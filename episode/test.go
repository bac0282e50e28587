package episode

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Dir is the folder beside a spec that holds its recorded episodes, one
// folder each.
const Dir = "episodes"

// NewSession builds one session of a spec with this binary's components;
// user, when not nil, replaces the spec's user channel.
type NewSession func(ctx context.Context, spec *schema.Spec, user engine.UserChannel) (*engine.Harness, error)

// Find lists the episodes to replay: every folder of <spec dir>/episodes
// holding an events.jsonl, by name, or the named ones (a name is a folder
// of episodes/, or a path to an episode folder or events file).
func Find(spec *schema.Spec, names []string) ([]string, error) {
	base := filepath.Join(spec.Dir, Dir)
	if len(names) == 0 {
		entries, err := os.ReadDir(base)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no episodes: the folder %s does not exist; record one with thea run --spec FILE --record NAME \"INSTRUCTION\"", base)
		}
		if err != nil {
			return nil, fmt.Errorf("episodes: %w", err)
		}
		var out []string
		for _, e := range entries {
			p := filepath.Join(base, e.Name())
			if _, err := os.Stat(filepath.Join(p, runlog.EventsFile)); e.IsDir() && err == nil {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no episodes: no folder of %s holds an %s; record one with thea run --spec FILE --record NAME \"INSTRUCTION\"", base, runlog.EventsFile)
		}
		return out, nil
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		p := n
		if _, err := os.Stat(p); err != nil {
			p = filepath.Join(base, n)
		}
		if _, err := os.Stat(replay.EventsPath(p)); err != nil {
			return nil, fmt.Errorf("episode %q: not found as a path nor in %s", n, base)
		}
		out = append(out, p)
	}
	return out, nil
}

// Name is an episode's name: its folder's base name.
func Name(p string) string {
	p = filepath.Clean(p)
	if filepath.Base(p) == runlog.EventsFile {
		p = filepath.Dir(p)
	}
	return filepath.Base(p)
}

// Result is one replayed episode.
type Result struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Divergence is the first difference from the recording; nil passes.
	Divergence *Divergence `json:"divergence,omitempty"`
	// Error is a replay that could not run (a bad episode, a session that
	// did not start).
	Error string `json:"error,omitempty"`
	// SpecChanged: the spec's digest differs from the recorded one (the
	// point of a regression test; informational).
	SpecChanged bool          `json:"spec_changed,omitempty"`
	Turns       int           `json:"turns"`
	Duration    time.Duration `json:"duration_ns"`
}

// Passed reports whether the episode replayed without divergence.
func (r Result) Passed() bool { return r.Divergence == nil && r.Error == "" }

// Test replays each episode against spec: the harness runs for real while
// the recorded model responses are fed back; each result holds the first
// divergence.
func Test(ctx context.Context, spec *schema.Spec, paths []string, newSession NewSession) []Result {
	out := make([]Result, 0, len(paths))
	for _, p := range paths {
		start := time.Now()
		r, err := replayOne(ctx, spec, p, newSession)
		r.Name, r.Path, r.Duration = Name(p), p, time.Since(start)
		if err != nil {
			r.Error = err.Error()
		}
		out = append(out, r)
	}
	return out
}

func replayOne(ctx context.Context, spec *schema.Spec, path string, newSession NewSession) (Result, error) {
	var r Result
	ep, err := Load(ctx, path)
	if err != nil {
		return r, err
	}
	steps, err := Steps(ep)
	if err != nil {
		return r, err
	}
	mem, err := os.MkdirTemp("", "thea-replay-memory-")
	if err != nil {
		return r, fmt.Errorf("replay: %w", err)
	}
	defer os.RemoveAll(mem)
	s, err := ReplaySpec(spec, ep, mem)
	if err != nil {
		return r, err
	}
	if ep.Info != nil && ep.Info.SpecDigest != "" {
		if d, err := runlog.SpecDigest(spec.Files); err == nil && d != ep.Info.SpecDigest {
			r.SpecChanged = true
		}
	}
	h, err := newSession(ctx, s, newReplayUser(ep))
	if err != nil {
		return r, fmt.Errorf("replay: %w", err)
	}
	var seed *uint64
	if ep.Info != nil {
		// Checked by Load.
		seed, _ = episodeSeed(ep.Info.Seed)
	}
	if err := Reset(ctx, s, h, seed, ep.Instruction); err != nil {
		return r, errors.Join(err, h.Close())
	}
	cmp := NewComparatorWith(steps, Matching{Tolerance: spec.Episodes.Tolerance, Format: recordedFormat(ep)})
	stop := cmp.Diverged
	if stoppedRecording(steps) {
		// The recorded task was stopped (an operator's stop, a cancelled
		// context): the replay stops where it did, once it has produced
		// every step before the end.
		stop = func() bool { return cmp.Diverged() || cmp.Remaining() <= 1 }
	}
	runErr := ""
	for ev := range h.RunStream(ctx, ep.Instruction, engine.WithShouldCancel(stop)) {
		cmp.Observe(ev)
		if ev.Kind == runlog.EventDone && ev.Done != nil {
			r.Turns, runErr = ev.Done.Turns, ev.Done.Error
		}
	}
	cmp.Finish()
	closeErr := h.Close()
	div, cerr := cmp.Result()
	if div != nil && runErr != "" && (div.Kind == string(runlog.EventDone) || div.Got == "") {
		// Why the replay ended: typically it asked the model more often than
		// the recording did ("no recorded response left").
		div.Note = strings.TrimPrefix(div.Note+"; the replay ended with an error: "+runErr, "; ")
	}
	r.Divergence = div
	return r, errors.Join(cerr, closeErr)
}

// ReplaySpec is spec set up to replay ep: every model (acting, evaluator,
// compaction, consolidation) is the replay provider on the episode, the
// back-ends run with the recorded seed, the run log is off and memory is
// written to memDir (never to the spec's own).
func ReplaySpec(spec *schema.Spec, ep *replay.Episode, memDir string) (*schema.Spec, error) {
	s := *spec
	if ep.Info != nil && ep.Info.Seed != "" {
		seed, err := ParseSeed(ep.Info.Seed)
		if err != nil {
			return nil, fmt.Errorf("replay %s: the episode's %w", ep.Path, err)
		}
		seeded, err := WithSeed(spec, seed)
		if err != nil {
			return nil, fmt.Errorf("replay %s: the episode was recorded with seed %d: %w", ep.Path, seed, err)
		}
		s = *seeded
	}
	// The replay provider resolves its script against the spec's directory:
	// the episode's path (relative to the process) must not be.
	path, err := filepath.Abs(ep.Path)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", ep.Path, err)
	}
	rm := func(m schema.Model) schema.Model {
		return schema.Model{Provider: "replay", Timeout: m.Timeout, Retries: m.Retries, Config: replay.Config{Script: path}}
	}
	s.Model = rm(spec.Model)
	for _, m := range []**schema.Model{&s.Evaluator.Model, &s.Context.Compaction.CompactionModel, &s.Memory.Consolidation.Model} {
		if *m != nil {
			r := rm(**m)
			*m = &r
		}
	}
	s.RunLog.Enabled = false
	if spec.Memory.Dir != "" {
		s.Memory.Dir = memDir
	}
	s.Files = slices.Clone(spec.Files)
	return &s, nil
}

// recordedFormat is the format version an episode was recorded in: 1 for
// a run log older than the version's field.
func recordedFormat(ep *replay.Episode) int {
	if ep.Info == nil || ep.Info.Format == 0 {
		return 1
	}
	return ep.Info.Format
}
