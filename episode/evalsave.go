package episode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// runSeed runs one episode, and saves it in saveDir when it fails (and
// saveDir is set). refused is set, and the episode cut short, when the
// body's cross-process lock refused a physical call (see lockRefusal).
func runSeed(ctx context.Context, spec *schema.Spec, cfg *EvalConfig, run episodeKey, newSession NewSession) (o Outcome, refused error) {
	saveDir := cfg.SaveFailures
	if saveDir == "" {
		return playSeed(ctx, spec, cfg, run, "", newSession)
	}
	runLog, err := os.MkdirTemp("", "thea-eval-run-")
	if err != nil {
		o = Outcome{Seed: run.seed, Repeat: run.repeat, Error: err.Error(), Reason: runlog.DoneError, FailureKind: string(runlog.DoneError)}
		return o, nil
	}
	defer os.RemoveAll(runLog)
	o, refused = playSeed(ctx, spec, cfg, run, runLog, newSession)
	if refused != nil || o.Success {
		return o, refused
	}
	dirs, err := RunDirs(runLog)
	if err == nil && len(dirs) != 1 {
		err = fmt.Errorf("%d task folders in its run log, want 1", len(dirs))
	}
	name := fmt.Sprintf("seed-%d", run.seed)
	if run.repeat > 0 {
		name += fmt.Sprintf("-repeat-%d", run.repeat)
	}
	dest := filepath.Join(saveDir, name)
	if err == nil {
		err = SaveNewRun(context.WithoutCancel(ctx), dirs[0], dest)
	}
	if err != nil {
		// The outcome stands; only its episode is missing.
		o.SaveError = err.Error()
		o.Error = strings.TrimPrefix(o.Error+"; not saved as an episode: "+err.Error(), "; ")
		return o, nil
	}
	o.Saved = dest
	return o, nil
}
