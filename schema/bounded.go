package schema

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/thea-harness/thea/internal/readfile"
)

// EvaluatorEnv is set in the evaluator process's environment. A Load with
// an Evaluator inside it is refused: a binary that does not route the
// evaluator's command (a test binary, say) would otherwise start itself
// again and again.
const EvaluatorEnv = "THEA_SPEC_EVALUATOR"

// evalGrace is how long the parent waits for a killed evaluator's output.
const evalGrace = 5 * time.Second

// evalStderrMax bounds what is kept of the evaluator's stderr: a crash's
// first line says why.
const evalStderrMax = 4 << 10

// evaluateBounded runs the spec's evaluation in the evaluator process
// within MaxEvalHeap and MaxEvalTime (CPU), and MaxEvalWall. It returns the files as read, to be
// loaded in this process (the same bytes, so the same evaluation, which
// stayed within the bounds), or the diagnostic of the bound that was hit.
// When a file cannot be read it returns neither: Load reports that before
// it evaluates anything.
func evaluateBounded(paths []string, opts LoadOptions) (map[string][]byte, []Diagnostic) {
	ctx := opts.Context
	at := Pos{File: paths[0]}
	fail := func(format string, a ...any) (map[string][]byte, []Diagnostic) {
		return nil, []Diagnostic{{Pos: at, Message: fmt.Sprintf(format, a...)}}
	}
	if os.Getenv(EvaluatorEnv) != "" {
		return fail("internal: the spec evaluator was asked to start another evaluator: the binary %q does not route its evaluator command %q to schema.ServeEvaluation", opts.Evaluator[0], strings.Join(opts.Evaluator[1:], " "))
	}
	req := evalRequest{Paths: paths, Heap: MaxEvalHeap, Time: MaxEvalTime}
	sources := make(map[string][]byte, len(paths))
	for _, p := range paths {
		src, err := readfile.Read(ctx, p, readfile.Spec)
		if err != nil {
			return nil, nil
		}
		sources[p] = src
		req.Sources = append(req.Sources, src)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return fail("internal: encoding the evaluation request: %v", err)
	}
	runCtx, cancel := context.WithTimeout(ctx, MaxEvalWall)
	defer cancel()
	cmd := exec.CommandContext(runCtx, opts.Evaluator[0], opts.Evaluator[1:]...)
	cmd.Stdin = bytes.NewReader(body)
	var stdout, stderr capped
	stdout.max, stderr.max = evalStderrMax, evalStderrMax
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), EvaluatorEnv+"=1")
	cmd.SysProcAttr = evalProcAttr()
	cmd.WaitDelay = evalGrace
	if err := cmd.Start(); err != nil {
		return fail("internal: starting the spec evaluator: %v", err)
	}
	overRSS := watchRSS(runCtx, cmd.Process, 2*MaxEvalHeap+evalRSSSlack)
	waitErr := cmd.Wait()
	cancel()
	rss := <-overRSS

	var ans evalAnswer
	_ = json.Unmarshal(lastLine(stdout.Bytes()), &ans) // no answer: judged below by how it ended
	switch {
	case waitErr == nil && ans.Done:
		return sources, nil
	case ctx.Err() != nil:
		return fail("evaluating the spec: %v", ctx.Err())
	case ans.Bound == "memory" || rss > 0 || strings.Contains(stderr.String(), "out of memory"):
		return fail("evaluating the spec took more than %d MiB of memory, the bound on a spec's evaluation: an expression builds a huge value (a string or list doubled again and again, a comprehension over a long range)%s", MaxEvalHeap>>20, alsoFiles(paths))
	case ans.Bound == "time":
		return fail("evaluating the spec took more than %v of CPU time, the bound on a spec's evaluation: an expression builds a huge value (a string or list doubled again and again, a comprehension over a long range)%s", MaxEvalTime, alsoFiles(paths))
	case runCtx.Err() != nil:
		return fail("evaluating the spec took longer than %v, the bound on a spec's evaluation: an expression builds a huge value (a string or list doubled again and again, a comprehension over a long range), or the machine is overloaded%s", MaxEvalWall, alsoFiles(paths))
	case strings.Contains(stderr.String(), "stack exceeds"):
		return fail("evaluating the spec recursed deeper than the bound of %d MiB of stack%s", maxEvalStack>>20, alsoFiles(paths))
	}
	why := firstLine(stderr.String())
	if why == "" {
		why = firstLine(stdout.String())
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		why = strings.TrimSpace(ee.String() + ": " + why)
	}
	return fail("internal: the spec evaluator failed (%s)%s", strings.TrimSuffix(why, ": "), alsoFiles(paths))
}

// alsoFiles names the spec's other files: the bound is the whole spec's.
func alsoFiles(paths []string) string {
	if len(paths) < 2 {
		return ""
	}
	return " (the spec's files: " + strings.Join(paths, ", ") + ")"
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
