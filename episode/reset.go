package episode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// resetOutputMax bounds how much of a failed reset command's output an
// error quotes.
const resetOutputMax = 2000

// Reset runs the spec's reset step (episodes.reset) before an episode on
// session h: its tool, given the seed and the task as episodes.reset.args
// names them, or its command. seed is nil when the episode has none. A
// spec without a reset step does nothing. The step fails closed: a tool
// answering a failure, a command exiting non-zero or running past the
// step's timeout is an error, and the episode does not run.
func Reset(ctx context.Context, spec *schema.Spec, h *engine.Harness, seed *uint64, task string) error {
	r := spec.Episodes.Reset
	if r == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.Timeout.D())
	defer cancel()
	if r.Tool != "" {
		return resetTool(ctx, r, h, seed, task)
	}
	return resetCommand(ctx, spec.Dir, r, seed, task)
}

func resetTool(ctx context.Context, r *schema.Reset, h *engine.Harness, seed *uint64, task string) error {
	args := map[string]any{}
	if slices.Contains(r.Args, "seed") {
		if seed == nil {
			return fmt.Errorf("reset: episodes.reset.args gives %s a seed, and this episode has none (record it with --seed, or leave seed out of args)", r.Tool)
		}
		args["seed"] = *seed
	}
	if slices.Contains(r.Args, "task") {
		args["task"] = task
	}
	env, err := h.CallReset(ctx, args)
	if err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	if !env.Success {
		return fmt.Errorf("reset: %s failed: %s", r.Tool, env.Reason)
	}
	return nil
}

func resetCommand(ctx context.Context, dir string, r *schema.Reset, seed *uint64, task string) error {
	argv := slices.Clone(r.Command)
	digits := ""
	if seed != nil {
		digits = strconv.FormatUint(*seed, 10)
	}
	for i, a := range argv {
		if strings.Contains(a, SeedPlaceholder) {
			if seed == nil {
				return fmt.Errorf("reset: episodes.reset.command[%d] takes the seed (%s), and this episode has none", i, SeedPlaceholder)
			}
			argv[i] = strings.ReplaceAll(a, SeedPlaceholder, digits)
		}
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "THEA_SEED="+digits, "THEA_TASK="+task)
	// A reset that leaves a child holding the output open must not hold
	// the episode past the timeout.
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("reset: %s did not finish within episodes.reset.timeout (%s)", filepath.Base(argv[0]), r.Timeout.D())
	}
	if err != nil {
		text := strings.TrimSpace(out.String())
		if len(text) > resetOutputMax {
			text = "…" + text[len(text)-resetOutputMax:]
		}
		if text != "" {
			err = fmt.Errorf("%w: %s", err, text)
		}
		return fmt.Errorf("reset: %s: %w", strings.Join(argv, " "), err)
	}
	return nil
}

// episodeSeed is the seed an episode was recorded with, nil when none.
func episodeSeed(info string) (*uint64, error) {
	if info == "" {
		return nil, nil
	}
	n, err := ParseSeed(info)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// errResetParallel: one robot runs one episode at a time.
var errResetParallel = errors.New("a reset step puts one robot back between episodes: run them one at a time (--parallel 1)")

// withSeedOrReset is spec with its back-ends at seed (WithSeed); a spec
// whose command lines take no seed (a live robot) runs unchanged when it
// has a reset step: each seed is an episode after a reset, which is given
// the seed when it takes one.
func withSeedOrReset(spec *schema.Spec, seed uint64) (*schema.Spec, error) {
	s, err := WithSeed(spec, seed)
	if err == nil {
		return s, nil
	}
	if spec.Episodes.Reset != nil {
		return spec, nil
	}
	return nil, fmt.Errorf("%w; a live robot whose back-ends take no seed needs an episodes.reset step", err)
}
